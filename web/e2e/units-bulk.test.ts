/**
 * Rooms list bulk edit in Chromium against the real server: a facility manager selects three
 * rooms, sets their occupant limits in German decimals and sees them in the list, then selects
 * two others and deletes them after the confirmation. At 375 px the bar of actions fits the
 * screen. Screens are shot at desktop and phone width.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAs, signUpWithCompany } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';

describe('rooms list bulk edit', () => {
  let browser: Browser;
  let page: Page;
  const baseURL = inject('baseURL');

  const checkbox = (name: string) => page.getByRole('checkbox', { name: `${name} auswählen`, exact: true });
  const row = (name: string) => page.locator('tr', { has: page.getByRole('link', { name, exact: true }) });

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL,
      account: { name: 'Frieda Facility', email: 'frieda.bulk@example.com', password: 'three hundred rooms' },
      company: 'Gesamtschule Nord',
      registerLinkName: /Neues Konto/,
    });
    await apiAs(page, baseURL, 'POST', '/companies/:company/units/bulk', { pattern: 'Raum {n}', count: 6 });
    await page.reload();
    await page.getByRole('link', { name: 'Raum 1', exact: true }).waitFor();
  });
  afterAll(() => browser?.close());

  it('sets the limits of three selected rooms and shows them in the list', async () => {
    for (const name of ['Raum 1', 'Raum 2', 'Raum 3']) await checkbox(name).check();
    const bar = page.getByRole('region', { name: 'Aktionen für die ausgewählten Räume' });
    await expect(bar.getByTestId('units-bulk-count').innerText()).resolves.toBe('3 ausgewählt');
    await screenshot(page, 'units-bulk-selected');
    await bar.getByRole('button', { name: 'Grenzen setzen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grenzen für 3 Räume' });
    await dialog.getByRole('textbox', { name: 'Minimum (°C)' }).fill('19,5');
    await dialog.getByRole('textbox', { name: 'Maximum (°C)' }).fill('22');
    await dialog.getByText('Gelesen als 19,5').waitFor();
    await screenshot(page, 'units-bulk-limits');
    await dialog.getByRole('button', { name: 'Grenzen übernehmen' }).click();
    await page.getByText('Grenzen von 3 Räumen geändert').waitFor();
    for (const name of ['Raum 1', 'Raum 2', 'Raum 3']) {
      await expect
        .poll(() => row(name).locator('[data-testid^="unit-limits-"]').innerText())
        .toBe('Grenzen 19,5–22 °C');
    }
    // A room without limits of its own shows none: the company's default applies.
    await expect(row('Raum 4').locator('[data-testid^="unit-limits-"]').count()).resolves.toBe(0);
    // Done: the selection is gone with the bar.
    await expect(bar.count()).resolves.toBe(0);
    await expect(checkbox('Raum 1').isChecked()).resolves.toBe(false);
  });

  it('fits the bar of actions on a 375 px phone', async () => {
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(`${baseURL}/units`);
    await phone.getByRole('checkbox', { name: 'Raum 5 auswählen', exact: true }).check();
    const bar = phone.getByTestId('units-bulk-bar');
    await bar.waitFor();
    const box = await bar.boundingBox();
    expect(box).toBeTruthy();
    if (box) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    for (const name of ['Grenzen setzen', 'Gruppe ändern', 'QR-Zugang', 'Löschen', 'Auswahl aufheben']) {
      const button = await bar.getByRole('button', { name }).boundingBox();
      expect(button && button.x + button.width <= 375, name).toBe(true);
    }
    await screenshot(phone, 'units-bulk-bar-phone');
    await phone.close();
  });

  it('deletes two selected rooms after the confirmation', async () => {
    await checkbox('Raum 4').check();
    await checkbox('Raum 6').check();
    await page.getByRole('button', { name: 'Löschen' }).click();
    const dialog = page.getByRole('dialog', { name: '2 Räume löschen?' });
    await expect(dialog.innerText()).resolves.toContain(
      'Die Pläne, der Heizverlauf und die QR-Codes der 2 Räume werden mit gelöscht.',
    );
    await screenshot(page, 'units-bulk-delete');
    await dialog.getByRole('button', { name: '2 Räume löschen' }).click();
    await page.getByText('2 Räume gelöscht').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Raum 4', exact: true }).count()).toBe(0);
    await expect(page.getByRole('link', { name: 'Raum 6', exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Raum 5', exact: true }).count()).resolves.toBe(1);
  });
});
