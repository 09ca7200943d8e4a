/**
 * Booking calendar journey in Chromium against a server of its own (decision 0053): a new
 * company connects its meeting room to an ICS calendar — the one the app serves for the demo on
 * its own origin — fetches it at once, sees the bookings found, and finds the next booking named
 * in the room's 7-day preview ("Buchung: Kundentermin Stadtwerke …"). Then the calendar's address
 * breaks: the fetch fails, the feed is shown as stale, the preview falls back to the plan, and
 * the alert "Buchungskalender veraltet" opens. Screens are shot at desktop and 375 px.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, signUpWithCompany } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

describe('booking calendars', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let unitId: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-bookings-'));

  const previewSteps = async () => {
    await page.goto(`${server.baseURL}/units/${unitId}`);
    await page.getByTestId('preview-chart').waitFor();
    return (await page.getByTestId('preview-steps').textContent()) ?? '';
  };

  beforeAll(async () => {
    // Alerts are evaluated every 5 s instead of every minute, so the stale feed's alert shows soon.
    server = await startServer({ dataDir, env: { DEMO: '0', ALERT_EVALUATION_SECONDS: '5' } });
    browser = await launchBrowser();
    page = await (
      await browser.newContext({
        locale: 'de-DE',
        timezoneId: 'Europe/Berlin',
        viewport: { width: 1280, height: 900 },
      })
    ).newPage();
    await page.goto(`${server.baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL: server.baseURL,
      account: { name: 'Bea Buchung', email: 'bea@example.com', password: 'warm when booked only' },
      company: 'Stadtwerke Nord',
      registerLinkName: /Neues Konto/,
    });
    const unit = await apiAs(page, server.baseURL, 'POST', '/companies/:company/units', {
      name: 'Besprechung 1.10',
    });
    unitId = unit?.id as string;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('connects the meeting room to its calendar and lists the bookings found', async () => {
    await page.goto(`${server.baseURL}/booking-feeds`);
    await page.getByTestId('booking-feeds-empty').waitFor();
    await screenshot(page, 'booking-feeds-empty');
    await page.getByTestId('booking-feeds-empty-new').click();
    await page.getByTestId('booking-feed-name').fill('Raumbuchung 1.10');
    await page.getByTestId('booking-feed-unit').click();
    await page.getByTestId('booking-feed-unit').fill('Besprechung');
    await page.getByRole('option', { name: 'Besprechung 1.10' }).click();
    await page.getByTestId('booking-feed-url').fill(`${server.baseURL}/api/public/demo/bookings.ics`);
    await page.getByTestId('booking-feed-temperature').fill('21');
    await screenshot(page, 'booking-feed-dialog');
    await page.getByTestId('booking-feed-save').click();
    await page.getByText('Buchungskalender angelegt').waitFor();

    const table = page.getByTestId('booking-feeds-table');
    await page.getByRole('button', { name: 'Raumbuchung 1.10 jetzt abrufen' }).click();
    await page.getByTestId('toast-booking-feed-synced').waitFor();
    await expect.poll(() => table.innerText()).toContain('Aktuell');
    await screenshot(page, 'booking-feeds-list');

    await page.getByRole('button', { name: 'Buchungen von Raumbuchung 1.10 anzeigen' }).click();
    const bookings = page.getByTestId('bookings-dialog');
    await expect.poll(() => bookings.innerText()).toContain('Kundentermin Stadtwerke');
    // The cleaning slot carries the default keyword "nicht heizen": listed, but it does not heat.
    await expect(bookings.innerText()).resolves.toMatch(/Grundreinigung – nicht heizen[\s\S]*Heizt nicht/);
    await screenshot(page, 'booking-feed-bookings');
    await page.getByTestId('bookings-close').click();

    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(page.url());
    await phone.getByTestId('booking-feeds-table').waitFor();
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      375,
    );
    await screenshot(phone, 'booking-feeds-list-phone');
    await phone.close();
  });

  it("names the next booking in the room's 7-day preview", async () => {
    await expect(previewSteps()).resolves.toContain('Buchung: Kundentermin Stadtwerke');
    await screenshot(page, 'booking-unit-preview');
  });

  it('falls back to the plan and raises an alert when the calendar cannot be read', async () => {
    await page.goto(`${server.baseURL}/booking-feeds`);
    await page.getByRole('button', { name: 'Buchungskalender Raumbuchung 1.10 bearbeiten' }).click();
    await page.getByTestId('booking-feed-url').fill(`${server.baseURL}/api/public/demo/gone.ics`);
    await page.getByTestId('booking-feed-save').click();
    await page.getByText('Buchungskalender gespeichert').waitFor();
    await page.getByRole('button', { name: 'Raumbuchung 1.10 jetzt abrufen' }).click();
    await page.getByTestId('toast-booking-feed-sync-failed').waitFor();
    const feeds = page.getByTestId('booking-feeds-table');
    await expect.poll(() => feeds.innerText()).toContain('Veraltet');
    await screenshot(page, 'booking-feeds-stale');

    await expect(previewSteps()).resolves.not.toContain('Buchung:');
    // Alerts are evaluated every 5 s here: wait for the stale feed's to open, then look at it.
    await expect
      .poll(
        async () =>
          (
            (await apiAs(page, server.baseURL, 'GET', '/companies/:company/alerts/summary')) as unknown as {
              open: number;
            }
          ).open,
        { timeout: 30_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    await page.goto(`${server.baseURL}/alerts`);
    const table = page.getByTestId('alerts-table');
    await table.getByText('Buchungskalender veraltet').first().waitFor();
    await expect(table.innerText()).resolves.toContain('Raumbuchung 1.10');
    await screenshot(page, 'booking-feed-alert');
  });
});
