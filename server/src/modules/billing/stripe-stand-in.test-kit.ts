/**
 * A small local stand-in for Stripe's API ("tests run with no network"): an HTTP
 * server answering the SDK calls the Stripe provider makes — customers, Checkout Sessions,
 * subscriptions (create, retrieve with `expand[]=latest_invoice`, update), Billing Portal
 * sessions and invoices — in Stripe's own wire format (form-encoded bodies with bracketed keys,
 * JSON objects with `object` and `id`). Test helpers play the customer (pay, fail, cancel) and
 * return the event Stripe would send, for signing with the SDK's `generateTestHeaderString`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

interface StandInInvoice extends Json {
  id: string;
  status: 'draft' | 'open' | 'paid';
}

interface StandInSubscription extends Json {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  collection_method: string;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Array<{ id: string; price: { id: string }; quantity: number } & Json> };
  latest_invoice: string | null;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: Json;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 86_400;

/** `a[b][0][c]=1` → `{a: {b: [{c: '1'}]}}`, as Stripe decodes its form bodies. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      const next = parts[index + 1] ?? '';
      node[part] ??= /^\d+$/.test(next) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, StandInSubscription>();
  readonly invoices = new Map<string, StandInInvoice>();
  private server?: Server;

  /** Starts listening on a free loopback port. @returns the base URL for STRIPE_API_URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The customer completed the hosted checkout: a subscription starts, paid or (delayed) not yet. */
  completeCheckout(sessionId: string | undefined, { paid }: { paid: boolean }): Json {
    const session = this.sessions.get(sessionId ?? '');
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    const customer = this.createCustomer({ email: session.customer_email });
    const line = (session.line_items as Json[])[0] as Json;
    const subscription = this.createSubscription({
      customer: customer.id,
      items: [{ price: line.price, quantity: line.quantity }],
      metadata: (session.subscription_data as Json | undefined)?.metadata ?? {},
      collection_method: 'charge_automatically',
    });
    const invoice = this.invoices.get(subscription.latest_invoice ?? '');
    if (invoice && paid) invoice.status = 'paid';
    Object.assign(session, { status: 'complete', customer: customer.id, subscription: subscription.id });
    return this.event('checkout.session.completed', session);
  }

  /** The subscription's latest invoice was paid (a delayed debit arrived). */
  payLatestInvoice(subscriptionId: string): Json {
    const subscription = this.requireSubscription(subscriptionId);
    const invoice = this.requireInvoice(subscription.latest_invoice);
    invoice.status = 'paid';
    subscription.status = 'active';
    return this.event('invoice.paid', invoice);
  }

  /** A renewal charge failed: Stripe marks the subscription past due. */
  failRenewal(subscriptionId: string): Json {
    const subscription = this.requireSubscription(subscriptionId);
    const invoice = this.addInvoice(subscription, 'subscription_cycle', 'open');
    subscription.status = 'past_due';
    return this.event('invoice.payment_failed', invoice);
  }

  /** Stripe's view of the subscription right now, as `customer.subscription.updated` carries it. */
  updatedEvent(subscriptionId: string): Json {
    return this.event('customer.subscription.updated', { ...this.requireSubscription(subscriptionId) });
  }

  /** The subscription ended (e.g. cancelled in the portal). */
  deleteSubscription(subscriptionId: string): Json {
    const subscription = this.requireSubscription(subscriptionId);
    subscription.status = 'canceled';
    return this.event('customer.subscription.deleted', { ...subscription });
  }

  /** The last request to `path` (e.g. `/v1/checkout/sessions`). */
  last(method: string, path: string): RecordedRequest | undefined {
    return this.requests.filter((r) => r.method === method && r.path === path).at(-1);
  }

  private event(type: string, object: Json): Json {
    return { id: id('evt'), object: 'event', type, created: now(), data: { object }, api_version: null };
  }

  private createCustomer(body: Json): Json & { id: string } {
    const customer = { id: id('cus'), object: 'customer', metadata: {}, ...body };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSubscription(body: Json): StandInSubscription {
    const start = now();
    const items = (body.items as Json[]).map((item) => ({
      id: id('si'),
      object: 'subscription_item',
      price: { id: String(item.price), object: 'price' },
      quantity: Number(item.quantity ?? 1),
      current_period_start: start,
      current_period_end: start + MONTH,
    }));
    const subscription: StandInSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer: String(body.customer),
      status: 'active',
      cancel_at_period_end: false,
      collection_method: String(body.collection_method ?? 'charge_automatically'),
      metadata: (body.metadata as Record<string, string>) ?? {},
      items: { object: 'list', data: items },
      latest_invoice: null,
    };
    this.subscriptions.set(subscription.id, subscription);
    this.addInvoice(subscription, 'subscription_create', 'open');
    return subscription;
  }

  private addInvoice(subscription: StandInSubscription, reason: string, status: StandInInvoice['status']) {
    const item = subscription.items.data[0];
    const total = 4900 * (item?.quantity ?? 1);
    const invoice: StandInInvoice = {
      id: id('in'),
      object: 'invoice',
      number: `STAND-${this.invoices.size + 1}`,
      customer: subscription.customer,
      status,
      billing_reason: reason,
      created: now(),
      currency: 'eur',
      total,
      total_excluding_tax: total,
      due_date: subscription.collection_method === 'send_invoice' ? now() + 14 * 86_400 : null,
      invoice_pdf: `https://files.stripe.test/invoices/${this.invoices.size + 1}.pdf`,
      hosted_invoice_url: null,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  private requireSubscription(subscriptionId: string): StandInSubscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    return subscription;
  }

  private requireInvoice(invoiceId: string | null): StandInInvoice {
    const invoice = this.invoices.get(invoiceId ?? '');
    if (!invoice) throw new Error(`no invoice ${invoiceId}`);
    return invoice;
  }

  /** A subscription as the API answers it, with `latest_invoice` expanded when asked. */
  private view(subscription: StandInSubscription, expand: unknown): Json {
    const wanted = Array.isArray(expand) ? expand : typeof expand === 'string' ? [expand] : [];
    return wanted.includes('latest_invoice')
      ? { ...subscription, latest_invoice: this.invoices.get(subscription.latest_invoice ?? '') ?? null }
      : { ...subscription };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = req.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, body });
    const send = (status: number, json: Json) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== 'Bearer sk_test_standin') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const subscriptionMatch = url.pathname.match(/^\/v1\/subscriptions\/(sub_\w+)$/);
    if (method === 'POST' && url.pathname === '/v1/customers') return send(200, this.createCustomer(body));
    if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const sessionId = id('cs');
      const session: Json = {
        id: sessionId,
        object: 'checkout.session',
        status: 'open',
        subscription: null,
        customer: null,
        url: `https://checkout.stripe.test/${sessionId}`,
        ...body,
      };
      this.sessions.set(sessionId, session);
      return send(200, session);
    }
    const sessionMatch = url.pathname.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/);
    if (method === 'GET' && sessionMatch) {
      const session = this.sessions.get(sessionMatch[1] ?? '');
      if (!session) {
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: 'No such checkout.session',
          },
        });
      }
      return send(200, session);
    }
    if (method === 'POST' && url.pathname === '/v1/subscriptions') {
      return send(200, this.view(this.createSubscription(body), body.expand));
    }
    if (subscriptionMatch) {
      const subscription = this.subscriptions.get(subscriptionMatch[1] ?? '');
      if (!subscription)
        return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
        }
        for (const change of (body.items as Json[] | undefined) ?? []) {
          const item = subscription.items.data.find((i) => i.id === change.id);
          if (item && change.quantity !== undefined) item.quantity = Number(change.quantity);
        }
      }
      return send(200, this.view(subscription, body.expand));
    }
    if (method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      return send(200, {
        id: id('bps'),
        object: 'billing_portal.session',
        url: `https://billing.stripe.test/${body.customer}`,
      });
    }
    if (method === 'GET' && url.pathname === '/v1/invoices') {
      const data = [...this.invoices.values()].filter((i) => i.customer === body.customer).reverse();
      return send(200, { object: 'list', data, has_more: false, url: '/v1/invoices' });
    }
    return send(404, {
      error: { type: 'invalid_request_error', message: `No stand-in for ${method} ${url.pathname}` },
    });
  }
}
