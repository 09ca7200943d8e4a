/**
 * Subscription and licence rules with the embedded `manual` provider, on PGlite and
 * PostgreSQL: licences gate devices and QR codes (and cannot be reduced below either), the
 * quote with VAT, the limit per order, the billing address, the three payment methods, the
 * checkout confirmation of `/success`, invoices (numbered, immutable, PDF, mailed), licence and
 * interval changes, cancellation, renewal, the operator's "mark paid" (API and CLI), account
 * deletion, and `BILLING_PROVIDER=none`.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { invoices, subscriptions } from '../../db/schema.ts';
import { renewDueSubscriptions } from '../../jobs/billing-renewal.ts';
import { createCompany, expectProblem, recordMails } from '../me/account.fixtures.ts';
import { belowDevicesMessage, belowQrCodesMessage, orderTooLargeMessage } from './billing.service.ts';
import { runBillingCli } from './billing-cli.ts';

const OPERATOR_TOKEN = 'operator-token-for-the-billing-tests-0123456789';

// A Wednesday noon: checkouts, periods, renewals and quotes are counted from this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ OPERATOR_TOKEN }, { clock: clock.now });
});
afterAll(() => t.close());

let euiSeq = 0;
const nextEui = () => `c0ffee00${String(++euiSeq).padStart(8, '0')}`;

/** A billing address as an admin enters it. */
const ADDRESS = {
  name: 'Muster Hausverwaltung GmbH',
  street: 'Hauptstraße 5',
  postcode: '80331',
  city: 'München',
  country: 'DE',
};

