/**
 * Billing screens: the navigation's notice and shop link, /subSetup with its order
 * confirmation and billing address, /success for a confirmed checkout only, and settings →
 * billing, rule by rule, against stubbed API answers.
 */
import type { BillingOverview, Invoice } from '@heizplan/contracts/billing';
import { GETTING_STARTED_STEPS } from '@heizplan/contracts/getting-started';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { setCurrentCompanyId } from '../../lib/client-storage.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const PRICES = {
  currency: 'EUR',
  perLicence: { monthly: 490, yearly: 4900, '3yearly': 12900 },
  vatPercent: 19,
};
const ADDRESS = {
  name: 'Stadtwerke GmbH',
  street: 'Hauptstraße 5',
  postcode: '80331',
  city: 'München',
  country: 'DE',
  vatId: null,
};

const overview = (over: Partial<BillingOverview> = {}): BillingOverview => ({
  provider: 'manual',
  status: 'none',
  interval: null,
  nextInterval: null,
  licences: null,
  usableLicences: 0,
  usedLicences: 0,
  unitCount: 4,
  deviceCount: 0,
  qrCodeCount: 0,
  maxLicencesPerOrder: 1000,
  hasBillingAddress: true,
  checkedOutAt: null,
  paymentMethod: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  prices: PRICES,
  netTotal: null,
  ...over,
});

const active = (over: Partial<BillingOverview> = {}) =>
  overview({
    status: 'active',
    interval: 'yearly',
    licences: 5,
    usableLicences: 5,
    usedLicences: 3,
    deviceCount: 3,
    paymentMethod: 'immediate',
    currentPeriodEnd: '2027-11-23T10:00:00.000Z',
    netTotal: 24500,
    ...over,
  });

const invoice: Invoice = {
  id: 'i1',
  number: 'HP-2026-000007',
  issuedAt: '2026-11-23T10:00:00.000Z',
  netAmount: 24500,
  vatAmount: 4655,
  grossAmount: 29155,
  currency: 'EUR',
  status: 'paid',
  dueAt: null,
  pdfUrl: '/api/companies/c1/billing/invoices/i1/pdf',
};

/** The server's quote, simplified: a checkout bills a whole year, a change half of one. */
function quoteFor(
  billing: BillingOverview,
  body: { interval?: 'monthly' | 'yearly' | '3yearly'; licences: number },
) {
  const interval = body.interval ?? billing.interval ?? 'yearly';
  const perLicence = PRICES.perLicence[interval];
  const current = billing.licences;
  const billed = current === null ? body.licences : Math.max(0, body.licences - current);
  const netAmount = current === null ? perLicence * billed : Math.round((perLicence * billed) / 2);
  const vatAmount = Math.round(netAmount * 0.19);
  return {
    kind: current === null ? 'checkout' : 'change',
    currency: 'EUR',
    interval,
    licences: body.licences,
    currentLicences: current,
    billedLicences: billed,
    perLicence,
    netTotal: perLicence * body.licences,
    grossTotal: Math.round(perLicence * body.licences * 1.19),
    periodStart: '2026-11-26T10:00:00.000Z',
    periodEnd: '2027-11-26T10:00:00.000Z',
    proratedAmount: current === null ? null : netAmount,
    netAmount,
    vatPercent: 19,
    vatAmount,
    grossAmount: netAmount + vatAmount,
  };
}

