/**
 * The occupant's journey in Chromium against the real server: an operator registers
 * a valve (one licence = one QR code), enables a unit's QR code, and the link opens in a fresh
 * browser context without a session at 375 × 667 px, in German and in English. The occupant
 * raises the setpoint by 0.5 °C, reads until when it holds, and the operator's heating log shows
 * the change by an anonymous actor. The occupant presses "Zu kalt", is thanked and cannot press
 * again for a while; the operator sees it on the unit page. A revoked link shows the "no longer
 * valid" page. No page of the journey violates the Content-Security-Policy.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buyLicences, signUpWithCompany } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser, recordCspViolations, screenshot } from './browser.ts';

const DEV_EUI = '70b3d52dd3000a01';

describe('public heating view', () => {
  let browser: Browser;
  let operator: Page;
  let link: string;
  let unitPath: string;
  const baseURL = inject('baseURL');

  /** CSP violations of every page of the journey: none expected. */
  const violations: string[][] = [];

  async function phone(locale: string) {
    const context = await browser.newContext({
      locale,
      viewport: { width: 375, height: 667 },
      isMobile: true,
      hasTouch: true,
    });
    violations.push(await recordCspViolations(context));
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    const operatorContext = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    violations.push(await recordCspViolations(operatorContext));
    operator = await operatorContext.newPage();
    await operator.goto(`${baseURL}/units`);
    await signUpWithCompany(operator, {
      baseURL,
      account: { name: 'Otto Operator', email: 'otto@example.com', password: 'qr codes on every door' },
      company: 'Bürohaus Nord',
      registerLinkName: /Create an account/,
    });
    // One licence: the valve below, and with it one QR code.
    await buyLicences(operator, baseURL, 1);
    await operator.getByTestId('create-units').click();
    await operator.getByTestId('create-units-mode').selectOption('one');
    await operator.getByTestId('create-unit-name').fill('Büro 2.04');
    await operator.getByTestId('create-units-submit').click();
    await operator.getByText('Büro 2.04').first().click();
    await operator.waitForURL(/\/units\/[0-9a-f-]+$/);
    unitPath = new URL(operator.url()).pathname;
    await operator.goto(`${baseURL}/devices`);
    await operator.getByTestId('add-device').click();
    await operator.getByTestId('add-device-id').fill(DEV_EUI);
    await operator.getByTestId('add-device-app-key').fill('0123456789abcdef0123456789abcdef');
    await operator.getByTestId('add-device-model').selectOption('mclimate-vicki');
    await operator.getByTestId('add-device-submit').click();
    await operator.getByTestId('toast-device-added').waitFor();
  });
  afterAll(() => browser?.close());

  it("enables the unit's QR code and shows the link and the remaining count", async () => {
    await operator.goto(`${baseURL}${unitPath}`);
    await expect(operator.getByTestId('qr-remaining').innerText()).resolves.toBe('1 QR code remaining');
    await operator.getByTestId('qr-enable').click();
    link = await operator.getByTestId('qr-link').innerText();
    expect(link).toMatch(/\/heating-view\/[\w-]{22}$/);
    await expect(operator.getByTestId('qr-remaining').innerText()).resolves.toBe('0 QR codes remaining');
    await operator.getByTestId('qr-image').waitFor();
    await screenshot(operator, 'heating-view-operator-qr');
  });

  it('opens the link without a session on a phone, raises the setpoint and says until when it holds', async () => {
    const page = await phone('de-DE');
    await page.goto(link);
    // The heading reads the page title until the view has loaded.
    await page.getByTestId('hv-setpoint').waitFor();
    await expect(page.getByTestId('hv-name').innerText()).resolves.toBe('Büro 2.04');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.getByTestId('hv-room').innerText()).resolves.toBe('–');
    const before = await page.getByTestId('hv-setpoint').innerText();
    await screenshot(page, 'heating-view-phone-de');
    await page.getByRole('button', { name: 'Solltemperatur um 0,5 °C erhöhen' }).click();
    await page.getByTestId('hv-holds').waitFor();
    const after = await page.getByTestId('hv-setpoint').innerText();
    expect(
      Number.parseFloat(after.replace(',', '.')) - Number.parseFloat(before.replace(',', '.')),
    ).toBeCloseTo(0.5);
    await page.getByText('Der Heizkörper wird nicht warm?').click();
    await page.getByTestId('hv-verdict').waitFor();
    await screenshot(page, 'heating-view-phone-de-help');
    await page.context().close();
  });

  it('speaks English to a browser that prefers it', async () => {
    const page = await phone('en-GB');
    await page.goto(link);
    await page.getByRole('button', { name: 'Raise the setpoint by 0.5 °C' }).waitFor();
    await expect(page.getByTestId('hv-holds').innerText()).resolves.toMatch(/^Your change holds until/);
    await screenshot(page, 'heating-view-phone-en');
    await page.context().close();
  });

  it("shows the occupant's change in the operator's heating log as anonymous", async () => {
    await operator.goto(`${baseURL}${unitPath}/log`);
    const entry = operator.locator('li', { hasText: 'QR code change' }).first();
    await entry.waitFor();
    await expect(entry.locator('[data-testid^="log-actor-"]').innerText()).resolves.toBe(
      'An occupant via the QR code (anonymous)',
    );
    await screenshot(operator, 'heating-view-operator-log');
  });

  it('takes "Zu kalt" from the occupant, who is thanked, and the operator sees it on the unit page', async () => {
    const page = await phone('de-DE');
    await page.goto(link);
    const cold = page.getByRole('button', { name: 'Zu kalt' });
    await cold.waitFor();
    // Big enough for a thumb at 375 px.
    const box = await cold.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(48);
    expect(box?.width).toBeGreaterThanOrEqual(120);
    await cold.click();
    await page.getByText('Danke, Ihre Rückmeldung ist angekommen.').waitFor();
    await expect(cold.isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Zu warm' }).isDisabled()).resolves.toBe(true);
    await page.getByText(/Eine weitere Rückmeldung aus diesem Browser ist ab/).waitFor();
    await screenshot(page, 'heating-view-phone-feedback');
    // A reload within the pause keeps the buttons resting.
    await page.reload();
    await page.getByTestId('hv-setpoint').waitFor();
    await expect(page.getByRole('button', { name: 'Zu kalt' }).isDisabled()).resolves.toBe(true);
    await page.context().close();

    await operator.goto(`${baseURL}${unitPath}`);
    const list = operator.getByRole('list', { name: 'Feedback, newest first' });
    await list.waitFor();
    await expect(operator.getByTestId('unit-feedback-too-cold').innerText()).resolves.toBe('1');
    await expect(operator.getByTestId('unit-feedback-too-warm').innerText()).resolves.toBe('0');
    await expect(list.getByRole('listitem').first().innerText()).resolves.toContain('Too cold');
    await operator.getByTestId('unit-feedback-card').scrollIntoViewIfNeeded();
    await screenshot(operator, 'heating-view-operator-feedback');
  });

  it('tells the occupant when the code was revoked', async () => {
    await operator.goto(`${baseURL}${unitPath}`);
    await operator.getByTestId('qr-disable-open').click();
    await operator.getByTestId('qr-disable-confirm').waitFor();
    await expectAccessible(operator, 'revoke QR code dialog');
    await operator.getByTestId('qr-disable-confirm').click();
    await operator.getByTestId('qr-enable').waitFor();
    const page = await phone('de-DE');
    await page.goto(link);
    await expect(page.getByTestId('hv-notFound').innerText()).resolves.toContain('nicht mehr gültig');
    await screenshot(page, 'heating-view-phone-revoked');
    await page.context().close();
  });

  it('ran under the Content-Security-Policy without a single violation, operator and phones', () => {
    expect(violations.flat()).toEqual([]);
  });
});
