/**
 * The invoice PDF as §14 Abs. 4 UStG asks: every required element is read back from
 * the drawn text — the PDF rendered without compression, its text operators decoded — for an
 * invoice built here and for one issued through the API with the seller from BILLING_SELLER_*.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { invoices } from '../../db/schema.ts';
import { createCompany } from '../me/account.fixtures.ts';
import type { InvoiceRow } from './billing.repository.ts';
import { invoiceMail } from './billing.wiring.ts';
import { formatDate, formatMoney, renderInvoicePdf, servicePeriod } from './invoice-pdf.ts';

/** All lines joined with spaces: a wrapped sentence reads whole again. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

const SELLER = {
  name: 'Heizplan GmbH',
  address: ['Musterstraße 1', '10115 Berlin'],
  vatId: 'DE123456789',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  bank: 'Commerzbank',
};

const invoice = (over: Partial<InvoiceRow> = {}): InvoiceRow => ({
  id: '4f1c2d8e-0000-4000-8000-000000000001',
  companyId: '4f1c2d8e-0000-4000-8000-000000000002',
  number: 'HP-2026-000042',
  issuedAt: new Date('2026-11-26T09:15:00Z'),
  reason: 'checkout',
  periodStart: new Date('2026-11-26T09:15:00Z'),
  periodEnd: new Date('2027-11-26T09:15:00Z'),
  interval: 'yearly',
  licences: 3,
  unitPriceCents: 4900,
  netCents: 14700,
  vatPercent: 19,
  vatCents: 2793,
  grossCents: 17493,
  currency: 'EUR',
  paymentMethod: 'invoice',
  billedTo: 'Muster Hausverwaltung GmbH; Hauptstraße 5; 80331 München; buyer@example.test',
  seller: 'Heizplan GmbH',
  sellerDetails: SELLER,
  buyerDetails: {
    name: 'Muster Hausverwaltung GmbH',
    address: ['Hauptstraße 5', '80331 München'],
    vatId: 'DE987654321',
    email: 'buyer@example.test',
  },
  status: 'open',
  dueAt: new Date('2026-12-10T09:15:00Z'),
  paidAt: null,
  ...over,
});

describe('German formats', () => {
  it('writes amounts as 1.234,56 € and dates as 26.11.2026', () => {
    expect(formatMoney(123456, 'EUR')).toBe('1.234,56\u00a0€');
    expect(formatMoney(5, 'EUR')).toBe('0,05\u00a0€');
    expect(formatDate(new Date('2026-11-26T09:15:00Z'))).toBe('26.11.2026');
    // Late evening UTC is already the next day in Germany.
    expect(formatDate(new Date('2026-11-26T23:30:00Z'))).toBe('27.11.2026');
    expect(servicePeriod(new Date('2026-11-26T09:15:00Z'), new Date('2027-11-26T09:15:00Z'))).toBe(
      '26.11.2026 – 25.11.2027',
    );
  });
});

describe('the invoice PDF', () => {
  it('has every element of §14 Abs. 4 UStG, the gross total and how to pay it', async () => {
    const pdf = await renderInvoicePdf(invoice(), { compress: false });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = flat(pdfText(pdf));
    // Nr. 1: seller and buyer, full name and address.
    expect(text).toContain('Heizplan GmbH');
    expect(text).toContain('Musterstraße 1');
    expect(text).toContain('10115 Berlin');
    expect(text).toContain('Muster Hausverwaltung GmbH Hauptstraße 5 80331 München');
    // Nr. 2: the seller's VAT ID; the buyer's too, when given.
    expect(text).toContain('USt-IdNr. / VAT ID: DE123456789');
    expect(text).toContain("Buyer's VAT ID: DE987654321");
    // Nr. 3, 4: invoice date and the unique number.
    expect(text).toContain('Rechnungsdatum / Invoice date: 26.11.2026');
    expect(text).toContain('Rechnungsnummer / Invoice number: HP-2026-000042');
    // Nr. 5, 6: quantity and kind of the service, its period.
    expect(text).toContain('3 × Gerätelizenz / device licence (jährlich / yearly)');
    expect(text).toContain('Leistungszeitraum / Service period: 26.11.2026 – 25.11.2027');
    expect(text).toContain('Einzelpreis netto / Unit price (net): 49,00 €');
    // Nr. 7, 8: net amount, VAT rate and amount; the gross total.
    expect(text).toContain('Summe netto / Net amount: 147,00 €');
    expect(text).toContain('zzgl. USt. 19 % / VAT 19 %: 27,93 €');
    expect(text).toContain('Gesamtbetrag / Total: 174,93 €');
    // Paying "auf Rechnung": due date and the seller's account.
    expect(text).toContain('Fällig am / Due date: 10.12.2026');
    expect(text).toContain(
      'Bitte überweisen Sie 174,93 € bis zum 10.12.2026 unter Angabe der Rechnungsnummer HP-2026-000042',
    );
    expect(text).toContain('IBAN: DE89 3704 0044 0532 0130 00');
    expect(text).toContain('BIC: COBADEFFXXX');
    expect(text).toContain('Bank: Commerzbank');
  });

  it('does not point to "the account below" when the operator configured none', async () => {
    const pdf = await renderInvoicePdf(
      invoice({ sellerDetails: { ...SELLER, iban: undefined, bic: undefined, bank: undefined } }),
      { compress: false },
    );
    const text = flat(pdfText(pdf));
    expect(text).not.toContain('unten genannte Konto');
    expect(text).not.toContain('account below');
    expect(text).not.toContain('IBAN');
    expect(text).toContain(
      'Bitte überweisen Sie 174,93 € bis zum 10.12.2026 unter Angabe der Rechnungsnummer HP-2026-000042; die Bankverbindung nennt Ihnen Heizplan GmbH.',
    );
    expect(text).toContain('Heizplan GmbH will give you the bank details.');
  });

  it('names the tax number when the seller has no VAT ID, and a prorated line’s period', async () => {
    const pdf = await renderInvoicePdf(
      invoice({
        reason: 'licences',
        periodStart: new Date('2027-03-01T10:00:00Z'),
        sellerDetails: { ...SELLER, vatId: undefined, taxNumber: '27/123/45678' },
        status: 'paid',
        paidAt: new Date('2027-03-01T10:00:00Z'),
        paymentMethod: 'immediate',
        dueAt: null,
      }),
      { compress: false },
    );
    const text = flat(pdfText(pdf));
    expect(text).toContain('Steuernummer / Tax number: 27/123/45678');
    expect(text).not.toContain('VAT ID: DE123456789');
    expect(text).toContain('Anteilig für / Prorated for 01.03.2027 – 25.11.2027');
    expect(text).toContain('Bezahlt am / Paid on 01.03.2027.');
  });

  it('prints an invoice issued before VAT was itemised as it was issued: net, plus VAT', async () => {
    const pdf = await renderInvoicePdf(
      invoice({
        vatPercent: null,
        vatCents: null,
        grossCents: null,
        sellerDetails: null,
        buyerDetails: null,
        seller: 'Heizplan; Musterweg 2; 10115 Berlin',
      }),
      { compress: false },
    );
    const text = flat(pdfText(pdf));
    expect(text).toContain('Musterweg 2');
    expect(text).toContain('Muster Hausverwaltung GmbH Hauptstraße 5 80331 München');
    expect(text).toContain('Summe netto / Net amount: 147,00 €');
    expect(text).toContain('Alle Beträge netto, zzgl. USt.');
    expect(text).not.toContain('Gesamtbetrag');
  });
});

describe('the invoice mail', () => {
  it('speaks only the recipient’s language', () => {
    const [subjectDe, textDe] = invoiceMail(invoice(), 'de');
    expect(subjectDe).toBe('Rechnung HP-2026-000042');
    expect(textDe.replace(/\u00a0/g, ' ')).toContain('174,93 € (147,00 € netto zzgl. 19 % USt.)');
    expect(textDe).toContain('Bitte zahlen Sie bis 10.12.2026');
    expect(`${subjectDe} ${textDe}`).not.toMatch(/Invoice|Hello|Please/);
    const [subjectEn, textEn] = invoiceMail(invoice(), 'en');
    expect(subjectEn).toBe('Invoice HP-2026-000042');
    expect(`${subjectEn} ${textEn}`).not.toMatch(/Rechnung|Guten Tag|Bitte/);
  });
});

describe('an invoice issued through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      BILLING_SELLER_NAME: 'Wärme & Co. KG',
      BILLING_SELLER_ADDRESS: 'Am Kessel 7; 50667 Köln',
      BILLING_SELLER_TAX_NUMBER: '214/5678/1234',
      BILLING_SELLER_IBAN: 'DE02 1203 0000 0000 2020 51',
      BILLING_SELLER_BIC: 'BYLADEM1001',
      BILLING_SELLER_BANK: 'Deutsche Kreditbank',
      BILLING_VAT_PERCENT: '7.5',
      PRICE_MONTHLY: '1234.56',
    });
  });
  afterAll(() => t.close());

  it('prints the seller from BILLING_SELLER_*, the kept billing address and VAT at the configured rate', async () => {
    const { id } = await createCompany(t, 'pdf-admin');
    const base = `/api/companies/${id}/billing`;
    await t.call(
      'PUT',
      `${base}/address`,
      { name: 'Kunde AG', street: 'Rue de la Loi 1', postcode: '1000', city: 'Bruxelles', country: 'BE' },
      'pdf-admin',
    );
    const checkout = await t.call(
      'POST',
      `${base}/checkout`,
      { interval: 'monthly', licences: 1, paymentMethod: 'invoice' },
      'pdf-admin',
    );
    expect(checkout.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.companyId, id));
    if (!row) throw new Error('no invoice issued');
    expect(row).toMatchObject({ netCents: 123456, vatPercent: 7.5, vatCents: 9259, grossCents: 132715 });
    const text = flat(pdfText(await renderInvoicePdf(row, { compress: false })));
    expect(text).toContain('Wärme & Co. KG · Am Kessel 7 · 50667 Köln');
    expect(text).toContain('Steuernummer / Tax number: 214/5678/1234');
    expect(text).toContain('Kunde AG Rue de la Loi 1 1000 Bruxelles Belgien');
    expect(text).toContain(`Rechnungsnummer / Invoice number: ${row.number}`);
    expect(text).toContain(`Rechnungsdatum / Invoice date: ${formatDate(row.issuedAt)}`);
    expect(text).toContain('Summe netto / Net amount: 1.234,56 €');
    expect(text).toContain('zzgl. USt. 7,5 % / VAT 7,5 %: 92,59 €');
    expect(text).toContain('Gesamtbetrag / Total: 1.327,15 €');
    expect(text).toContain(`Fällig am / Due date: ${formatDate(row.dueAt ?? new Date(0))}`);
    expect(text).toContain('IBAN: DE02 1203 0000 0000 2020 51');
    expect(text).toContain('BIC: BYLADEM1001');
    expect(text).toContain('Bank: Deutsche Kreditbank');
    const download = await t.call('GET', `${base}/invoices/${row.id}/pdf`, undefined, 'pdf-admin');
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
