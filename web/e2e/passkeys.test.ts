/**
 * Passkeys (decision 0074) in Chromium with its virtual authenticator (DevTools protocol
 * `WebAuthn`: CTAP2, built in, resident keys, user verified): a new member adds a passkey in
 * Settings → General, signs out and signs in again with the passkey alone — no email, no
 * password — without a Content-Security-Policy violation on the way.
 *
 * WebAuthn refuses an IP address as relying party id, so this journey runs its own server whose
 * PUBLIC_URL (where the relying party id and origin come from) names `localhost`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithCompany } from './accounts.ts';
import { launchBrowser, recordCspViolations, screenshot } from './browser.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

describe('passkeys', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-passkeys-'));
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let baseURL: string;
  let violations: string[];

  beforeAll(async () => {
    const port = await freePort();
    baseURL = `http://localhost:${port}`;
    server = await startServer({ dataDir, port, env: { PUBLIC_URL: baseURL } });
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'de-DE' });
    violations = await recordCspViolations(context);
    page = await context.newPage();
    // The authenticator belongs to the tab: it keeps the passkey across sign-out and sign-in.
    const devtools = await context.newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds a passkey in the settings', async () => {
    await page.goto(`${baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL,
      account: { name: 'Paula Passkey', email: 'paula@example.com', password: 'a long enough secret' },
      company: 'Paulas Hausverwaltung',
      registerLinkName: /Neues Konto/,
    });
    await page.goto(`${baseURL}/settings/general`);
    const card = page.getByRole('region', { name: 'Passkeys' });
    await expect(card.getByText('Noch keine Passkeys.').waitFor()).resolves.toBeUndefined();
    await card.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Passkey hinzufügen' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Laptop');
    // The step-up before a sign-in factor is added (decision 0078).
    await dialog.getByLabel('Passwort').fill('a long enough secret');
    await screenshot(page, 'passkeys-add');
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    const list = card.getByRole('list', { name: 'Ihre Passkeys' });
    await list.getByText('Laptop').waitFor();
    expect(await list.getByText(/noch nicht verwendet/).count()).toBe(1);
    await screenshot(page, 'passkeys-card');
  });

  it('signs out and in again with the passkey alone', async () => {
    await page.getByTestId('nav-logout').first().click();
    await page.waitForURL(/\/auth\/interaction\//);
    const button = page.getByRole('button', { name: 'Mit Passkey anmelden' });
    await button.waitFor();
    await screenshot(page, 'passkeys-login');
    await button.click();
    await page.waitForURL(/\/units$/);
    await page.getByTestId('nav-units').first().waitFor();
    await page.goto(`${baseURL}/settings/general`);
    const list = page.getByRole('region', { name: 'Passkeys' }).getByRole('list', { name: 'Ihre Passkeys' });
    await list.getByText(/zuletzt verwendet am/).waitFor();
    expect(violations).toEqual([]);
  });
});
