/**
 * Closures journey in Chromium against the real server (decision 0051): a new company with two
 * rooms enters a works holiday from tomorrow for a week in frost protection, the second room
 * excepted; the closure is listed, the first room's 7-day preview names it ("Schließzeit:
 * Betriebsurlaub — Frostschutz") and the excepted room's preview does not; a closure every
 * weekend is entered on a phone and listed as "jedes Wochenende bis 31.03.2027" with its next
 * date. Screens are shot at desktop and 375 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { register, setUpCompanyInGerman, verificationLink } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';

describe('closures', () => {
  let browser: Browser;
  let page: Page;
  const baseURL = inject('baseURL');

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (
      await browser.newContext({
        locale: 'de-DE',
        timezoneId: 'Europe/Berlin',
        viewport: { width: 1280, height: 900 },
      })
    ).newPage();
    await page.goto(`${baseURL}/units`);
    await register(
      page,
      { name: 'Clara Closure', email: 'clara@example.com', password: 'warm rooms all winter' },
      /Neues Konto/,
    );
    await page.waitForURL(`${baseURL}/setup/1`);
    await page.goto(verificationLink(inject('dataDir'), 'clara@example.com'));
    await setUpCompanyInGerman(page, baseURL, 'Stadtbücherei');
    await page.getByTestId('create-units').click();
    await page.getByTestId('create-units-count').fill('2');
    await page.getByTestId('create-units-submit').click();
    await page.getByText('2 Räume angelegt').waitFor();
  });
  afterAll(() => browser?.close());

  it('enters a works holiday for the whole company with one room excepted', async () => {
    await page.getByTestId('nav-closures').first().click();
    await page.getByTestId('closures-empty').waitFor();
    await page.getByTestId('closure-new').click();
    await page.getByTestId('closure-name').fill('Betriebsurlaub');
    await page.getByTestId('closure-exceptions').click();
    await page.getByTestId('closure-exceptions').fill('Raum 2');
    await page.getByTestId('closure-exceptions').press('Enter');
    await page.getByTestId('closure-exceptions').press('Escape');
    await screenshot(page, 'closures-dialog');
    await page.getByTestId('closure-save').click();
    await page.getByText('Schließzeit angelegt').waitFor();
    const table = page.getByTestId('closures-table');
    await expect.poll(() => table.innerText()).toContain('Betriebsurlaub');
    await expect(table.innerText()).resolves.toContain('Ganze Firma');
    await expect(table.innerText()).resolves.toContain('1 Ausnahme');
    await screenshot(page, 'closures-list');
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(page.url());
    await phone.getByTestId('closures-table').waitFor();
    // The page itself never scrolls sideways on a phone.
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      375,
    );
    await screenshot(phone, 'closures-list-phone');
    await phone.close();
  });

  it('enters a closure every weekend, on a phone too', async () => {
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(`${baseURL}/closures`);
    await phone.getByTestId('closure-new').click();
    await phone.getByTestId('closure-name').fill('Wochenende');
    await phone.getByTestId('closure-start').fill('2027-01-02T00:00');
    await phone.getByTestId('closure-end').fill('2027-01-03T00:00');
    await phone.getByTestId('closure-repeat').selectOption('weekly');
    await phone.getByTestId('closure-weekday-SU').check();
    await phone.getByTestId('closure-until').fill('2027-03-31');
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      375,
    );
    await screenshot(phone, 'closures-dialog-repeat-phone');
    await phone.getByTestId('closure-save').click();
    await phone.getByText('Schließzeit angelegt').waitFor();
    await phone.close();
    await page.reload();
    const table = page.getByTestId('closures-table');
    await expect.poll(() => table.innerText()).toContain('jedes Wochenende bis 31.03.2027');
    await expect(table.innerText()).resolves.toContain(
      'Nächster Termin: 02.01.2027, 00:00 – 03.01.2027, 00:00',
    );
    await screenshot(page, 'closures-list-recurring');
  });

  it('is filled in with the keyboard alone, and focus returns to "Neue Schließzeit"', async () => {
    await page.goto(`${baseURL}/closures`);
    /** The label (or name) of the focused control. */
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLInputElement | null;
        return (
          element?.labels?.[0]?.textContent ??
          element?.getAttribute('aria-label') ??
          element?.textContent ??
          ''
        )
          .replace(/\s*\*$/, '')
          .trim();
      });
    await page.getByRole('button', { name: 'Neue Schließzeit' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Neue Schließzeit' }).waitFor();
    await expect.poll(focused).toBe('Name');
    await page.keyboard.type('Tastatur');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('Beginn');
    /** Types a date and time into Chromium's date field, whose day, month, year, hour and minute Tab moves between. */
    const typeDateTime = async (date: string, time: string) => {
      await page.keyboard.type(date);
      await page.keyboard.press('Tab');
      await page.keyboard.type(time);
    };
    /** Tabs until focus leaves the field `label` (its remaining parts), at most 6 times. */
    const tabOutOf = async (label: string) => {
      for (let i = 0; i < 6 && (await focused()) === label; i++) await page.keyboard.press('Tab');
    };
    await typeDateTime('04012027', '0800');
    await tabOutOf('Beginn');
    // The first Tab out of Beginn once went back to the dialog's close button.
    await expect.poll(focused).toBe('Ende');
    await typeDateTime('08012027', '1600');
    await tabOutOf('Ende');
    await expect.poll(focused).not.toBe('Schließen');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(focused).toBe('Neue Schließzeit');
  });

  it("names the closure in the covered room's preview, not in the excepted room's", async () => {
    await page.getByTestId('nav-units').first().click();
    await page.getByRole('link', { name: 'Raum 1', exact: true }).click();
    await page.getByTestId('preview-legend-closure').waitFor();
    // The step list is folded away under the chart; its text is there for screen readers.
    await expect(page.getByTestId('preview-steps').textContent()).resolves.toContain(
      'Schließzeit: Betriebsurlaub — Frostschutz',
    );
    await screenshot(page, 'closures-unit-preview');
    await page.getByTestId('nav-units').first().click();
    await page.getByRole('link', { name: 'Raum 2', exact: true }).click();
    await page.getByTestId('preview-chart').waitFor();
    await expect(page.getByTestId('preview-legend-closure').count()).resolves.toBe(0);
  });
});
