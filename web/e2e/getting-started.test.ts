/**
 * The getting-started journey in Chromium against the real server: a brand-new company lands on
 * the start screen after setup and finds the checklist with nothing done, follows its first
 * step to the buildings screen, creates a building there, comes back and finds that step ticked,
 * read from the server. Found by role and name, as a screen reader finds them; in German.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpWithCompany } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser, screenshot } from './browser.ts';

describe('getting started', () => {
  let browser: Browser;
  let page: Page;
  const baseURL = inject('baseURL');

  const checklist = () => page.getByRole('region', { name: 'Erste Schritte' });
  /** The checklist's item of the step titled `title`. */
  const step = (title: string): Locator => checklist().getByRole('listitem').filter({ hasText: title });

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL,
      account: { name: 'Nele Neu', email: 'nele@example.com', password: 'first steps first' },
      company: 'Kita Sonnenschein',
      registerLinkName: /Neues Konto/,
    });
  });
  afterAll(() => browser?.close());

  it('shows a brand-new company the checklist with nothing done', async () => {
    await checklist().getByText('0 von 7 erledigt').waitFor();
    await expect(checklist().getByRole('listitem').count()).resolves.toBe(7);
    await expect(step('Gebäude anlegen').innerText()).resolves.toContain('Offen');
    await expect(step('LoRaWAN-Netzwerkserver verbinden').innerText()).resolves.toContain(
      'Letzte Meldung: noch nie',
    );
    await screenshot(page, 'getting-started-new-company');
  });

  it('creates a building from its step and finds the step ticked on coming back', async () => {
    await checklist().getByRole('link', { name: 'Gebäude anlegen' }).click();
    await page.waitForURL(`${baseURL}/buildings`);
    await page.getByRole('button', { name: 'Gebäude anlegen' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Haupthaus');
    await dialog.getByRole('combobox', { name: /^Bundesland/ }).selectOption('BE');
    await expectAccessible(page, 'new building dialog');
    await dialog.getByRole('button', { name: 'Gebäude anlegen' }).click();
    // The server has it once the dialog says so and closes; the list's cells change with its links.
    await page.getByText('Gebäude angelegt').waitFor();
    await dialog.waitFor({ state: 'detached' });

    await page.goBack();
    await page.waitForURL(`${baseURL}/units`);
    await checklist().getByText('1 von 7 erledigt').waitFor();
    await expect(step('Gebäude anlegen').innerText()).resolves.toContain('Erledigt');
    await expect(step('Räume anlegen').innerText()).resolves.toContain('Offen');
    await screenshot(page, 'getting-started-building-done');
  });
});
