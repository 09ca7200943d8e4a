/**
 * The payment provider BILLING_PROVIDER names, made once at start: the manual provider mails its
 * invoices as PDF attachments through the mail port (in the recipient's language), Stripe's
 * talks to Stripe's API. Undefined with `none`.
 */
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../me/me.ports.ts';
import { type InvoiceRow, recipientLanguage } from './billing.repository.ts';
import { formatDate, formatMoney, formatPercent, renderInvoicePdf } from './invoice-pdf.ts';
import { ManualBillingProvider } from './manual-provider.ts';
import { createStripeClient, StripeBillingProvider } from './stripe-provider.ts';

export function createBillingProvider(
  config: Pick<Config, 'billing' | 'publicUrl'>,
  db: Db,
  mailer: Mailer,
  /** When the manual provider's checkouts and periods start; the services' clock. */
  now?: Clock,
): ManualBillingProvider | StripeBillingProvider | undefined {
  const { billing, publicUrl } = config;
  if (billing.provider === 'stripe' && billing.stripe) {
    return new StripeBillingProvider(createStripeClient(billing.stripe), billing.stripe, billing, publicUrl);
  }
  if (billing.provider !== 'manual') return undefined;
  return new ManualBillingProvider(
    billing,
    async (invoice, to) => {
      const pdf = await renderInvoicePdf(invoice);
      const lang = await recipientLanguage(db, to);
      await mailer.send(to, ...invoiceMail(invoice, lang), [
        { filename: `${invoice.number}.pdf`, content: pdf, contentType: 'application/pdf' },
      ]);
    },
    now,
  );
}

/**
 * Subject and text of the mail that carries an invoice PDF, in the recipient's language only
 * (the PDF itself is German: the invoice follows §14 UStG).
 */
export function invoiceMail(invoice: InvoiceRow, lang: 'de' | 'en'): [string, string] {
  const net = formatMoney(invoice.netCents, invoice.currency);
  const vat = invoice.vatPercent === null ? null : formatPercent(invoice.vatPercent);
  const gross = invoice.grossCents === null ? null : formatMoney(invoice.grossCents, invoice.currency);
  const amountDe = gross && vat ? `${gross} (${net} netto zzgl. ${vat} USt.)` : `${net} netto zzgl. USt.`;
  const amountEn = gross && vat ? `${gross} (${net} net plus ${vat} VAT)` : `${net} net plus VAT`;
  const due = invoice.dueAt ? formatDate(invoice.dueAt) : '';
  if (lang === 'en') {
    return [
      `Invoice ${invoice.number}`,
      [
        `Hello, attached is invoice ${invoice.number} for ${amountEn}.`,
        due ? `Please pay by ${due}, quoting the invoice number, to:` : 'Payee:',
        invoice.seller,
      ].join('\n'),
    ];
  }
  return [
    `Rechnung ${invoice.number}`,
    [
      `Guten Tag, anbei erhalten Sie die Rechnung ${invoice.number} über ${amountDe}.`,
      due ? `Bitte zahlen Sie bis ${due} unter Angabe der Rechnungsnummer an:` : 'Zahlungsempfänger:',
      invoice.seller,
    ].join('\n'),
  ];
}
