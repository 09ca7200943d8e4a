/**
 * The PDF of a manual-provider invoice (issue 13), drawn with pdfkit's built-in Helvetica
 * (WinAnsi: umlauts and € print). German first, English beside it: the buyer's language is not
 * part of the company. Every amount is net (spec §1), VAT is added by the seller's bookkeeping.
 */
import PDFDocument from 'pdfkit';
import type { InvoiceRow } from './billing.repository.ts';

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

/** `12345` cents → `123,45 EUR` (German decimal comma, the currency code after the amount). */
export function formatMoney(cents: number, currency: string): string {
  const amount = new Intl.NumberFormat('de-DE', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
  return `${amount} ${currency}`;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Renders `invoice` as a one-page A4 PDF. */
export function renderInvoicePdf(invoice: InvoiceRow): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Rechnung ${invoice.number}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica').fontSize(9).fillColor('#555555');
  doc.text(invoice.seller.split(/\s*[;\n]\s*/).join('\n'));
  doc
    .moveDown(2)
    .fillColor('#000000')
    .fontSize(10)
    .text(invoice.billedTo.split(/\s*[;\n]\s*/).join('\n'));
  doc.moveDown(2).font('Helvetica-Bold').fontSize(16).text(`Rechnung / Invoice ${invoice.number}`);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Rechnungsdatum / Date: ${day(invoice.issuedAt)}`);
  doc.text(`Leistungszeitraum / Period: ${day(invoice.periodStart)} – ${day(invoice.periodEnd)}`);
  if (invoice.dueAt) doc.text(`Fällig bis / Due: ${day(invoice.dueAt)}`);
  doc.moveDown(1.5).font('Helvetica-Bold').text(REASON_LABEL[invoice.reason]);
  doc.font('Helvetica');
  doc.text(
    `${invoice.licences} × Gerätelizenz / device licence (${INTERVAL_LABEL[invoice.interval]}) à ${formatMoney(
      invoice.unitPriceCents,
      invoice.currency,
    )}`,
  );
  doc.moveDown(1).font('Helvetica-Bold').fontSize(12);
  doc.text(`Summe netto / Net total: ${formatMoney(invoice.netCents, invoice.currency)}`);
  doc.font('Helvetica').fontSize(9).fillColor('#555555').moveDown(0.5);
  doc.text('Alle Beträge netto, zzgl. USt. / All amounts net, plus VAT.');
  doc.moveDown(1);
  doc.text(
    invoice.status === 'paid'
      ? `Bezahlt am / Paid on ${day(invoice.paidAt ?? invoice.issuedAt)}.`
      : 'Bitte überweisen Sie den Betrag unter Angabe der Rechnungsnummer. / Please transfer the amount quoting the invoice number.',
  );
  doc.end();
  return done;
}
