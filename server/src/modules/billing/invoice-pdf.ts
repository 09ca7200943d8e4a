/**
 * The PDF of a manual-provider invoice, drawn with pdfkit's built-in Helvetica
 * (WinAnsi: umlauts and € print). German first, English beside it: the buyer's language is not
 * part of the company. Dates and amounts are German (`26.11.2026`, `1.234,56 €`).
 *
 * It carries what §14 Abs. 4 UStG asks of an invoice: the seller's and the buyer's full name and
 * address (Nr. 1), the seller's tax number or VAT ID (Nr. 2), the invoice date (Nr. 3), a unique
 * sequential number (Nr. 4), quantity and kind of the service (Nr. 5), its period (Nr. 6), the
 * net amount (Nr. 7), the VAT rate and amount (Nr. 8) — plus the gross total, the due date and
 * the seller's bank account for paying by transfer. Invoices issued before VAT was itemised
 * (no `vatPercent`) print as they were issued: net, "plus VAT".
 */
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import type { InvoiceBuyer, InvoiceSeller } from '../../db/schema.ts';
import type { InvoiceRow } from './billing.repository.ts';
import { formatIban } from './manual-provider.ts';

const INTERVAL_LABEL: Record<InvoiceRow['interval'], string> = {
  monthly: 'monatlich / monthly',
  yearly: 'jährlich / yearly',
  '3yearly': 'alle 3 Jahre / every 3 years',
};

const REASON_LABEL: Record<InvoiceRow['reason'], string> = {
  checkout: 'Abonnement / Subscription',
  renewal: 'Verlängerung / Renewal',
  licences: 'Zusätzliche Lizenzen (anteilig) / Additional licences (prorated)',
};

/** The time zone the invoice's dates are given in: the seller's (German invoices). */
const ZONE = 'Europe/Berlin';

/** `12345` cents → `123,45 €` (de-DE currency format; a no-break space before the symbol). */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('de-DE', { style: 'currency', currency }).format(cents / 100);
}