const bodies = (fetchMock: ReturnType<typeof vi.fn>, method: string, path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

function open(
  path: string,
  billing: BillingOverview,
  { role = 'admin', writes }: { role?: 'admin' | 'ems'; writes?: FetchHandler } = {},
) {
  const api: FetchHandler = (method, url, init) => {
    const p = url.split('?')[0];
    const written = method === 'GET' ? undefined : writes?.(method, url, init);
    if (written) return written;
    if (method === 'GET' && p === '/api/companies/c1/billing') return json(200, billing);
    if (method === 'GET' && p === '/api/companies/c1/billing/invoices')
      return json(200, { results: [invoice] });
    if (method === 'POST' && p === '/api/companies/c1/billing/quote')
      return json(200, quoteFor(billing, JSON.parse(String(init.body))));
    if (method === 'GET' && p === '/api/companies/c1/billing/address')
      return json(200, { address: billing.hasBillingAddress ? ADDRESS : null });
    // Every checkout of these tests completed; how it is paid comes from the address then.
    if (method === 'GET' && p?.startsWith('/api/companies/c1/billing/checkout/'))
      return json(200, {
        checkoutId: p.split('/').at(-1),
        completed: true,
        status: 'active',
        paymentMethod: null,
      });
    // The start screen's checklist: this company is set up, so it shows nothing.
    if (method === 'GET' && p === '/api/companies/c1/getting-started')
      return json(200, {
        steps: GETTING_STARTED_STEPS.map((id) => ({ id, done: true })),
        lastUplinkAt: null,
      });
    // Other lists of the company (units on /units) are empty; the company itself comes from signIn.
    if (method === 'GET' && p?.startsWith('/api/companies/c1/') && p !== '/api/companies/c1/') {
      return json(200, { results: [], count: 0, page: 1, size: 10 });
    }
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'de' }), role, extra: api });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

