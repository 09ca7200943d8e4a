/**
 * `BILLING_PROVIDER=stripe` against the local stand-in (no network): checkout through a hosted
 * Checkout Session, webhooks verified by signature (bad → 400, nothing changed), idempotent by
 * event id, order-proof; quantity changes, cancellation, the portal and invoices from Stripe.
 */
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { billingEvents, subscriptions } from '../../db/schema.ts';
import { createCompany, expectProblem } from '../me/account.fixtures.ts';
import { StripeStandIn } from './stripe-stand-in.test-kit.ts';

const WEBHOOK_SECRET = 'whsec_standin_secret';
const PRICES = { monthly: 'price_monthly', yearly: 'price_yearly', '3yearly': 'price_3yearly' };

let t: TestApp;
const stripe = new StripeStandIn();

beforeAll(async () => {
  const apiUrl = await stripe.start();
  t = await buildTestApp({
    BILLING_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_standin',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_MONTHLY: PRICES.monthly,
    STRIPE_PRICE_YEARLY: PRICES.yearly,
    STRIPE_PRICE_3YEARLY: PRICES['3yearly'],
    STRIPE_API_URL: apiUrl,
    PUBLIC_URL: 'https://heizplan.example',
  });
});
afterAll(async () => {
  await t.close();
  await stripe.stop();
});

/** Posts `event` to the webhook, signed with the SDK's own test helper (or with `secret`). */
function deliver(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

async function company(admin: string) {
  const { id } = await createCompany(t, admin);
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: object) =>
    t.call(method, `/api/companies/${id}${path}`, body, admin);
  const row = async () =>
    (await t.database.db.select().from(subscriptions).where(eq(subscriptions.companyId, id)))[0];
  return { id, call, row, overview: async () => (await call('GET', '/billing')).json() };
}

/** Checks out and completes the hosted page; @returns the company and its Stripe subscription id. */
async function subscribed(admin: string, { paid = true, licences = 5 } = {}) {
  const c = await company(admin);
  const res = await c.call('POST', '/billing/checkout', {
    interval: 'yearly',
    licences,
    paymentMethod: 'immediate',
  });
  const sessionId = String(res.json().redirectUrl).split('/').at(-1) ?? '';
  const event = stripe.completeCheckout(sessionId, { paid });
  expect((await deliver(event)).statusCode).toBe(200);
  const subscriptionId = String((event.data as { object: { subscription: string } }).object.subscription);
  return { ...c, subscriptionId, event };
}

describe('checkout', () => {
  it('opens a Checkout Session for the interval’s price and quantity, then activates by webhook', async () => {
    const c = await company('stripe-buy');
    const res = await c.call('POST', '/billing/checkout', {
      interval: 'yearly',
      licences: 5,
      paymentMethod: 'immediate',
    });
    expect(res.json().redirectUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/cs_/);
    const session = stripe.last('POST', '/v1/checkout/sessions')?.body;
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: c.id,
      customer_email: 'stripe-buy@example.test',
      line_items: [{ price: PRICES.yearly, quantity: '5' }],
      subscription_data: { metadata: { companyId: c.id, paymentMethod: 'immediate' } },
      success_url: 'https://heizplan.example/success?method=immediate&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://heizplan.example/subSetup',
    });
    expect(session?.excluded_payment_method_types).toContain('sepa_debit');
    // Nothing is active before Stripe reports the completed checkout.
    expect((await c.overview()).status).toBe('none');
  });

  it('turns a completed checkout into an active subscription', async () => {
    const c = await subscribed('stripe-active');
    expect(await c.overview()).toMatchObject({
      status: 'active',
      interval: 'yearly',
      licences: 5,
      usableLicences: 5,
    });
    expect(await c.row()).toMatchObject({ provider: 'stripe', providerSubscriptionId: c.subscriptionId });
  });

  it('keeps a delayed first payment pending until Stripe reports the invoice paid', async () => {
    const c = await subscribed('stripe-delayed', { paid: false });
    expect(await c.overview()).toMatchObject({ status: 'pending', usableLicences: 0 });
    expect((await deliver(stripe.payLatestInvoice(c.subscriptionId))).statusCode).toBe(200);
    expect(await c.overview()).toMatchObject({ status: 'active', usableLicences: 5 });
  });

  it('creates an invoice-paid subscription directly, due in INVOICE_DUE_DAYS', async () => {
    const c = await company('stripe-invoice');
    const res = await c.call('POST', '/billing/checkout', {
      interval: 'monthly',
      licences: 2,
      paymentMethod: 'invoice',
    });
    const { checkoutId } = res.json();
    expect(res.json()).toEqual({ redirectUrl: '/success?method=invoice', checkoutId: expect.any(String) });
    expect(stripe.last('POST', '/v1/subscriptions')?.body).toMatchObject({
      collection_method: 'send_invoice',
      days_until_due: '14',
      items: [{ price: PRICES.monthly, quantity: '2' }],
    });
    expect(await c.overview()).toMatchObject({ status: 'active', interval: 'monthly', licences: 2 });
    expect((await c.call('GET', `/billing/checkout/${checkoutId}`)).json()).toEqual({
      checkoutId,
      completed: true,
      status: 'active',
      paymentMethod: 'invoice',
    });
  });
});

