/**
 * Billing through Stripe (`BILLING_PROVIDER=stripe`) with the official SDK:
 * Checkout Sessions in subscription mode (for `immediate` without the slow debits such as SEPA),
 * a directly created subscription with `send_invoice` for `invoice`, quantity changes with
 * Stripe's prorations, cancellation at period end, the Customer Portal for payment details and
 * interval changes, and invoices listed from Stripe with their hosted PDFs.
 *
 * Webhooks (`handleEvent`) never trust the event's snapshot: they fetch the subscription as it
 * is now and store that, so events applied twice or out of order leave the same row.
 */
import { randomUUID } from 'node:crypto';
import type {
  BillingInterval,
  CheckoutRequest,
  CheckoutResponse,
  Invoice,
  PaymentMethod,
} from '@heizplan/contracts/billing';
import Stripe from 'stripe';
import type { BillingConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { conflict } from '../../http/errors.ts';
import * as repo from './billing.repository.ts';
import type { BillingProviderPort, BillingTx, Buyer } from './billing-provider.ts';

type StripeSettings = NonNullable<BillingConfig['stripe']>;

/** The SDK client; `apiUrl` points it at a stand-in (tests, stripe-mock) instead of api.stripe.com. */
export function createStripeClient(settings: StripeSettings): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

const PORTAL_ONLY = 'With Stripe this is changed on the payment provider’s page.';

/** Stripe payment methods whose money arrives days after checkout. */
const DELAYED_METHODS = [
  'sepa_debit',
  'bacs_debit',
  'acss_debit',
  'au_becs_debit',
  'us_bank_account',
  'customer_balance',
];

/** Stripe's subscription state → ours; a first invoice still being paid is `pending` (spec §4 delayed). */
function statusOf(subscription: Stripe.Subscription): repo.SubscriptionRow['status'] {
  switch (subscription.status) {
    case 'active':
    case 'trialing': {
      const invoice = subscription.latest_invoice;
      const firstUnpaid =
        typeof invoice === 'object' &&
        invoice !== null &&
        invoice.billing_reason === 'subscription_create' &&
        invoice.status !== 'paid' &&
        subscription.collection_method === 'charge_automatically';
      return firstUnpaid ? 'pending' : 'active';
    }
    case 'incomplete':
      return 'pending';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    default:
      return 'cancelled';
  }
}

export class StripeBillingProvider implements BillingProviderPort {
  constructor(
    private readonly stripe: Stripe,
    private readonly settings: StripeSettings,
    private readonly config: Pick<BillingConfig, 'invoiceDueDays'>,
    private readonly publicUrl: string,
  ) {}

  async checkout(tx: BillingTx, buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse> {
    const metadata = { companyId: buyer.companyId, paymentMethod: request.paymentMethod };
    const item = { price: this.settings.prices[request.interval], quantity: request.licences };
    if (request.paymentMethod === 'invoice') {
      const customer = await this.stripe.customers.create({
        email: buyer.email,
        name: buyer.companyName,
        metadata: { companyId: buyer.companyId },
      });
      const created = await this.stripe.subscriptions.create({
        customer: customer.id,
        items: [item],
        collection_method: 'send_invoice',
        days_until_due: this.config.invoiceDueDays,
        metadata,
        expand: ['latest_invoice'],
      });
      await this.store(tx.db, created, buyer.companyId);
      // Set up without a hosted page: completed here, under an id of our own.
      const checkoutId = randomUUID();
      await repo.updateSubscription(tx.db, buyer.companyId, { checkoutId, checkedOutAt: new Date() });
      return { redirectUrl: '/success?method=invoice', checkoutId };
    }
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: buyer.companyId,
      customer_email: buyer.email,
      line_items: [item],
      // Payment methods come from the Stripe dashboard; "immediate" leaves out the debits that
      // settle days later, so only "delayed" can end pending (spec §4).
      ...(request.paymentMethod === 'immediate' ? { excluded_payment_method_types: DELAYED_METHODS } : {}),
      subscription_data: { metadata },
      metadata,
      success_url: `${this.publicUrl}/success?method=${request.paymentMethod}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${this.publicUrl}/subSetup`,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { redirectUrl: session.url, checkoutId: session.id };
  }

  /**
   * Our own id (invoice method) or the one the webhook stored is answered from the row; a
   * Checkout Session is asked of Stripe, since the customer may be back before its webhook.
   */
  async confirmCheckout(
    _tx: BillingTx,
    companyId: string,
    subscription: repo.SubscriptionRow | undefined,
    checkoutId: string,
  ): Promise<boolean | null> {
    if (subscription?.checkoutId === checkoutId) return true;
    if (!checkoutId.startsWith('cs_')) return null;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(checkoutId);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
      throw err;
    }
    if (session.client_reference_id !== companyId) return null;
    return session.status === 'complete';
  }

  async changeLicences(tx: BillingTx, _buyer: Buyer, subscription: repo.SubscriptionRow, licences: number) {
    const current = await this.retrieve(subscription);
    const item = current.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${current.id} has no item`);
    const updated = await this.stripe.subscriptions.update(current.id, {
      items: [{ id: item.id, quantity: licences }],
      proration_behavior: 'create_prorations',
      expand: ['latest_invoice'],
    });
    await this.store(tx.db, updated, subscription.companyId);
  }

  async changeInterval(): Promise<void> {
    throw conflict(PORTAL_ONLY, { code: 'billing_portal_only' });
  }

  async changePaymentMethod(): Promise<void> {
    throw conflict(PORTAL_ONLY, { code: 'billing_portal_only' });
  }

  async setCancelAtPeriodEnd(tx: BillingTx, subscription: repo.SubscriptionRow, cancel: boolean) {
    const id = this.idOf(subscription);
    const updated = await this.stripe.subscriptions.update(id, {
      cancel_at_period_end: cancel,
      expand: ['latest_invoice'],
    });
    await this.store(tx.db, updated, subscription.companyId);
  }

  async invoices(_tx: BillingTx, _companyId: string, subscription: repo.SubscriptionRow | undefined) {
    if (!subscription?.customerId) return [];
    const list = await this.stripe.invoices.list({ customer: subscription.customerId, limit: 50 });
    return list.data.map(
      (invoice): Invoice => ({
        id: invoice.id ?? '',
        number: invoice.number ?? '—',
        issuedAt: new Date(invoice.created * 1000).toISOString(),
        netAmount: invoice.total_excluding_tax ?? invoice.total,
        vatAmount: invoice.total_excluding_tax === null ? null : invoice.total - invoice.total_excluding_tax,
        grossAmount: invoice.total,
        currency: invoice.currency.toUpperCase(),
        status: (invoice.status ?? 'draft') as Invoice['status'],
        dueAt: invoice.due_date ? new Date(invoice.due_date * 1000).toISOString() : null,
        pdfUrl: invoice.invoice_pdf ?? invoice.hosted_invoice_url ?? null,
      }),
    );
  }

  async portalUrl(subscription: repo.SubscriptionRow, returnUrl: string): Promise<string> {
    if (!subscription.customerId)
      throw conflict('The payment provider has not confirmed this subscription yet.', {
        code: 'subscription_unconfirmed',
      });
    const session = await this.stripe.billingPortal.sessions.create({
      customer: subscription.customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /** The event in `payload` when `signature` is Stripe's for it under STRIPE_WEBHOOK_SECRET, else null. */
  verifyEvent(payload: Buffer, signature: string): Stripe.Event | null {
    try {
      return this.stripe.webhooks.constructEvent(payload, signature, this.settings.webhookSecret);
    } catch {
      return null;
    }
  }

  /**
   * Applies a verified webhook event: the five events lead to the subscription they
   * concern, which is fetched as it is now and stored with the event id in one transaction.
   * @returns `applied`, `duplicate` (seen before: nothing changed) or `ignored` (no subscription).
   */
  async handleEvent(db: Db, event: Stripe.Event): Promise<'applied' | 'duplicate' | 'ignored'> {
    const target = subscriptionOfEvent(event);
    const current = target
      ? await this.stripe.subscriptions.retrieve(target.id, { expand: ['latest_invoice'] })
      : null;
    return db.transaction(async (tx) => {
      if (!(await repo.recordEvent(tx, event.id, event.type))) return 'duplicate';
      if (!current) return 'ignored';
      const stored = await this.store(tx, current, target?.companyId);
      if (stored && event.type === 'checkout.session.completed') {
        await repo.updateSubscription(tx, stored, {
          checkoutId: event.data.object.id,
          checkedOutAt: new Date(event.created * 1000),
        });
      }
      return stored ? 'applied' : 'ignored';
    });
  }

  /** Stores Stripe's subscription on the company's row; @returns its company, null when none can be told. */
  private async store(
    db: Db,
    subscription: Stripe.Subscription,
    companyHint?: string | null,
  ): Promise<string | null> {
    const existing = await repo.findSubscriptionByProviderId(db, subscription.id);
    const companyId = existing?.companyId ?? subscription.metadata.companyId ?? companyHint;
    const item = subscription.items.data[0];
    if (!companyId || !item) return null;
    const interval = this.intervalOf(item.price.id) ?? existing?.interval;
    if (!interval) return null;
    const method = subscription.metadata.paymentMethod as PaymentMethod | undefined;
    await repo.upsertSubscription(db, {
      companyId,
      provider: 'stripe',
      interval,
      nextInterval: null,
      licences: item.quantity ?? 1,
      status: statusOf(subscription),
      paymentMethod: method ?? existing?.paymentMethod ?? 'immediate',
      currentPeriodStart: new Date(item.current_period_start * 1000),
      currentPeriodEnd: new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      customerId:
        typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
      providerSubscriptionId: subscription.id,
    });
    return companyId;
  }

  private intervalOf(priceId: string): BillingInterval | undefined {
    const entry = Object.entries(this.settings.prices).find(([, id]) => id === priceId);
    return entry?.[0] as BillingInterval | undefined;
  }

  private idOf(subscription: repo.SubscriptionRow): string {
    if (!subscription.providerSubscriptionId) {
      throw conflict('The payment provider has not confirmed this subscription yet.', {
        code: 'subscription_unconfirmed',
      });
    }
    return subscription.providerSubscriptionId;
  }

  private retrieve(subscription: repo.SubscriptionRow) {
    return this.stripe.subscriptions.retrieve(this.idOf(subscription));
  }
}

/** The subscription (and, from a checkout, the company) an event is about; null for others. */
function subscriptionOfEvent(event: Stripe.Event): { id: string; companyId: string | null } | null {
  const idOf = (value: string | { id: string } | null | undefined) =>
    typeof value === 'string' ? value : (value?.id ?? null);
  switch (event.type) {
    case 'checkout.session.completed': {
      const id = idOf(event.data.object.subscription);
      return id ? { id, companyId: event.data.object.client_reference_id } : null;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const id = idOf(event.data.object.parent?.subscription_details?.subscription);
      return id ? { id, companyId: null } : null;
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { id: event.data.object.id, companyId: null };
    default:
      return null;
  }
}