const DATE = new Intl.DateTimeFormat('de-DE', {
  timeZone: ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** `2026-11-26T…Z` → `26.11.2026`, the calendar day in Germany. */
export function formatDate(date: Date): string {
  return DATE.format(date);
}

/** `19` → `19 %`, `7.5` → `7,5 %`. */
export function formatPercent(percent: number): string {
  return `${new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }).format(percent)} %`;
}

/**
 * First and last day of the service period: a period ends at the instant the next one starts,
 * and the next period's invoice claims that day, so this one's last day is the day before
 * (in Germany; never before the first day).
 */
export function servicePeriod(start: Date, end: Date): string {
  const first = DateTime.fromJSDate(start, { zone: ZONE }).startOf('day');
  const last = DateTime.fromJSDate(end, { zone: ZONE }).startOf('day').minus({ days: 1 });
  return `${formatDate(start)} – ${formatDate((last < first ? first : last).toJSDate())}`;
}

const splitLines = (text: string) => text.split(/\s*[;\n]\s*/).filter(Boolean);

/** The seller as issued; invoices from before the itemised details keep their text. */
function sellerOf(invoice: InvoiceRow): InvoiceSeller {
  if (invoice.sellerDetails) return invoice.sellerDetails;
  const [name = '', ...address] = splitLines(invoice.seller);
  return { name, address };
}

/** The buyer as issued; invoices from before the itemised details keep their text. */
function buyerOf(invoice: InvoiceRow): InvoiceBuyer {
  if (invoice.buyerDetails) return invoice.buyerDetails;
  const [name = '', ...rest] = splitLines(invoice.billedTo);
  const email = rest.find((line) => line.includes('@')) ?? '';
  return { name, address: rest.filter((line) => line !== email), email };
}

/** The seller's tax line (§14 Abs. 4 Nr. 2 UStG): the VAT ID, else the tax number. */
function taxLine(seller: InvoiceSeller): string | undefined {
  if (seller.vatId) return `USt-IdNr. / VAT ID: ${seller.vatId}`;
  if (seller.taxNumber) return `Steuernummer / Tax number: ${seller.taxNumber}`;
  return undefined;
}

/** The seller's bank account lines, when configured. */
function bankLines(seller: InvoiceSeller): string[] {
  return [
    seller.bank ? `Bank: ${seller.bank}` : '',
    seller.iban ? `IBAN: ${formatIban(seller.iban)}` : '',
    seller.bic ? `BIC: ${seller.bic}` : '',
  ].filter(Boolean);
}

export interface RenderOptions {
  /** Deflate the content streams (default); tests turn it off to read the drawn text. */
  compress?: boolean;
}

/** Renders `invoice` as a one-page A4 PDF. */
export function renderInvoicePdf(invoice: InvoiceRow, options: RenderOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: options.compress ?? true,
    info: { Title: `Rechnung ${invoice.number}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const seller = sellerOf(invoice);
  const buyer = buyerOf(invoice);
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // Sender line above the address, as on a letter (DIN 5008).
  doc.font('Helvetica').fontSize(8).fillColor('#555555');
  doc.text([seller.name, ...seller.address].join(' · '), { width });

  doc.moveDown(1).fillColor('#000000').fontSize(10);
  doc.text([buyer.name, ...buyer.address].join('\n'), { width });
  if (buyer.vatId) doc.text(`USt-IdNr. des Leistungsempfängers / Buyer's VAT ID: ${buyer.vatId}`);

  doc.moveDown(2).font('Helvetica-Bold').fontSize(16).text(`Rechnung / Invoice ${invoice.number}`);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Rechnungsnummer / Invoice number: ${invoice.number}`);
  doc.text(`Rechnungsdatum / Invoice date: ${formatDate(invoice.issuedAt)}`);
  doc.text(`Leistungszeitraum / Service period: ${servicePeriod(invoice.periodStart, invoice.periodEnd)}`);
  if (invoice.dueAt) doc.text(`Fällig am / Due date: ${formatDate(invoice.dueAt)}`);

  // The line: quantity, kind of service, unit price and net amount (§14 Abs. 4 Nr. 5, 7 UStG).
  doc.moveDown(1.5).font('Helvetica-Bold').text(REASON_LABEL[invoice.reason]);
  doc.font('Helvetica');
  doc.text(
    `Menge / Quantity: ${invoice.licences} × Gerätelizenz / device licence (${INTERVAL_LABEL[invoice.interval]})`,
    { width },
  );
  doc.text(`Einzelpreis netto / Unit price (net): ${money(invoice.unitPriceCents)}`);
  if (invoice.reason === 'licences') {
    doc.text(`Anteilig für / Prorated for ${servicePeriod(invoice.periodStart, invoice.periodEnd)}`);
  }

  doc.moveDown(1);
  doc.text(`Summe netto / Net amount: ${money(invoice.netCents)}`);
  const vatPercent = invoice.vatPercent;
  const itemised = vatPercent !== null && invoice.vatCents !== null && invoice.grossCents !== null;
  if (itemised) {
    doc.text(
      `zzgl. USt. ${formatPercent(vatPercent)} / VAT ${formatPercent(vatPercent)}: ${money(invoice.vatCents ?? 0)}`,
    );
    doc.font('Helvetica-Bold').fontSize(12);
    doc.text(`Gesamtbetrag / Total: ${money(invoice.grossCents ?? 0)}`);
  } else {
    doc.fontSize(9).fillColor('#555555').text('Alle Beträge netto, zzgl. USt. / All amounts net, plus VAT.');
  }
  const total = itemised ? (invoice.grossCents ?? 0) : invoice.netCents;

  doc.font('Helvetica').fontSize(10).fillColor('#000000').moveDown(1);
  if (invoice.status === 'paid') {
    doc.text(`Bezahlt am / Paid on ${formatDate(invoice.paidAt ?? invoice.issuedAt)}.`, { width });
  } else {
    const due = invoice.dueAt ? ` bis zum ${formatDate(invoice.dueAt)}` : '';
    const dueEn = invoice.dueAt ? ` by ${formatDate(invoice.dueAt)}` : '';
    // "The account below" only where one is printed below: an operator may not have configured it.
    const account = seller.iban !== undefined && seller.iban !== '';
    doc.text(
      account
        ? `Bitte überweisen Sie ${money(total)}${due} unter Angabe der Rechnungsnummer ${invoice.number} auf das unten genannte Konto.`
        : `Bitte überweisen Sie ${money(total)}${due} unter Angabe der Rechnungsnummer ${invoice.number}; die Bankverbindung nennt Ihnen ${seller.name}.`,
      { width },
    );
    doc.text(
      account
        ? `Please transfer ${money(total)}${dueEn}, quoting invoice number ${invoice.number}, to the account below.`
        : `Please transfer ${money(total)}${dueEn}, quoting invoice number ${invoice.number}; ${seller.name} will give you the bank details.`,
      { width },
    );
  }

  // Footer: the seller in full, tax line and bank account.
  doc.moveDown(2).fontSize(8).fillColor('#555555');
  doc.text(seller.name, { width });
  for (const line of seller.address) doc.text(line, { width });
  const tax = taxLine(seller);
  if (tax) doc.text(tax, { width });
  for (const line of bankLines(seller)) doc.text(line, { width });
  doc.end();
  return done;
}