describe('the checkout confirmation of /success', () => {
  it('asks Stripe whether the hosted checkout completed, before and after its webhook', async () => {
    const c = await company('stripe-confirm');
    const res = await c.call('POST', '/billing/checkout', {
      interval: 'yearly',
      licences: 2,
      paymentMethod: 'immediate',
    });
    const { checkoutId, redirectUrl } = res.json();
    expect(redirectUrl).toBe(`https://checkout.stripe.test/${checkoutId}`);
    const status = () => c.call('GET', `/billing/checkout/${checkoutId}`);
    // The customer came back without paying: not completed.
    expect((await status()).json()).toEqual({
      checkoutId,
      completed: false,
      status: 'none',
      paymentMethod: null,
    });
    // Paid, but the webhook is still on its way: completed, recorded as pending till then.
    const event = stripe.completeCheckout(checkoutId, { paid: true });
    expect((await status()).json()).toMatchObject({ completed: true, status: 'pending' });
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await status()).json()).toEqual({
      checkoutId,
      completed: true,
      status: 'active',
      paymentMethod: 'immediate',
    });
    expect((await c.overview()).checkedOutAt).not.toBeNull();
    // Another company's session, and ids Stripe does not know, are unknown here.
    const other = await company('stripe-confirm-other');
    const foreign = await other.call('GET', `/billing/checkout/${checkoutId}`);
    expect((expectProblem(foreign, 404) as { code?: string }).code).toBe('checkout_unknown');
    expectProblem(await c.call('GET', '/billing/checkout/cs_unknown'), 404);
  });
});

describe('webhooks', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    const c = await company('stripe-forged');
    const res = await c.call('POST', '/billing/checkout', {
      interval: 'yearly',
      licences: 3,
      paymentMethod: 'immediate',
    });
    const event = stripe.completeCheckout(String(res.json().redirectUrl).split('/').at(-1), { paid: true });
    expectProblem(await deliver(event, 'whsec_someone_else'), 400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expectProblem(unsigned, 400);
    expect(await c.row()).toBeUndefined();
    const seen = await t.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, String(event.id)));
    expect(seen).toEqual([]);
  });

  it('applies a replayed event once', async () => {
    const c = await subscribed('stripe-replay');
    // Stripe's state moves on; replaying the old event id must not pick it up.
    const sub = stripe.subscriptions.get(c.subscriptionId);
    if (sub?.items.data[0]) sub.items.data[0].quantity = 9;
    expect((await deliver(c.event)).statusCode).toBe(200);
    expect((await c.row())?.licences).toBe(5);
    const seen = await t.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, String(c.event.id)));
    expect(seen).toHaveLength(1);
  });

  it('ends up with Stripe’s current state whatever order events arrive in', async () => {
    const c = await subscribed('stripe-order');
    const olderUpdate = stripe.updatedEvent(c.subscriptionId);
    const deleted = stripe.deleteSubscription(c.subscriptionId);
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect((await deliver(olderUpdate)).statusCode).toBe(200);
    expect(await c.overview()).toMatchObject({ status: 'cancelled', usableLicences: 0 });
  });

  it('marks a failed renewal late without taking the licences away', async () => {
    const c = await subscribed('stripe-failed');
    expect((await deliver(stripe.failRenewal(c.subscriptionId))).statusCode).toBe(200);
    expect(await c.overview()).toMatchObject({ status: 'past_due', usableLicences: 5 });
  });
});

describe('changes and pages', () => {
  it('changes the quantity with Stripe’s prorations and never below the devices in use', async () => {
    const c = await subscribed('stripe-quantity');
    const res = await c.call('PATCH', '/billing/subscription', { licences: 8 });
    expect(res.json()).toMatchObject({ licences: 8, usableLicences: 8 });
    const update = stripe.last('POST', `/v1/subscriptions/${c.subscriptionId}`)?.body;
    expect(update).toMatchObject({ proration_behavior: 'create_prorations', items: [{ quantity: '8' }] });
    await c.call('POST', '/devices', { id: 'd000000000000001', model: 'elsys-ers' });
    await c.call('POST', '/devices', { id: 'd000000000000002', model: 'elsys-ers' });
    expectProblem(await c.call('PATCH', '/billing/subscription', { licences: 1 }), 400);
  });

  it('cancels and resumes at the end of the period in Stripe', async () => {
    const c = await subscribed('stripe-cancel');
    expect(
      (await c.call('PATCH', '/billing/subscription', { cancelAtPeriodEnd: true })).json(),
    ).toMatchObject({
      cancelAtPeriodEnd: true,
    });
    expect(stripe.subscriptions.get(c.subscriptionId)?.cancel_at_period_end).toBe(true);
    await c.call('PATCH', '/billing/subscription', { cancelAtPeriodEnd: false });
    expect(stripe.subscriptions.get(c.subscriptionId)?.cancel_at_period_end).toBe(false);
  });

  it('sends interval and payment method changes to the portal, which it opens', async () => {
    const c = await subscribed('stripe-portal');
    expectProblem(await c.call('PATCH', '/billing/subscription', { interval: 'monthly' }), 409);
    const portal = await c.call('POST', '/billing/portal');
    const customer = (await c.row())?.customerId;
    expect(portal.json()).toEqual({ url: `https://billing.stripe.test/${customer}` });
    expect(stripe.last('POST', '/v1/billing_portal/sessions')?.body).toMatchObject({
      return_url: 'https://heizplan.example/settings/billing',
    });
  });

  it('lists the invoices from Stripe with their hosted PDFs, net', async () => {
    const c = await subscribed('stripe-invoices');
    const list = (await c.call('GET', '/billing/invoices')).json().results;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      netAmount: 24500,
      vatAmount: 0,
      grossAmount: 24500,
      currency: 'EUR',
      status: 'paid',
    });
    expect(list[0].pdfUrl).toMatch(/^https:\/\/files\.stripe\.test\//);
  });
});