/** A new company of `admin` with its API paths. */
async function company(admin: string) {
  const { id } = await createCompany(t, admin);
  const base = `/api/companies/${id}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: object) =>
    t.call(method, `${base}${path}`, body, admin);
  return {
    id,
    call,
    setAddress: (body: object = ADDRESS) => call('PUT', '/billing/address', body),
    overview: async () => (await call('GET', '/billing')).json(),
    checkout: (body: object) => call('POST', '/billing/checkout', body),
    addDevice: () => call('POST', '/devices', { id: nextEui(), model: 'mclimate-vicki' }),
    invoices: async () =>
      (await call('GET', '/billing/invoices')).json().results as Array<Record<string, unknown>>,
  };
}

const markPaid = (companyIdOrName: string, token = OPERATOR_TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: `/api/operator/billing/${encodeURIComponent(companyIdOrName)}/mark-paid`,
    headers: { authorization: `Bearer ${token}` },
  });

describe('a new company', () => {
  it('has no subscription, no usable licence, and gets net prices and counts', async () => {
    const c = await company('bill-new');
    expect(await c.overview()).toMatchObject({
      provider: 'manual',
      status: 'none',
      licences: null,
      usableLicences: 0,
      usedLicences: 0,
      unitCount: 0,
      deviceCount: 0,
      prices: {
        currency: 'EUR',
        perLicence: { monthly: 490, yearly: 4900, '3yearly': 12900 },
        vatPercent: 19,
      },
      maxLicencesPerOrder: 1000,
      hasBillingAddress: false,
      qrCodeCount: 0,
      checkedOutAt: null,
    });
  });

  it('cannot register a device before it has a licence', async () => {
    const c = await company('bill-nolicence');
    const res = await c.addDevice();
    expect(expectProblem(res, 409).detail).toContain('settings → billing');
    expect((await c.overview()).deviceCount).toBe(0);
  });
});

describe('checkout with the immediate method', () => {
  it('activates at once, issues a paid invoice and licences exactly the devices bought', async () => {
    const c = await company('bill-now');
    const res = await c.checkout({ interval: 'yearly', licences: 2, paymentMethod: 'immediate' });
    expect(res.json()).toEqual({ redirectUrl: '/success?method=immediate', checkoutId: expect.any(String) });
    expect(await c.overview()).toMatchObject({
      status: 'active',
      licences: 2,
      usableLicences: 2,
      netTotal: 9800,
    });
    const [invoice] = await c.invoices();
    expect(invoice).toMatchObject({ status: 'paid', netAmount: 9800, currency: 'EUR', dueAt: null });
    expect(invoice?.number).toMatch(/^HP-\d{4}-\d{6}$/);
    expect((await c.addDevice()).statusCode).toBe(201);
    expect((await c.addDevice()).statusCode).toBe(201);
    expect(expectProblem(await c.addDevice(), 409).detail).toContain('Every licence is in use');
    expect(await c.overview()).toMatchObject({ usedLicences: 2, deviceCount: 2 });
    expectProblem(await c.checkout({ interval: 'yearly', licences: 3, paymentMethod: 'immediate' }), 409);
  });

  it('lets two registrations race for the last licence: exactly one wins', async () => {
    const c = await company('bill-race');
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'immediate' });
    const results = await Promise.all([c.addDevice(), c.addDevice()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('changing licences', () => {
  it('bills added licences prorated and never removes licences in use', async () => {
    const c = await company('bill-change');
    await c.checkout({ interval: 'yearly', licences: 5, paymentMethod: 'immediate' });
    for (let i = 0; i < 5; i++) await c.addDevice();
    const raised = await c.call('PATCH', '/billing/subscription', { licences: 8 });
    expect(raised.json()).toMatchObject({ licences: 8, usableLicences: 8, usedLicences: 5 });
    const [added] = await c.invoices();
    // Three licences for (almost) a whole year: prorated, so at most the full price.
    expect(added?.netAmount).toBeGreaterThan(3 * 4900 * 0.99);
    expect(added?.netAmount).toBeLessThanOrEqual(3 * 4900);
    const tooFew = await c.call('PATCH', '/billing/subscription', { licences: 4 });
    expect(expectProblem(tooFew, 400).errors?.[0]).toMatchObject({
      field: 'body.licences',
      message: belowDevicesMessage(5),
    });
    const removed = await c.call('PATCH', '/billing/subscription', { licences: 5 });
    expect(removed.json()).toMatchObject({ licences: 5, usableLicences: 5 });
    expect(await c.invoices()).toHaveLength(2);
  });

  it('gives one QR code per licence, whatever the number of devices', async () => {
    const c = await company('bill-qr');
    await c.checkout({ interval: 'monthly', licences: 2, paymentMethod: 'immediate' });
    const units = (await c.call('POST', '/units/bulk', { pattern: 'Raum {n}', count: 3 })).json().results;
    expect((await c.call('POST', `/units/${units[0].id}/qr-code`)).json()).toMatchObject({
      allowance: 2,
      remaining: 1,
    });
    expect((await c.call('POST', `/units/${units[1].id}/qr-code`)).statusCode).toBe(200);
    expectProblem(await c.call('POST', `/units/${units[2].id}/qr-code`), 409);
  });
});

describe('the delayed payment method', () => {
  it('stays pending without usable licences until the operator marks it paid', async () => {
    const c = await company('bill-delayed');
    await t.call('PATCH', `/api/companies/${c.id}/`, { name: 'Verzögert GmbH' }, 'bill-delayed');
    await c.checkout({ interval: 'monthly', licences: 3, paymentMethod: 'delayed' });
    expect(await c.overview()).toMatchObject({ status: 'pending', licences: 3, usableLicences: 0 });
    expect((await c.invoices())[0]).toMatchObject({ status: 'open' });
    expectProblem(await c.addDevice(), 409);
    expectProblem(await markPaid(c.id, 'not-the-operator-token-not-the-operator'), 401);
    expectProblem(
      await t.call('POST', `/api/operator/billing/${c.id}/mark-paid`, undefined, 'bill-delayed'),
      401,
    );
    const paid = await markPaid('verzögert gmbh');
    expect(paid.json()).toEqual({ companyId: c.id, companyName: 'Verzögert GmbH' });
    expect(await c.overview()).toMatchObject({ status: 'active', usableLicences: 3 });
    expect((await c.invoices())[0]).toMatchObject({ status: 'paid' });
    expect((await c.addDevice()).statusCode).toBe(201);
  });

  it('is marked paid from the command line against the running server', async () => {
    const c = await company('bill-cli');
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'delayed' });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    const env = { OPERATOR_TOKEN, DATA_DIR: '/tmp/heizplan-test', NODE_ENV: 'test' };
    expect(await runBillingCli(['mark-paid'], io, env)).toBe(2);
    expect(await runBillingCli(['mark-paid', 'no such company', '--url', url], io, env)).toBe(1);
    expect(err.at(-1)).toBe('404: No company has this id or name.');
    expect(await runBillingCli(['mark-paid', c.id, '--url', url], io, env)).toBe(0);
    expect(out).toEqual([`Marked paid: bill-cli's company (${c.id})`]);
    expect((await c.overview()).status).toBe('active');
  });
});

