/**
 * Onboarding journey in Chromium against the real server and embedded identity
 * provider: register on the hosted page → verify the mail link → setup steps 1–3 → units in
 * German → switch to English; a second user joins by invite code; silent token renewal by
 * refresh token and by hidden frame; logout — all without a Content-Security-Policy violation.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { acceptAgreements, register, verificationLink } from './accounts.ts';
import { launchBrowser, recordCspViolations, screenshot } from './browser.ts';

describe('onboarding', () => {
  let browser: Browser;
  let ada: Page;
  /** Ada's CSP violations, the silent-renew frame and the sign-out page included. */
  let violations: string[];
  const baseURL = inject('baseURL');

  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'de-DE' });
    violations = await recordCspViolations(context);
    ada = await context.newPage();
  });
  afterAll(() => browser?.close());

  it('registers, verifies the email, completes setup and lands on units in German', async () => {
    await ada.goto(`${baseURL}/units`);
    await register(
      ada,
      { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' },
      /Neues Konto/,
    );
    // Back from the provider: the address was reset and the guard sent the new user to step 1.
    await ada.waitForURL(`${baseURL}/setup/1`);
    await screenshot(ada, 'onboarding-step-1');

    await ada.goto(verificationLink(inject('dataDir'), 'ada@example.com'));
    await expect(ada.locator('main').innerText()).resolves.toContain('ada@example.com');

    await ada.goto(`${baseURL}/setup`);
    await ada.waitForURL(`${baseURL}/setup/1`);
    await ada.getByTestId('setup-lang-de').check({ force: true });
    await ada.getByTestId('setup-next').click();
    await ada.waitForURL(`${baseURL}/setup/2`);
    const companyName = ada.getByTestId('setup-company-name');
    await companyName.waitFor();
    await expect(ada.getByTestId('setup-next').isDisabled()).resolves.toBe(true);
    await companyName.fill('Stadtwerke Musterstadt');
    await ada.getByTestId('setup-next').click();
    await ada.waitForURL(`${baseURL}/setup/3`);
    await screenshot(ada, 'onboarding-step-3');
    await acceptAgreements(ada);
    await ada.waitForURL(`${baseURL}/units`);
    await ada.getByRole('heading', { name: 'Räume' }).first().waitFor();
    await expect(ada.getByTestId('nav-settings').first().innerText()).resolves.toBe('Einstellungen');
    await screenshot(ada, 'onboarding-units-de');

    // Verified: settings offer no verification mail any more.
    await ada.goto(`${baseURL}/settings/general`);
    await expect(ada.getByTestId('profile-email').inputValue()).resolves.toBe('ada@example.com');
    await expect(ada.getByTestId('email-unverified').count()).resolves.toBe(0);
  });

  it('switches the interface to English', async () => {
    await ada.goto(`${baseURL}/settings/language`);
    await ada.getByTestId('language-en').check();
    await ada.getByTestId('language-save').click();
    await ada.getByText('Language updated').waitFor();
    await ada.getByTestId('nav-units').first().click();
    await ada.getByRole('heading', { name: 'Units' }).first().waitFor();
    // The choice is stored on the profile: a reload stays English.
    await ada.reload();
    await ada.getByRole('heading', { name: 'Units' }).first().waitFor();
  });

  it('shows the navigation behind a menu on a 375 px phone', async () => {
    const phone = await ada.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(`${baseURL}/units`);
    await phone.getByRole('heading', { name: 'Units' }).first().waitFor();
    await expect(phone.getByTestId('nav-units').first().isVisible()).resolves.toBe(false);
    await phone.getByTestId('nav-toggle').click();
    await expect(phone.getByTestId('nav-units').last().isVisible()).resolves.toBe(true);
    await screenshot(phone, 'shell-phone-menu');
    await phone.close();
  });

  it('lets a second user join by invite code', async () => {
    const { token, companyId } = await ada.evaluate(() => ({
      token: (JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}') as { value?: string }).value,
      companyId: localStorage.getItem('heizplan.companyId'),
    }));
    const created = await fetch(`${baseURL}/api/invite/?company_id=${companyId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const invite = (await created.json()) as { id: string };

    const grace = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await grace.goto(`${baseURL}/`);
    await register(
      grace,
      { name: 'Grace Hopper', email: 'grace@example.com', password: 'another long secret' },
      /Create an account/,
    );
    await grace.waitForURL(`${baseURL}/setup/1`);
    await grace.getByTestId('setup-lang-en').check({ force: true });
    await grace.getByTestId('setup-next').click();
    await grace.getByTestId('setup-mode-join').click();
    await grace.getByTestId('setup-invite-code').fill('not-a-real-code');
    await grace.getByTestId('setup-next').click();
    await expect(grace.getByTestId('setup-invite-code-field-error').innerText()).resolves.toBe(
      'Invalid invite code.',
    );
    await screenshot(grace, 'onboarding-invalid-invite');

    await grace.getByTestId('setup-invite-code').fill(invite.id);
    await grace.getByTestId('setup-next').click();
    // Ada already accepted the agreements for the company, so step 3 sends Grace on to units.
    await grace.waitForURL(`${baseURL}/units`);
    await grace.getByRole('heading', { name: 'Units' }).first().waitFor();
    await grace.context().close();
  });

  it.each(['refresh token', 'hidden frame'] as const)(
    'renews an expired API token silently through the %s',
    async (mode) => {
      const before = await ada.evaluate((dropRefreshToken) => {
        const token = JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}') as { value: string };
        localStorage.setItem('heizplan.apiToken', JSON.stringify({ ...token, expiresAt: 0 }));
        const userKey = Object.keys(localStorage).find((key) => key.startsWith('oidc.user:'));
        if (dropRefreshToken && userKey) {
          const { refresh_token: _, ...user } = JSON.parse(localStorage.getItem(userKey) ?? '{}');
          localStorage.setItem(userKey, JSON.stringify(user));
        }
        return token.value;
      }, mode === 'hidden frame');
      const renewal = ada.waitForRequest((request) =>
        mode === 'hidden frame'
          ? request.url().includes('prompt=none')
          : (request.postData() ?? '').includes('grant_type=refresh_token'),
      );
      await ada.goto(`${baseURL}/settings/general`);
      await renewal;
      await ada.getByTestId('profile-name').waitFor();
      const after = await ada.evaluate(() => JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}'));
      expect(after.value).not.toBe(before);
      expect(after.expiresAt).toBeGreaterThan(Date.now() + 60_000);
    },
  );

  it('logs out at the provider and locally', async () => {
    await ada.getByTestId('nav-logout').first().click();
    // The provider confirms an app-initiated logout itself and returns to `/`. Had only the
    // local session ended, the provider's session would sign Ada straight back in; instead
    // the hosted login page asks for her password.
    await ada.waitForURL(/\/auth\/interaction\//);
    await ada.locator('input[name="password"]').waitFor();
    await expect(ada.evaluate(() => localStorage.getItem('heizplan.apiToken'))).resolves.toBeNull();
    expect(violations).toEqual([]);
  });
});
