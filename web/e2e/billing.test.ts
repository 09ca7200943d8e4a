/**
 * Billing journeys in Chromium with the embedded `manual` provider: a new company
 * sees that no subscription is active, buys 5 yearly licences paid at once, registers 5 devices,
 * is refused the 6th with a link to billing, raises to 8, removes the 3 unused and cancels; a
 * second company pays later (delayed) and stays pending until the operator marks it paid.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAs, signUpWithCompany } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser, screenshot } from './browser.ts';

describe('subscriptions and licences', () => {
  let browser: Browser;
  let page: Page;
  const baseURL = inject('baseURL');

  async function newCompany(locale: string, email: string, company: string): Promise<Page> {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    const p = await context.newPage();
    await p.goto(`${baseURL}/units`);
    await signUpWithCompany(p, {
      baseURL,
      account: { name: company, email, password: 'licences for every valve' },
      company,
      registerLinkName: /Neues Konto|Create an account/,
    });
    return p;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newCompany('en-US', 'bea.billing@example.com', 'Stadtwerke Billing');
  });
  afterAll(() => browser?.close());

  it('says that no subscription is active and buys 5 yearly licences paid at once', async () => {
    const notice = page.getByTestId('subscription-notice').first();
    await expect(notice.innerText()).resolves.toContain('No active subscription');
    await notice.getByTestId('subscription-notice-link').click();
    await page.waitForURL(`${baseURL}/subSetup`);
    await page.getByTestId('setup-interval-yearly').check();
    await page.getByTestId('setup-licences').fill('5');
    await expect.poll(() => page.getByTestId('setup-total').innerText()).toBe('Total: €245.00 per year');
    await expect(page.getByTestId('setup-net').innerText()).resolves.toBe('All prices net, plus VAT.');
    await page.getByTestId('setup-method-immediate').check();
    await screenshot(page, 'billing-sub-setup');
    await page.getByTestId('setup-checkout').click();
    // Nothing is ordered before the confirmation names the cost: 5 × €49.00 net, 19 % VAT.
    const summary = page.getByTestId('order-summary');
    await expect(summary.getByTestId('order-net').innerText()).resolves.toBe('€245.00');
    await expect(summary.getByTestId('order-vat').innerText()).resolves.toBe('€46.55');
    await expect(summary.getByTestId('order-gross').innerText()).resolves.toBe('€291.55');
    await screenshot(page, 'billing-order-confirmation');
    await page.getByTestId('order-confirm-confirm').click();
    await page.waitForURL(`${baseURL}/success?method=immediate`);
    await expect(page.getByTestId('success-text').innerText()).resolves.toContain(
      'Your licences are unlocked',
    );
    await screenshot(page, 'billing-success');
    await page.getByTestId('success-devices').click();
    await page.waitForURL(`${baseURL}/devices`);
    await page.getByTestId('nav-devices').first().waitFor();
    await expect.poll(() => page.getByTestId('subscription-notice').count()).toBe(0);
  });

  it('registers 5 devices and refuses the 6th with a link to billing', async () => {
    for (let i = 1; i <= 4; i++) {
      await apiAs(page, baseURL, 'POST', '/companies/:company/devices', {
        id: `70b3d52dd30000b${i}`,
        model: 'elsys-ers',
      });
    }
    const add = async (devEui: string) => {
      await page.getByTestId('add-device').click();
      await page.getByTestId('add-device-id').fill(devEui);
      await page.getByTestId('add-device-app-key').fill('0123456789abcdef0123456789abcdef');
      await page.getByTestId('add-device-model').selectOption('elsys-ers');
      await page.getByTestId('add-device-submit').click();
    };
    await page.goto(`${baseURL}/devices`);
    await add('70B3D52DD30000B5');
    await page.getByText('70b3d52dd30000b5').first().waitFor();
    await add('70B3D52DD30000B6');
    await expect(page.getByTestId('add-device-error').innerText()).resolves.toContain(
      'Every licence is in use. Buy more licences in settings → billing',
    );
    await screenshot(page, 'billing-device-refused');
    await page.getByTestId('add-device-buy-licences').click();
    await page.waitForURL(`${baseURL}/settings/billing`);
  });

  it('shows 5 of 5 used, raises to 8, removes the 3 unused and cancels', async () => {
    await expect(page.getByTestId('licences-current').innerText()).resolves.toBe('5');
    await expect.poll(() => page.getByTestId('licences-used').innerText()).toBe('5');
    await page.getByTestId('licences-new-total').fill('8');
    await expect.poll(() => page.getByTestId('licences-new-price').innerText()).toBe('New: €392.00 per year');
    await page.getByTestId('licences-buy').click();
    await expect(page.getByTestId('order-licences').innerText()).resolves.toBe('5 → 8');
    await expectAccessible(page, 'licence change confirmation');
    await page.getByTestId('licences-confirm-confirm').click();
    await page.getByText('Licences updated').waitFor();
    await expect(page.getByTestId('licences-current').innerText()).resolves.toBe('8');
    await expect(page.getByTestId('invoices').innerText()).resolves.toContain('HP-');
    await screenshot(page, 'billing-settings');
    await page.getByTestId('licences-remove-unused').click();
    await page.getByTestId('licences-confirm-confirm').click();
    await expect.poll(() => page.getByTestId('licences-current').innerText()).toBe('5');
    await page.getByTestId('subscription-cancel').click();
    await page.getByTestId('subscription-cancel-dialog-confirm').waitFor();
    await expectAccessible(page, 'cancel subscription dialog');
    await page.getByTestId('subscription-cancel-dialog-confirm').click();
    await page.getByText('Subscription cancelled').waitFor();
    await expect(page.getByTestId('billing-status').innerText()).resolves.toMatch(
      /^Cancelled – active until /,
    );
  });

  it('keeps a delayed payment pending until the operator marks it paid', async () => {
    const late = await newCompany('de-DE', 'paul.later@example.com', 'Wohnbau Später');
    await late.goto(`${baseURL}/subSetup`);
    await late.getByTestId('setup-method-delayed').check();
    await late.getByTestId('setup-checkout').click();
    await late.getByTestId('order-confirm-confirm').click();
    await late.waitForURL(`${baseURL}/success?method=delayed`);
    await late.goto(`${baseURL}/units`);
    const notice = late.getByTestId('subscription-notice').first();
    // Signed up on German pages, so the app speaks German.
    await expect(notice.innerText()).resolves.toContain('Zahlung wird verarbeitet');
    const token = readFileSync(path.join(inject('dataDir'), 'operator-token'), 'utf8').trim();
    const paid = await fetch(
      `${baseURL}/api/operator/billing/${encodeURIComponent('Wohnbau Später')}/mark-paid`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(paid.status).toBe(200);
    await late.reload();
    await late.getByTestId('nav-units').first().waitFor();
    await expect.poll(() => late.getByTestId('subscription-notice').count()).toBe(0);
    await late.context().close();
  });
});
