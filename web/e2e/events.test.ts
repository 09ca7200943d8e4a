/**
 * Events journey in Chromium against the real server: a member with a group of
 * three units creates a group-mode event preventing regular events for next Saturday
 * 08:00–14:00, is told inline that such an event needs an end, finds it in the list, in the
 * calendar (month and week, remembered after a reload) and as `one_time_start` on a unit's
 * 7-day preview. Screens are shot at desktop and 375 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { register, setUpCompanyInGerman, verificationLink } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';

/** Next Saturday at least a day away, as the `yyyy-MM-dd` the datetime inputs take. */
function nextSaturday(): string {
  const day = new Date(Date.now() + 86_400_000);
  while (day.getDay() !== 6) day.setDate(day.getDate() + 1);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

describe('events', () => {
  let browser: Browser;
  let page: Page;
  const baseURL = inject('baseURL');
  const saturday = nextSaturday();

  async function shoot(name: string, ready: string) {
    await screenshot(page, `events-${name}`);
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(page.url());
    await phone.getByTestId(ready).waitFor();
    await phone.waitForLoadState('networkidle');
    await screenshot(phone, `events-${name}-phone`);
    await phone.close();
  }

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
      { name: 'Erik Event', email: 'erik@example.com', password: 'warm rooms all winter' },
      /Neues Konto/,
    );
    await page.waitForURL(`${baseURL}/setup/1`);
    await page.goto(verificationLink(inject('dataDir'), 'erik@example.com'));
    await setUpCompanyInGerman(page, baseURL, 'Gemeindehaus');
    // A group "Saal" with three units.
    await page.getByTestId('nav-groups').first().click();
    await page.waitForURL(`${baseURL}/groups`);
    await page.getByTestId('group-new-name').fill('Saal');
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-members').waitFor();
    await page.getByTestId('nav-units').first().click();
    await page.getByTestId('create-units').click();
    await page.getByTestId('create-units-count').fill('3');
    await page.getByTestId('create-units-group').click();
    await page.getByTestId('create-units-group').fill('Saal');
    await page.getByTestId('create-units-group').press('Enter');
    await page.getByTestId('create-units-submit').click();
    await page.getByText('3 Räume angelegt').waitFor();
  });
  afterAll(() => browser?.close());

  it('creates a group-mode event preventing regular events, with the end required inline', async () => {
    await page.getByTestId('nav-events').first().click();
    await page.getByTestId('events-table').waitFor();
    await shoot('empty', 'events-table');
    await page.getByTestId('event-new').click();
    await page.getByTestId('event-title').fill('Konzert');
    await page.getByTestId('event-start').fill(`${saturday}T08:00`);
    await page.getByTestId('event-end').fill('');
    await page.getByTestId('event-temperature').fill('22');
    await page.getByTestId('event-group-mode').check();
    await page.getByTestId('event-groups').click();
    await page.getByTestId('event-groups').fill('Saal');
    await page.getByTestId('event-groups').press('Enter');
    await page.getByTestId('event-prevent-regular').check();
    await page.getByTestId('event-save').click();
    await expect(page.getByTestId('event-end-field-error').innerText()).resolves.toBe(
      'Wenn der Regelbetrieb ausgesetzt wird, ist ein Ende erforderlich.',
    );
    await page.getByTestId('event-prevent-reason').waitFor();
    await screenshot(page, 'events-dialog-end-required');
    await page.getByTestId('event-end').fill(`${saturday}T14:00`);
    await page.getByTestId('event-save').click();
    await page.getByText('Termin angelegt').waitFor();
    const table = page.getByTestId('events-table');
    await expect.poll(() => table.innerText()).toContain('Konzert · 22,0 °C');
    await expect(table.innerText()).resolves.toContain('Gruppen: Saal');
    await shoot('list', 'events-table');
  });

  it('shows the event in the calendar, remembered after a reload', async () => {
    await page.getByTestId('events-view-calendar').click();
    await page.getByTestId('events-calendar').getByText('Konzert · 22,0 °C').first().waitFor();
    await shoot('calendar-month', 'events-calendar');
    await page.getByRole('button', { name: 'Woche' }).click();
    // From Saturday or Sunday, next Saturday lies in the following week.
    if ([0, 6].includes(new Date().getDay())) await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByTestId('events-calendar').getByText('Konzert · 22,0 °C').first().waitFor();
    await screenshot(page, 'events-calendar-week');
    await page.reload();
    await page.getByTestId('events-calendar').waitFor();
    await expect(page.getByRole('button', { name: 'Woche' }).getAttribute('class')).resolves.toContain(
      'rbc-active',
    );
    await page.getByRole('button', { name: 'Monat' }).click();
    await page.getByTestId('events-calendar').getByText('Konzert · 22,0 °C').first().click();
    await expect(page.getByTestId('event-start').inputValue()).resolves.toBe(`${saturday}T08:00`);
    await screenshot(page, 'events-dialog-edit');
    await page.getByTestId('event-cancel').click();
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(page.url());
    await phone.getByTestId('event-new').click();
    await phone.getByTestId('event-prevent-regular').check();
    await screenshot(phone, 'events-dialog-phone');
    await phone.close();
  });

  it("puts the event on every unit's 7-day preview", async () => {
    await page.getByTestId('nav-units').first().click();
    await page.getByRole('link', { name: 'Raum 2', exact: true }).click();
    await page.getByTestId('preview-legend-one_time_start').waitFor();
    await screenshot(page, 'events-unit-preview');
  });
});
