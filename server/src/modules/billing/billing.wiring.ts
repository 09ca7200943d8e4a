/**
 * Builds the billing service for a request from `app.deps` (as the account services do): the
 * provider follows BILLING_PROVIDER; its mail goes through the account ports' mailer, so tests
 * and the composition root supply the transport. The Stripe client is made once per app.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { resolveAccountPorts } from '../me/me.ports.ts';
import type { InvoiceRow } from './billing.repository.ts';
import { BillingService } from './billing.service.ts';
import { formatDate, formatMoney, formatPercent, renderInvoicePdf } from './invoice-pdf.ts';
import { ManualBillingProvider } from './manual-provider.ts';
import { createStripeClient, StripeBillingProvider } from './stripe-provider.ts';

const stripeProviders = new WeakMap<FastifyInstance, StripeBillingProvider>();

/** The app's Stripe provider; undefined unless BILLING_PROVIDER=stripe. */
export function stripeProvider(app: FastifyInstance): StripeBillingProvider | undefined {
  const { billing, publicUrl } = app.deps.config;
  if (!billing.stripe) return undefined;
  let provider = stripeProviders.get(app);
  if (!provider) {
    provider = new StripeBillingProvider(
      createStripeClient(billing.stripe),
      billing.stripe,
      billing,
      publicUrl,
    );
    stripeProviders.set(app, provider);
  }
  return provider;
}

/** The manual provider, mailing invoices as PDF attachments through the app's mailer. */
export function manualProvider(app: FastifyInstance): ManualBillingProvider {
  const { config, accountPorts } = app.deps;
  const mailer = resolveAccountPorts(accountPorts, app.log).mailer;
  return new ManualBillingProvider(config.billing, async (invoice, to) => {
    const pdf = await renderInvoicePdf(invoice);
    const lang = await recipientLanguage(app.deps.database.db, to);
    await mailer.send(to, ...invoiceMail(invoice, lang), [
      { filename: `${invoice.number}.pdf`, content: pdf, contentType: 'application/pdf' },
    ]);
  });
}

export function billingService(app: FastifyInstance): BillingService {
  const { config, database } = app.deps;
  const provider =
    config.billing.provider === 'stripe'
      ? stripeProvider(app)
      : config.billing.provider === 'manual'
        ? manualProvider(app)
        : undefined;
  return new BillingService({
    db: database.db,
    config: config.billing,
    provider,
    publicUrl: config.publicUrl,
    log: app.log,
  });
}

/** The language a member with this e-mail address chose; German (the default) for anyone else. */
async function recipientLanguage(db: Db, email: string): Promise<'de' | 'en'> {
  const [row] = await db
    .select({ lang: users.lang })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row?.lang === 'en' ? 'en' : 'de';
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