describe('billing screens', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  describe('navigation', () => {
    it('says that no subscription is active and lets an admin buy licences; Shop leads there', async () => {
      open('/units', overview());
      const notice = await screen.findByTestId('subscription-notice');
      expect(notice).toHaveTextContent('Kein aktives Abonnement');
      expect(within(notice).getByRole('link', { name: 'Lizenzen kaufen' })).toHaveAttribute(
        'href',
        '/subSetup',
      );
      await waitFor(() => expect(screen.getAllByTestId('nav-shop')[0]).toHaveAttribute('href', '/subSetup'));
    });

    it('tells a member who only reads that an admin can buy licences, without a link', async () => {
      open('/units', overview(), { role: 'ems' });
      const notice = await screen.findByTestId('subscription-notice');
      expect(notice).toHaveTextContent('Ein Admin Ihrer Firma kann Lizenzen kaufen.');
      expect(within(notice).queryByRole('link')).toBeNull();
    });

    it('says nothing while a subscription is active, and Shop leads to billing', async () => {
      open('/units', active());
      await waitFor(() =>
        expect(screen.getAllByTestId('nav-shop')[0]).toHaveAttribute('href', '/settings/billing'),
      );
      expect(screen.queryByTestId('subscription-notice')).toBeNull();
    });

    it('shows neither notice, shop nor the billing tab when the server bills nothing', async () => {
      open('/settings/general', overview({ provider: 'none', status: 'active', usableLicences: null }));
      await screen.findByTestId('settings-tab-team');
      await waitFor(() => expect(screen.queryByTestId('settings-tab-billing')).toBeNull());
      expect(screen.queryByTestId('nav-shop')).toBeNull();
      expect(screen.queryByTestId('subscription-notice')).toBeNull();
    });
  });

  describe('/subSetup', () => {
    it('shows net prices, confirms the order with VAT and gross before checking out', async () => {
      const { fetchMock, router } = open('/subSetup', overview({ deviceCount: 2, usedLicences: 2 }), {
        writes: (method, url) => {
          if (method === 'POST' && url === '/api/companies/c1/billing/checkout')
            return json(200, { redirectUrl: '/success?method=delayed', checkoutId: 'co-2' });
          return undefined;
        },
      });
      expect(await screen.findByTestId('setup-interval-monthly')).toBeInTheDocument();
      expect(screen.getByTestId('setup-interval')).toHaveTextContent('4,90 € je Lizenz pro Monat');
      expect(screen.getByTestId('setup-interval')).toHaveTextContent('49,00 € je Lizenz pro Jahr');
      expect(screen.getByTestId('setup-interval')).toHaveTextContent('129,00 € je Lizenz pro 3 Jahre');
      expect(screen.getByTestId('setup-net')).toHaveTextContent('Alle Preise netto zzgl. USt.');
      expect(await screen.findByTestId('setup-total')).toHaveTextContent('Gesamt: 245,00 € pro Jahr');
      const licences = screen.getByTestId('setup-licences');
      expect(licences).toHaveAttribute('min', '2');
      await userEvent.clear(licences);
      await userEvent.type(licences, '1');
      expect(screen.getByTestId('setup-checkout')).toBeDisabled();
      await userEvent.clear(licences);
      await userEvent.type(licences, '8');
      await userEvent.click(screen.getByTestId('setup-interval-monthly'));
      await waitFor(() =>
        expect(screen.getByTestId('setup-total')).toHaveTextContent('Gesamt: 39,20 € pro Monat'),
      );
      await userEvent.click(screen.getByTestId('setup-method-delayed'));
      await userEvent.click(screen.getByTestId('setup-checkout'));
      // Nothing is ordered before the confirmation shows what it costs.
      const summary = await screen.findByTestId('order-summary');
      expect(bodies(fetchMock, 'POST', '/api/companies/c1/billing/checkout')).toEqual([]);
      expect(within(summary).getByTestId('order-licences')).toHaveTextContent('8');
      expect(within(summary).getByTestId('order-net')).toHaveTextContent('39,20 €');
      expect(within(summary).getByTestId('order-vat')).toHaveTextContent('7,45 €');
      expect(summary).toHaveTextContent('Umsatzsteuer (19 %)');
      expect(within(summary).getByTestId('order-gross')).toHaveTextContent('46,65 €');
      expect(within(summary).getByTestId('order-period')).toHaveTextContent('26.11.2026 – 26.11.2027');
      await userEvent.click(screen.getByTestId('order-confirm-confirm'));
      await waitFor(() => expect(router.location().pathname).toBe('/success'));
      expect(bodies(fetchMock, 'POST', '/api/companies/c1/billing/checkout')).toEqual([
        { interval: 'monthly', licences: 8, paymentMethod: 'delayed' },
      ]);
      expect(await screen.findByTestId('success-text')).toHaveTextContent(
        'Sobald die Zahlung verarbeitet ist',
      );
    });

    it('goes to Stripe’s hosted page when the provider answers with one', async () => {
      const assign = vi.fn();
      vi.stubGlobal('location', { ...window.location, assign });
      open('/subSetup', overview(), {
        writes: (method, url) =>
          method === 'POST' && url === '/api/companies/c1/billing/checkout'
            ? json(200, { redirectUrl: 'https://checkout.stripe.test/cs_1', checkoutId: 'cs_1' })
            : undefined,
      });
      await userEvent.click(await screen.findByTestId('setup-checkout'));
      await userEvent.click(await screen.findByTestId('order-confirm-confirm'));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/cs_1'));
    });

    it('asks for the billing address before paying by invoice, and refuses more than one order may buy', async () => {
      const { fetchMock } = open(
        '/subSetup',
        overview({ hasBillingAddress: false, maxLicencesPerOrder: 50 }),
        {
          writes: (method, url) =>
            method === 'PUT' && url === '/api/companies/c1/billing/address'
              ? json(200, { address: ADDRESS })
              : undefined,
        },
      );
      const licences = await screen.findByTestId('setup-licences');
      expect(licences).toHaveAttribute('max', '50');
      await userEvent.clear(licences);
      await userEvent.type(licences, '51');
      expect(await screen.findByTestId('setup-licences-field-error')).toHaveTextContent(
        'Höchstens 50 Lizenzen',
      );
      await userEvent.clear(licences);
      await userEvent.type(licences, '5');
      await userEvent.click(screen.getByTestId('setup-method-invoice'));
      expect(await screen.findByTestId('setup-address')).toHaveTextContent('Rechnungsadresse');
      expect(screen.getByTestId('setup-checkout')).toBeDisabled();
      await userEvent.type(screen.getByTestId('address-name'), ADDRESS.name);
      await userEvent.type(screen.getByTestId('address-street'), ADDRESS.street);
      await userEvent.type(screen.getByTestId('address-postcode'), ADDRESS.postcode);
      await userEvent.type(screen.getByTestId('address-city'), ADDRESS.city);
      await userEvent.click(screen.getByTestId('address-save'));
      await waitFor(() =>
        expect(bodies(fetchMock, 'PUT', '/api/companies/c1/billing/address')).toEqual([
          { ...ADDRESS, vatId: null },
        ]),
      );
    });

    it('sends a company with a running subscription to billing instead', async () => {
      open('/subSetup', active());
      expect(await screen.findByTestId('setup-existing')).toHaveTextContent('bereits ein Abonnement');
    });
  });

  describe('/success', () => {
    it('never shows the notice of before the payment once it went through', async () => {
      let paid = false;
      let answer: (response: Response) => void = () => {};
      const { session } = signIn({
        profile: testProfile({ lang: 'de' }),
        extra: (method, url, init) => {
          if (method === 'POST' && url === '/api/companies/c1/billing/checkout') {
            paid = true;
            return json(200, { redirectUrl: '/success?method=immediate', checkoutId: 'co-1' });
          }
          if (method === 'POST' && url === '/api/companies/c1/billing/quote')
            return json(200, quoteFor(overview(), JSON.parse(String(init.body))));
          if (method === 'GET' && url === '/api/companies/c1/billing/checkout/co-1')
            return json(200, {
              checkoutId: 'co-1',
              completed: true,
              status: 'active',
              paymentMethod: 'immediate',
            });
          if (method !== 'GET' || url !== '/api/companies/c1/billing') return undefined;
          // After the payment the billing state arrives when the test lets it.
          return paid ? new Promise<Response>((resolve) => (answer = resolve)) : json(200, overview());
        },
      });
      renderRoutes(routes, '/subSetup', { session });
      await screen.findByTestId('subscription-notice');
      await userEvent.click(await screen.findByTestId('setup-checkout'));
      await userEvent.click(await screen.findByTestId('order-confirm-confirm'));
      await userEvent.click(await screen.findByTestId('success-devices'));
      await screen.findAllByTestId('nav-devices');
      expect(screen.queryByTestId('subscription-notice')).toBeNull();
      answer(json(200, active()));
      await waitFor(() =>
        expect(screen.getAllByTestId('nav-shop')[0]).toHaveAttribute('href', '/settings/billing'),
      );
      expect(screen.queryByTestId('subscription-notice')).toBeNull();
    });

    it('thanks for a checkout the server confirms, without the navigation', async () => {
      // Back from the checkout in the same tab: its company and checkout are remembered.
      setCurrentCompanyId('c1');
      sessionStorage.setItem('heizplan.checkoutId', 'co-1');
      open('/success?method=immediate', active());
      expect(await screen.findByTestId('success-text')).toHaveTextContent(
        'Ihre Lizenzen sind freigeschaltet. Sie können jetzt Geräte hinzufügen.',
      );
      expect(screen.queryByRole('navigation')).toBeNull();
      expect(screen.getByTestId('success-devices')).toHaveAttribute('href', '/devices');
    });

    it('sends a direct visit without a checkout on to billing instead of thanking for nothing', async () => {
      sessionStorage.clear();
      const { router } = open('/success?method=immediate', active());
      await waitFor(() => expect(router.location().pathname).toBe('/settings/billing'));
      expect(screen.queryByText(/Vielen Dank/)).toBeNull();
    });
  });

  describe('settings → billing', () => {
    it('words the state, counts licences and lists invoices with net amounts and PDFs', async () => {
      open('/settings/billing', active());
      expect(await screen.findByTestId('billing-status')).toHaveTextContent(
        'Aktiv bis 23.11.2027, danach verlängert es sich automatisch.',
      );
      expect(screen.queryByText('active')).toBeNull();
      expect(screen.getByTestId('licences-current')).toHaveTextContent('5');
      expect(screen.getByTestId('licences-used')).toHaveTextContent('3');
      const table = await screen.findByTestId('invoices');
      // Twice: in its column, and under the date where a phone leaves the column out.
      expect(await within(table).findAllByText('HP-2026-000007')).toHaveLength(2);
      expect(table).toHaveTextContent('245,00 €');
      expect(table).toHaveTextContent('Bezahlt');
      expect(
        within(table).getByRole('button', { name: 'PDF von Rechnung HP-2026-000007 herunterladen' }),
      ).toBeVisible();
    });

    it('buys more licences and removes unused ones, never below the devices in use', async () => {
      const { fetchMock } = open('/settings/billing', active(), {
        writes: (method, _url, init) =>
          method === 'PATCH'
            ? json(200, active({ licences: JSON.parse(String(init.body)).licences }))
            : undefined,
      });
      const total = await screen.findByTestId('licences-new-total');
      expect(screen.getByTestId('licences-buy')).toBeDisabled();
      await userEvent.clear(total);
      await userEvent.type(total, '2');
      expect(await screen.findByTestId('licences-new-total-field-error')).toHaveTextContent(
        'Die Firma nutzt 3 Geräte',
      );
      await userEvent.clear(total);
      await userEvent.type(total, '8');
      // The new price follows the typed count after a render; under load the old one still shows.
      await waitFor(() =>
        expect(screen.getByTestId('licences-new-price')).toHaveTextContent('Neu: 392,00 € pro Jahr'),
      );
      await userEvent.click(screen.getByTestId('licences-buy'));
      // The change shows what it costs now: 3 added licences, half a year left.
      const summary = await screen.findByTestId('order-summary');
      expect(within(summary).getByTestId('order-licences')).toHaveTextContent('5 → 8');
      expect(within(summary).getByTestId('order-net')).toHaveTextContent('73,50 €');
      expect(within(summary).getByTestId('order-gross')).toHaveTextContent('87,47 €');
      await userEvent.click(screen.getByTestId('licences-confirm-confirm'));
      expect(await screen.findByText('Lizenzen aktualisiert')).toBeVisible();
      await userEvent.click(screen.getByTestId('licences-remove-unused'));
      await userEvent.click(await screen.findByTestId('licences-confirm-confirm'));
      await waitFor(() =>
        expect(bodies(fetchMock, 'PATCH', '/api/companies/c1/billing/subscription')).toEqual([
          { licences: 8 },
          { licences: 3 },
        ]),
      );
    });

    it('changes the interval from the next period on and cancels through a confirmation', async () => {
      const { fetchMock } = open('/settings/billing', active(), {
        writes: (method, _url, init) => {
          if (method !== 'PATCH') return undefined;
          const body = JSON.parse(String(init.body));
          return json(
            200,
            active(body.interval ? { nextInterval: body.interval } : { cancelAtPeriodEnd: true }),
          );
        },
      });
      await userEvent.selectOptions(await screen.findByTestId('billing-interval-select'), 'monthly');
      expect(await screen.findByTestId('billing-next-interval')).toHaveTextContent(
        'Ab 23.11.2027: Monatlich',
      );
      await userEvent.click(screen.getByTestId('subscription-cancel'));
      expect(await screen.findByTestId('subscription-cancel-dialog')).toHaveTextContent(
        'endet am 23.11.2027',
      );
      // The way out says what it keeps, not a bare "Abbrechen" beside "Kündigen".
      expect(screen.getByTestId('subscription-cancel-dialog-cancel')).toHaveTextContent(
        'Abonnement behalten',
      );
      await userEvent.click(screen.getByTestId('subscription-cancel-dialog-confirm'));
      expect(await screen.findByText('Abonnement gekündigt')).toBeVisible();
      expect(await screen.findByTestId('billing-status')).toHaveTextContent(
        'Gekündigt – aktiv bis 23.11.2027.',
      );
      expect(bodies(fetchMock, 'PATCH', '/api/companies/c1/billing/subscription')).toEqual([
        { interval: 'monthly' },
        { cancelAtPeriodEnd: true },
      ]);
    });

    it('sends Stripe customers to the payment provider’s page for interval and payment details', async () => {
      const assign = vi.fn();
      vi.stubGlobal('location', { ...window.location, assign });
      open('/settings/billing', active({ provider: 'stripe' }), {
        writes: (method, url) =>
          method === 'POST' && url === '/api/companies/c1/billing/portal'
            ? json(200, { url: 'https://billing.stripe.test/cus_1' })
            : undefined,
      });
      expect(await screen.findByTestId('billing-interval')).toHaveTextContent('Seite des Zahlungsanbieters');
      expect(screen.queryByTestId('billing-interval-select')).toBeNull();
      await userEvent.click(screen.getAllByTestId('billing-portal')[0] as HTMLElement);
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/cus_1'));
    });

    it('leads a company without a subscription to the shop', async () => {
      open('/settings/billing', overview());
      expect(await screen.findByTestId('billing-shop')).toHaveAttribute('href', '/subSetup');
      expect(screen.getByTestId('billing-status')).toHaveTextContent(
        'Ihre Firma hat kein aktives Abonnement.',
      );
    });
  });
});
