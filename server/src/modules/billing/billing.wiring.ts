/**
 * Builds the billing service for a request from `app.deps` (as the account services do): the
 * provider follows BILLING_PROVIDER; its mail goes through the account ports' mailer, so tests
 * and the composition root supply the transport. The Stripe client is made once per app.
 */
import type { FastifyInstance } from 'fastify';
import { resolveAccountPorts } from '../me/me.ports.ts';
import type { InvoiceRow } from './billing.repository.ts';
import { BillingService } from './billing.service.ts';
import { formatMoney, renderInvoicePdf } from './invoice-pdf.ts';
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
    await mailer.send(to, ...invoiceMail(invoice), [
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

/** Subject and text (German, then English) of the mail that carries an invoice PDF. */
function invoiceMail(invoice: InvoiceRow): [string, string] {
  const amount = formatMoney(invoice.netCents, invoice.currency);
  const due = invoice.dueAt?.toISOString().slice(0, 10) ?? '';
  return [
    `Rechnung ${invoice.number} / Invoice ${invoice.number}`,
    [
      `Guten Tag, anbei erhalten Sie die Rechnung ${invoice.number} über ${amount} netto zzgl. USt.`,
      due ? `Bitte zahlen Sie bis ${due} unter Angabe der Rechnungsnummer an:` : 'Zahlungsempfänger:',
      invoice.seller,
      '',
      `Hello, attached is invoice ${invoice.number} for ${amount} net plus VAT.`,
      due ? `Please pay by ${due}, quoting the invoice number, to:` : 'Payee:',
      invoice.seller,
    ].join('\n'),
  ];
}
