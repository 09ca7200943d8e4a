/**
 * A password reset ends every session of the account: one person is signed in on two browsers,
 * resets the password through "Passwort vergessen" and the mailed link, and the other browser's
 * next step lands on the sign-in page instead of the units screen — its access token, refresh
 * token and provider session all stopped working. Signing in with the new password works.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { linkInMail, signUpWithCompany } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';

const EMAIL = 'rosa@example.com';
const OLD = 'the first long secret';
const NEW = 'the second long secret';

describe('password reset', () => {
  let browser: Browser;
  let office: Page;
  let laptop: Page;
  const baseURL = inject('baseURL');

  beforeAll(async () => {
    browser = await launchBrowser();
    office = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    laptop = await (await browser.newContext({ locale: 'de-DE' })).newPage();
  });
  afterAll(() => browser?.close());

  /** Signs in on the hosted login page a protected screen redirected `page` to. */
  async function signIn(page: Page, password: string) {
    await page.goto(`${baseURL}/units`);
    await page.waitForURL(/\/auth\/interaction\//);
    await page.locator('input[name="email"]').fill(EMAIL);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('form button[type="submit"]').click();
  }

  it('is signed in on two browsers', async () => {
    await office.goto(`${baseURL}/units`);
    await signUpWithCompany(office, {
      baseURL,
      account: { name: 'Rosa Reset', email: EMAIL, password: OLD },
      company: 'Rosa Hausverwaltung',
      registerLinkName: /Neues Konto/,
    });
    await signIn(laptop, OLD);
    await laptop.waitForURL(`${baseURL}/units`);
    await laptop.getByTestId('nav-units').first().waitFor();
  });

  it('resets the password through the mailed link', async () => {
    const page = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    await page.goto(`${baseURL}/units`);
    await page.waitForURL(/\/auth\/interaction\//);
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await page.locator('input[name="email"]').fill(EMAIL);
    await page.locator('form button[type="submit"]').click();
    await page.getByText(/Link zum Zurücksetzen/).waitFor();
    await page.goto(linkInMail(inject('dataDir'), EMAIL, /https?:\/\/\S+\/auth\/reset\/\S+/));
    await page.locator('input[name="password"]').fill(NEW);
    await page.locator('input[name="password2"]').fill(NEW);
    await page.locator('form button[type="submit"]').click();
    await page
      .getByText(/Passwort wurde geändert|neues Passwort/i)
      .first()
      .waitFor();
    await page.context().close();
  });

  it('ends the other sessions: both browsers are asked to sign in again', async () => {
    for (const page of [laptop, office]) {
      // The app redirects on its own while the page loads; poll the address instead of awaiting
      // one navigation.
      await page.goto(`${baseURL}/devices`).catch(() => {});
      await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/auth\/interaction\//);
      await page.locator('input[name="password"]').waitFor();
    }
    await screenshot(laptop, 'password-reset-signed-out');
  });

  it('signs in with the new password, not the old one', async () => {
    await signIn(laptop, OLD);
    // The hosted page speaks the language Rosa chose in the app.
    await expect(laptop.locator('.alert').innerText()).resolves.toMatch(
      /E-Mail-Adresse oder Passwort ist falsch|Email address or password is wrong/,
    );
    await laptop.locator('input[name="password"]').fill(NEW);
    await laptop.locator('form button[type="submit"]').click();
    await laptop.waitForURL(`${baseURL}/units`);
  });
});