describe('the invoice payment method', () => {
  it('activates at once and mails the invoice as a PDF with a due date', async () => {
    const mails = recordMails(t);
    const c = await company('bill-invoice');
    await c.setAddress();
    await c.checkout({ interval: '3yearly', licences: 4, paymentMethod: 'invoice' });
    expect(await c.overview()).toMatchObject({
      status: 'active',
      usableLicences: 4,
      paymentMethod: 'invoice',
    });
    const [invoice] = await c.invoices();
    expect(invoice).toMatchObject({
      status: 'open',
      netAmount: 4 * 12900,
      vatAmount: 9804,
      grossAmount: 61404,
    });
    const due = new Date(String(invoice?.dueAt)).getTime() - new Date(String(invoice?.issuedAt)).getTime();
    expect(Math.round(due / 86_400_000)).toBe(14);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'bill-invoice@example.test' });
    expect(mails[0]?.subject).toContain(String(invoice?.number));
    expect(mails[0]?.text).toContain('614,04\u00a0€ (516,00\u00a0€ netto zzgl. 19 % USt.)');
    expect(mails[0]?.text).toMatch(/Bitte zahlen Sie bis \d{2}\.\d{2}\.\d{4} /);
    expect(mails[0]?.attachments?.[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await c.call('GET', `/billing/invoices/${invoice?.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('keeps issued invoices unchanged apart from their payment state', async () => {
    const c = await company('bill-immutable');
    await c.setAddress();
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'invoice' });
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.companyId, c.id));
    await expect(
      t.database.db
        .update(invoices)
        .set({ netCents: 1 })
        .where(eq(invoices.id, row?.id ?? '')),
    ).rejects.toThrow();
    await t.database.db
      .update(invoices)
      .set({ status: 'paid', paidAt: clock.now() })
      .where(eq(invoices.id, row?.id ?? ''));
    const [after] = await t.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, row?.id ?? ''));
    expect(after).toMatchObject({ netCents: 490, status: 'paid', number: row?.number });
    await expect(
      t.database.db
        .update(invoices)
        .set({ vatCents: 0 })
        .where(eq(invoices.id, row?.id ?? '')),
    ).rejects.toThrow();
  });

  it('numbers invoices uniquely and in order of issue', async () => {
    const c = await company('bill-numbers');
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'immediate' });
    await c.call('PATCH', '/billing/subscription', { licences: 2 });
    const numbers = (await c.invoices()).map((i) => Number(String(i.number).slice(-6)));
    expect(numbers[0]).toBeGreaterThan(numbers[1] ?? Number.POSITIVE_INFINITY);
  });
});

describe('periods, interval changes and cancellation', () => {
  const endPeriod = (companyId: string) =>
    t.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(clock.now().getTime() - 1000) })
      .where(eq(subscriptions.companyId, companyId));

  it('renews in the new interval from the next period on, with its invoice', async () => {
    const c = await company('bill-renew');
    await c.checkout({ interval: 'monthly', licences: 2, paymentMethod: 'immediate' });
    const changed = await c.call('PATCH', '/billing/subscription', { interval: 'yearly' });
    expect(changed.json()).toMatchObject({ interval: 'monthly', nextInterval: 'yearly' });
    await endPeriod(c.id);
    expect(await renewDueSubscriptions(t.services.billing, clock.now())).toBeGreaterThanOrEqual(1);
    const overview = await c.overview();
    expect(overview).toMatchObject({
      status: 'active',
      interval: 'yearly',
      nextInterval: null,
      netTotal: 9800,
    });
    expect(new Date(overview.currentPeriodEnd).getTime()).toBeGreaterThan(
      clock.now().getTime() + 300 * 86_400_000,
    );
    const [renewal] = await c.invoices();
    expect(renewal).toMatchObject({ status: 'paid', netAmount: 9800 });
  });

  it('renews each subscription once when two renewals run at the same time', async () => {
    const c = await company('bill-twice');
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'immediate' });
    await endPeriod(c.id);
    await Promise.all([
      renewDueSubscriptions(t.services.billing, clock.now()),
      renewDueSubscriptions(t.services.billing, clock.now()),
    ]);
    expect(await c.invoices()).toHaveLength(2);
  });

  it('keeps the last device until cancelled; the subscription then ends with its period', async () => {
    const c = await company('bill-cancel');
    await c.checkout({ interval: 'monthly', licences: 2, paymentMethod: 'immediate' });
    const first = (await c.addDevice()).json();
    const second = (await c.addDevice()).json();
    expect((await c.call('DELETE', `/devices/${first.id}`)).statusCode).toBe(204);
    expectProblem(await c.call('DELETE', `/devices/${second.id}`), 409);
    const cancelled = await c.call('PATCH', '/billing/subscription', { cancelAtPeriodEnd: true });
    expect(cancelled.json()).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, usableLicences: 2 });
    const resumed = await c.call('PATCH', '/billing/subscription', { cancelAtPeriodEnd: false });
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false });
    await c.call('PATCH', '/billing/subscription', { cancelAtPeriodEnd: true });
    await endPeriod(c.id);
    await renewDueSubscriptions(t.services.billing, clock.now());
    expect(await c.overview()).toMatchObject({ status: 'cancelled', usableLicences: 0 });
    // Without licences a device is not assigned to a unit; it may still be deleted.
    const unit = (await c.call('POST', '/units', { name: 'Raum 1' })).json();
    expect(
      expectProblem(await c.call('PATCH', `/devices/${second.id}`, { unitId: unit.id }), 409).detail,
    ).toContain('more devices than licences');
    expect((await c.call('DELETE', `/devices/${second.id}`)).statusCode).toBe(204);
    expectProblem(await c.call('PATCH', '/billing/subscription', { licences: 3 }), 409);
    const again = await c.checkout({ interval: 'yearly', licences: 1, paymentMethod: 'immediate' });
    expect(again.statusCode).toBe(200);
    expect(await c.overview()).toMatchObject({ status: 'active', interval: 'yearly', licences: 1 });
  });

  it('cancels at the end of the period when the last admin asks to delete their account', async () => {
    const c = await company('bill-leaving');
    await c.checkout({ interval: 'yearly', licences: 1, paymentMethod: 'immediate' });
    expect((await t.call('DELETE', '/api/me/request_deletion', undefined, 'bill-leaving')).statusCode).toBe(
      202,
    );
    const [row] = await t.database.db.select().from(subscriptions).where(eq(subscriptions.companyId, c.id));
    expect(row).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });
});

describe('the quote', () => {
  it('prices a checkout with VAT: licences, unit price, net, VAT rate and amount, gross', async () => {
    const c = await company('bill-quote');
    const quote = (await c.call('POST', '/billing/quote', { interval: 'yearly', licences: 5 })).json();
    expect(quote).toMatchObject({
      kind: 'checkout',
      currency: 'EUR',
      interval: 'yearly',
      licences: 5,
      currentLicences: null,
      billedLicences: 5,
      perLicence: 4900,
      netTotal: 24500,
      grossTotal: 29155,
      proratedAmount: null,
      netAmount: 24500,
      vatPercent: 19,
      vatAmount: 4655,
      grossAmount: 29155,
    });
    const days = (Date.parse(quote.periodEnd) - Date.parse(quote.periodStart)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(365);
    const missing = await c.call('POST', '/billing/quote', { licences: 5 });
    expect(expectProblem(missing, 400).errors?.[0]).toMatchObject({ field: 'body.interval' });
  });

  it('prices a change prorated for the rest of the period, exactly as its invoice', async () => {
    const c = await company('bill-quote-change');
    await c.checkout({ interval: 'yearly', licences: 5, paymentMethod: 'immediate' });
    // Half the period is left: three added licences cost half a year each.
    const now = clock.now().getTime();
    await t.database.db
      .update(subscriptions)
      .set({
        currentPeriodStart: new Date(now - 100 * 86_400_000),
        currentPeriodEnd: new Date(now + 100 * 86_400_000),
      })
      .where(eq(subscriptions.companyId, c.id));
    const quote = (await c.call('POST', '/billing/quote', { licences: 8 })).json();
    expect(quote).toMatchObject({
      kind: 'change',
      interval: 'yearly',
      licences: 8,
      currentLicences: 5,
      billedLicences: 3,
      perLicence: 4900,
      proratedAmount: 7350,
      netAmount: 7350,
      vatPercent: 19,
      vatAmount: 1397,
      grossAmount: 8747,
      netTotal: 39200,
      grossTotal: 46648,
    });
    expect(Date.parse(quote.periodEnd)).toBe(now + 100 * 86_400_000);
    // The interval of a running subscription is its own, whatever is asked.
    const asked = await c.call('POST', '/billing/quote', { interval: 'monthly', licences: 8 });
    expect(asked.json()).toMatchObject({ interval: 'yearly', perLicence: 4900 });
    // A reduction bills nothing now.
    const fewer = (await c.call('POST', '/billing/quote', { licences: 3 })).json();
    expect(fewer).toMatchObject({ billedLicences: 0, proratedAmount: 0, netAmount: 0, grossAmount: 0 });
    await c.call('PATCH', '/billing/subscription', { licences: 8 });
    const [added] = await c.invoices();
    expect(added).toMatchObject({ netAmount: 7350, vatAmount: 1397, grossAmount: 8747 });
  });
});

describe('the limit of licences per order', () => {
  const tooLarge = (res: Parameters<typeof expectProblem>[0]) => {
    const problem = expectProblem(res, 400) as ReturnType<typeof expectProblem> & {
      code?: string;
      params?: object;
    };
    expect(problem).toMatchObject({ code: 'licence_order_too_large', params: { max: 1000 } });
    expect(problem.errors?.[0]).toMatchObject({
      field: 'body.licences',
      message: orderTooLargeMessage(1000),
      code: 'licence_order_too_large',
      params: { max: 1000 },
    });
    expect(problem.errors?.[0]?.message).toContain('1000');
  };

  it('refuses a checkout, a quote and a change that buy more than BILLING_MAX_LICENCES_PER_ORDER', async () => {
    const c = await company('bill-limit');
    tooLarge(await c.checkout({ interval: 'monthly', licences: 1001, paymentMethod: 'immediate' }));
    tooLarge(await c.call('POST', '/billing/quote', { interval: 'monthly', licences: 1001 }));
    expect((await c.overview()).status).toBe('none');
    const bought = await c.checkout({ interval: 'monthly', licences: 1000, paymentMethod: 'immediate' });
    expect(bought.statusCode).toBe(200);
    // A change adds at most that many: 1000 → 2001 is one licence too many, 2000 is fine.
    tooLarge(await c.call('PATCH', '/billing/subscription', { licences: 2001 }));
    tooLarge(await c.call('POST', '/billing/quote', { licences: 2001 }));
    expect((await c.overview()).licences).toBe(1000);
    const raised = await c.call('PATCH', '/billing/subscription', { licences: 2000 });
    expect(raised.json()).toMatchObject({ licences: 2000 });
  });

  it('follows BILLING_MAX_LICENCES_PER_ORDER', async () => {
    const small = await buildTestApp({ BILLING_MAX_LICENCES_PER_ORDER: '3' }, { clock: clock.now });
    try {
      const { id } = await createCompany(small, 'bill-limit-3');
      const res = await small.call(
        'POST',
        `/api/companies/${id}/billing/checkout`,
        { interval: 'monthly', licences: 4, paymentMethod: 'immediate' },
        'bill-limit-3',
      );
      expect(expectProblem(res, 400).errors?.[0]).toMatchObject({ params: { max: 3 } });
      const overview = await small.call('GET', `/api/companies/${id}/billing`, undefined, 'bill-limit-3');
      expect(overview.json()).toMatchObject({ maxLicencesPerOrder: 3 });
    } finally {
      await small.close();
    }
  });
});

describe('licences and enabled QR codes', () => {
  it('refuses to remove licences that enabled QR codes use, naming the count', async () => {
    const c = await company('bill-qr-floor');
    await c.checkout({ interval: 'monthly', licences: 3, paymentMethod: 'immediate' });
    const units = (await c.call('POST', '/units/bulk', { pattern: 'Raum {n}', count: 3 })).json().results;
    for (const unit of units)
      expect((await c.call('POST', `/units/${unit.id}/qr-code`)).statusCode).toBe(200);
    expect(await c.overview()).toMatchObject({ deviceCount: 0, qrCodeCount: 3, usedLicences: 3 });
    const tooFew = await c.call('PATCH', '/billing/subscription', { licences: 2 });
    const problem = expectProblem(tooFew, 400) as ReturnType<typeof expectProblem> & { code?: string };
    expect(problem.code).toBe('licences_below_qr_codes');
    expect(problem.errors?.[0]).toMatchObject({
      field: 'body.licences',
      message: belowQrCodesMessage(3),
      code: 'licences_below_qr_codes',
      params: { qrCodes: 3 },
    });
    expectProblem(await c.call('POST', '/billing/quote', { licences: 2 }), 400);
    // Every code still works and the licences are as they were.
    expect((await c.overview()).licences).toBe(3);
    const list = (await c.call('GET', '/qr-codes')).json();
    expect(list).toMatchObject({ unlimited: false, allowance: 3, used: 3, remaining: 0 });
    await c.call('DELETE', `/units/${units[2].id}/qr-code`);
    const fewer = await c.call('PATCH', '/billing/subscription', { licences: 2 });
    expect(fewer.json()).toMatchObject({ licences: 2, usedLicences: 2, qrCodeCount: 2 });
  });

  it('refuses a new checkout with fewer licences than the QR codes still enabled', async () => {
    const c = await company('bill-qr-again');
    await c.checkout({ interval: 'monthly', licences: 2, paymentMethod: 'immediate' });
    const units = (await c.call('POST', '/units/bulk', { pattern: 'Raum {n}', count: 2 })).json().results;
    for (const unit of units) await c.call('POST', `/units/${unit.id}/qr-code`);
    await t.database.db
      .update(subscriptions)
      .set({ status: 'cancelled' })
      .where(eq(subscriptions.companyId, c.id));
    const res = await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'immediate' });
    expect(expectProblem(res, 400).errors?.[0]).toMatchObject({ params: { qrCodes: 2 } });
  });
});

describe('the billing address', () => {
  it('is kept by admins, normalised, and required to pay by invoice', async () => {
    const c = await company('bill-address');
    expect((await c.call('GET', '/billing/address')).json()).toEqual({ address: null });
    const refused = await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'invoice' });
    const problem = expectProblem(refused, 400) as ReturnType<typeof expectProblem> & { code?: string };
    expect(problem.code).toBe('billing_address_required');
    expect(problem.errors?.[0]).toMatchObject({
      field: 'body.paymentMethod',
      code: 'billing_address_required',
    });
    expect((await c.overview()).status).toBe('none');

    const bad = await c.setAddress({ ...ADDRESS, city: ' ', country: 'Germany', vatId: 'x' });
    const fields = expectProblem(bad, 400).errors?.map((e) => e.field) ?? [];
    expect(fields).toEqual(expect.arrayContaining(['body.city', 'body.country', 'body.vatId']));

    const saved = await c.setAddress({ ...ADDRESS, country: 'de', vatId: 'de 123.456.789' });
    expect(saved.json()).toEqual({ address: { ...ADDRESS, vatId: 'DE123456789' } });
    expect((await c.call('GET', '/billing/address')).json()).toEqual({
      address: { ...ADDRESS, vatId: 'DE123456789' },
    });
    expect((await c.overview()).hasBillingAddress).toBe(true);
    const bought = await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'invoice' });
    expect(bought.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.companyId, c.id));
    expect(row?.buyerDetails).toEqual({
      name: ADDRESS.name,
      address: ['Hauptstraße 5', '80331 München'],
      vatId: 'DE123456789',
      email: 'bill-address@example.test',
    });
  });

  it('is required to switch to paying by invoice', async () => {
    const c = await company('bill-address-switch');
    await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'immediate' });
    const refused = await c.call('PATCH', '/billing/subscription', { paymentMethod: 'invoice' });
    expect(expectProblem(refused, 400).errors?.[0]).toMatchObject({ code: 'billing_address_required' });
    await c.setAddress();
    const switched = await c.call('PATCH', '/billing/subscription', { paymentMethod: 'invoice' });
    expect(switched.json()).toMatchObject({ paymentMethod: 'invoice' });
  });
});

describe('the checkout confirmation of /success', () => {
  it('confirms the company’s latest checkout and nothing else', async () => {
    const c = await company('bill-confirm');
    const other = await company('bill-confirm-other');
    const status = (id: string, who = c) => who.call('GET', `/billing/checkout/${id}`);
    // Opened directly: no checkout, nothing to thank for.
    const never = await status('00000000-0000-4000-8000-000000000000');
    expect((expectProblem(never, 404) as { code?: string }).code).toBe('checkout_unknown');
    const { checkoutId } = (
      await c.checkout({ interval: 'monthly', licences: 1, paymentMethod: 'delayed' })
    ).json();
    expect((await status(checkoutId)).json()).toEqual({
      checkoutId,
      completed: true,
      status: 'pending',
      paymentMethod: 'delayed',
    });
    expectProblem(await status(checkoutId, other), 404);
    expectProblem(await status('not a valid id!'), 400);
    await markPaid(c.id);
    expect((await status(checkoutId)).json()).toMatchObject({ status: 'active' });
    const overview = await c.overview();
    expect(overview.checkedOutAt).toBe(clock.now().toISOString());
  });
});

describe('BILLING_PROVIDER=none', () => {
  it('licenses without limit and has no billing calls', async () => {
    const free = await buildTestApp({ BILLING_PROVIDER: 'none' }, { clock: clock.now });
    try {
      const { id } = await createCompany(free, 'free-admin');
      const base = `/api/companies/${id}`;
      for (let i = 0; i < 3; i++) {
        const res = await free.call(
          'POST',
          `${base}/devices`,
          { id: nextEui(), model: 'elsys-ers' },
          'free-admin',
        );
        expect(res.statusCode).toBe(201);
      }
      expect((await free.call('GET', `${base}/billing`, undefined, 'free-admin')).json()).toMatchObject({
        provider: 'none',
        usableLicences: null,
        deviceCount: 3,
      });
      const unit = (await free.call('POST', `${base}/units`, { name: 'A' }, 'free-admin')).json();
      const qr = await free.call('POST', `${base}/units/${unit.id}/qr-code`, undefined, 'free-admin');
      // Unlimited is said, not left blank.
      expect(qr.json()).toMatchObject({ unlimited: true, allowance: null, used: 1, remaining: null });
      const list = await free.call('GET', `${base}/qr-codes`, undefined, 'free-admin');
      expect(list.json()).toMatchObject({ unlimited: true, remaining: null });
      const checkout = await free.call(
        'POST',
        `${base}/billing/checkout`,
        { interval: 'yearly', licences: 1, paymentMethod: 'immediate' },
        'free-admin',
      );
      expectProblem(checkout, 404);
      const [count] = (
        (await free.database.db.execute(sql`select count(*)::int as n from subscriptions`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows;
      expect(count?.n).toBe(0);
    } finally {
      await free.close();
    }
  });
});
