/**
 * The main job with the keyboard alone (WCAG 2.1.1, 2.4.3, 2.4.7), in Chromium against the real
 * server: after signing in, no mouse — Tab, Shift+Tab, Enter, Space, Escape and the arrow keys
 * find a room through the rooms list's search, raise its setpoint, open it, change its heating
 * plan in the inline editor, create an event in the events screen's dialog and come back to where
 * the dialog was opened from. After each step the journey asserts which control has focus, by
 * role and accessible name as a screen reader names it, and that a control reached by Tab shows
 * its focus. The event and closure dialogs are walked
 * field by field: Tab goes on through the form (Beginn → Ende → Temperatur → … → save) and never
 * back to the dialog's "Schließen" button, which a "tab loop" once did. Each screen and dialog
 * passed is checked with axe (decision 0071).
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAs, register, setUpCompanyInGerman, verificationLink } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser } from './browser.ts';

/** What has focus, as a person debugging a failure reads it: tag, role, name or text. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'the page body (nothing focused)';
    const labelled = element.getAttribute('aria-labelledby');
    const name =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.textContent;
    const role = element.getAttribute('role') ?? (element as HTMLInputElement).type ?? '';
    return `<${element.tagName.toLowerCase()}> ${role} "${(name ?? '').trim().slice(0, 80)}"`;
  });
}

/** Whether `target` is the focused element. */
const hasFocus = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement).catch(() => false);

/** Waits until `target` has focus; fails naming what has it instead. */
async function expectFocus(page: Page, target: Locator, what: string): Promise<void> {
  try {
    await expect.poll(() => hasFocus(target)).toBe(true);
  } catch {
    throw new Error(`focus is not on ${what} but on ${await describeFocus(page)}`);
  }
}

/**
 * Fails unless the focused element shows that it has focus (WCAG 2.4.7): an outline or a ring on
 * it, or on the frame around it that draws the focus for it (a combobox's box, `focus-within`).
 */
async function expectFocusVisible(page: Page, what: string): Promise<void> {
  const shown = await page.evaluate(() => {
    const drawn = (element: Element | null) => {
      if (!element) return false;
      const style = getComputedStyle(element);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      return outline || style.boxShadow !== 'none';
    };
    const focused = document.activeElement;
    return (
      drawn(focused) ||
      drawn(focused?.parentElement ?? null) ||
      drawn(focused?.parentElement?.parentElement ?? null)
    );
  });
  if (!shown) throw new Error(`${what} has focus without showing it: ${await describeFocus(page)}`);
}

/**
 * Presses `key` (Tab, or Shift+Tab backwards) until `target` has focus, at most `limit` times:
 * how a keyboard user gets from one place to the next. Fails listing what each press reached.
 */
async function tabTo(page: Page, target: Locator, what: string, { key = 'Tab', limit = 40 } = {}) {
  const passed: string[] = [];
  for (let press = 0; press < limit; press += 1) {
    if (await hasFocus(target)) return expectFocusVisible(page, what);
    await page.keyboard.press(key);
    passed.push(await describeFocus(page));
  }
  if (await hasFocus(target)) return expectFocusVisible(page, what);
  throw new Error(`${limit} × ${key} did not reach ${what}; focus went:\n  ${passed.join('\n  ')}`);
}

/**
 * Presses Tab until focus leaves the focused element — a date and time field takes one Tab per
 * part (day, month, year, hour, minute) — and expects it on `target` next.
 */
async function tabNext(page: Page, target: Locator, what: string, key = 'Tab') {
  const from = await page.evaluateHandle(() => document.activeElement);
  for (let press = 0; press < 8; press += 1) {
    await page.keyboard.press(key);
    if (!(await from.evaluate((element) => element === document.activeElement))) break;
  }
  await from.dispose();
  if (!(await hasFocus(target)))
    throw new Error(`the next control after ${key} is not ${what} but ${await describeFocus(page)}`);
  await expectFocusVisible(page, what);
}

describe('the main job by keyboard alone', () => {
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
      { name: 'Tilda Tastatur', email: 'tilda@example.com', password: 'warm rooms all winter' },
      /Neues Konto/,
    );
    await page.waitForURL(`${baseURL}/setup/1`);
    await page.goto(verificationLink(inject('dataDir'), 'tilda@example.com'));
    await setUpCompanyInGerman(page, baseURL, 'Volkshochschule');
    await apiAs(page, baseURL, 'POST', '/companies/:company/units/bulk', {
      pattern: 'Kursraum {n}',
      count: 12,
    });
    // From here on only the keyboard: the rooms list, opened as a bookmark would open it.
    await page.goto(`${baseURL}/units`);
    await page.getByRole('link', { name: 'Kursraum 1', exact: true }).waitFor();
  });
  afterAll(() => browser?.close());

  it('finds a room with the search and raises its setpoint', async () => {
    await expectAccessible(page, 'rooms list');
    // The first Tab reaches the skip link; Enter moves on to the screen's content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Zum Inhalt springen' });
    await expectFocus(page, skip, 'the skip link');
    await page.keyboard.press('Enter');
    await expectFocus(page, page.getByRole('main'), 'the main region');

    const search = page.getByRole('searchbox', { name: 'Suche' });
    await tabTo(page, search, 'the rooms search');
    await page.keyboard.type('Kursraum 7');
    const rows = page.getByTestId('units-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await expectFocus(page, search, 'the rooms search, still, while the list narrows');

    const raise = page.getByRole('button', { name: 'Solltemperatur von Kursraum 7 um 0,5 °C erhöhen' });
    await tabTo(page, raise, 'the + of Kursraum 7');
    const setpoint = rows.first().locator('[data-testid^="unit-setpoint-"]');
    const before = await setpoint.innerText();
    await page.keyboard.press('Enter');
    await expect.poll(() => setpoint.innerText()).not.toBe(before);
    // − sits just before +: Shift+Tab, Space lowers it back by the same half degree.
    await page.keyboard.press('Shift+Tab');
    await expectFocus(
      page,
      page.getByRole('button', { name: 'Solltemperatur von Kursraum 7 um 0,5 °C senken' }),
      'the − of Kursraum 7',
    );
    await page.keyboard.press('Space');
    await expect.poll(() => setpoint.innerText()).toBe(before);
    await page.keyboard.press('Tab');
    await expectFocus(page, raise, 'the + of Kursraum 7 again');
    await expectAccessible(page, 'rooms list, searched');
  });

  it('opens the room and changes its heating plan in the inline editor', async () => {
    const room = page.getByRole('link', { name: 'Kursraum 7', exact: true });
    await tabTo(page, room, 'the link to Kursraum 7', { key: 'Shift+Tab' });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Kursraum 7' }).waitFor();
    await expectAccessible(page, 'room page');

    const addPlan = page.getByRole('button', { name: 'Saisonplan hinzufügen' });
    await tabTo(page, addPlan, '"Saisonplan hinzufügen"', { limit: 80 });
    await page.keyboard.press('Enter');
    // The editor opens with focus on its title, so a screen reader says where it is.
    await expectFocus(page, page.getByRole('heading', { name: 'Neuer Plan' }), 'the editor title');
    const name = page.getByRole('textbox', { name: 'Name des Plans' });
    await tabNext(page, name, 'the plan name');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Kurszeiten');
    // The first switch point's temperature, half a degree up with the arrow key.
    const temperature = page.getByRole('spinbutton', { name: 'Temperatur' }).first();
    await tabTo(page, temperature, 'the first switch point temperature');
    const was = Number(await temperature.inputValue());
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => Number(await temperature.inputValue())).toBe(was + 0.5);
    await expectAccessible(page, 'inline plan editor');

    await tabTo(page, page.getByRole('button', { name: 'Plan speichern' }), '"Plan speichern"', {
      limit: 80,
    });
    await page.keyboard.press('Enter');
    await page.getByText('Plan gespeichert').first().waitFor();
    await expect.poll(() => page.getByTestId('plans-list').innerText()).toContain('Kurszeiten');
    // Closed, the editor gives focus back to the button that opened it.
    await expectFocus(page, addPlan, '"Saisonplan hinzufügen" after saving');
  });

  it('creates an event in the dialog, Tab going through the form in order, and comes back', async () => {
    const events = page.getByRole('navigation').getByRole('link', { name: 'Termine' });
    await tabTo(page, events, 'the navigation link "Termine"', { key: 'Shift+Tab', limit: 120 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Termine' }).waitFor();
    await page.getByTestId('events-table').waitFor();
    await expectAccessible(page, 'events screen');

    const create = page.getByRole('button', { name: 'Neuer Termin' });
    await tabTo(page, create, '"Neuer Termin"');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Neuer Termin' });
    await dialog.waitFor();
    // Opened, the dialog's first field has focus, not its "Schließen" in the corner.
    await expectFocus(page, dialog.getByRole('textbox', { name: 'Titel (optional)' }), 'the title');
    await page.keyboard.type('Elternabend');
    await expectAccessible(page, 'event dialog');

    await tabNext(page, dialog.getByLabel('Beginn'), 'Beginn');
    await tabNext(page, dialog.getByLabel('Ende', { exact: true }), 'Ende');
    await tabNext(page, dialog.getByRole('spinbutton', { name: 'Temperatur (°C)' }), 'Temperatur');
    await page.keyboard.press('ArrowUp');
    await expect(dialog.getByRole('spinbutton', { name: 'Temperatur (°C)' }).inputValue()).resolves.toBe(
      '21.5',
    );
    await tabNext(page, dialog.getByRole('checkbox', { name: 'Gruppenmodus' }), 'Gruppenmodus');
    const rooms = dialog.getByRole('combobox', { name: 'Räume' });
    await tabNext(page, rooms, 'Räume');
    await page.keyboard.type('Kursraum 7');
    await dialog.getByRole('option', { name: 'Kursraum 7' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog.getByTestId(/^event-units-chip-/).waitFor();
    // Escape closes the room list only; the dialog stays open with focus in the field.
    await page.keyboard.press('Escape');
    await expect.poll(() => rooms.getAttribute('aria-expanded')).toBe('false');
    await expectFocus(page, rooms, 'Räume after Escape');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await tabNext(page, dialog.getByRole('checkbox', { name: 'Regelbetrieb aussetzen' }), 'Regelbetrieb');
    await tabNext(page, dialog.getByRole('textbox', { name: 'Notiz (optional)' }), 'Notiz');
    await tabNext(page, dialog.getByRole('button', { name: 'Abbrechen' }), 'Abbrechen');
    const save = dialog.getByRole('button', { name: 'Termin anlegen' });
    await tabNext(page, save, 'Termin anlegen');
    // Past the last control Tab wraps to "Schließen" and on to the title: the focus stays inside.
    await tabNext(page, dialog.getByRole('button', { name: 'Schließen' }), 'Schließen');
    await page.keyboard.press('Shift+Tab');
    await expectFocus(page, save, 'Termin anlegen, back with Shift+Tab');

    await page.keyboard.press('Enter');
    await page.getByText('Termin angelegt').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expectFocus(page, create, '"Neuer Termin" after the dialog closed');
    await expect.poll(() => page.getByTestId('events-table').innerText()).toContain('Elternabend');
    await expectAccessible(page, 'events screen with the new event');
  });

  it('walks the closure dialog in order and leaves it with Escape', async () => {
    const closures = page.getByRole('navigation').getByRole('link', { name: 'Schließzeiten' });
    await tabTo(page, closures, 'the navigation link "Schließzeiten"', { key: 'Shift+Tab', limit: 120 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Schließzeiten' }).waitFor();
    const create = page.getByRole('button', { name: 'Neue Schließzeit' });
    await tabTo(page, create, '"Neue Schließzeit"');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Neue Schließzeit' });
    await dialog.waitFor();
    await expectFocus(page, dialog.getByRole('textbox', { name: 'Name' }), 'the closure name');
    await expectAccessible(page, 'closure dialog');
    await tabNext(page, dialog.getByLabel('Beginn'), 'Beginn');
    await tabNext(page, dialog.getByLabel('Ende', { exact: true }), 'Ende');
    await tabNext(page, dialog.getByRole('combobox', { name: 'Wiederholung' }), 'Wiederholung');
    await tabNext(page, dialog.getByRole('combobox', { name: 'Betriebsart' }), 'Betriebsart');
    // On to the end of the form without ever landing on "Schließen" before the footer.
    const close = dialog.getByRole('button', { name: 'Schließen' });
    const cancel = dialog.getByRole('button', { name: 'Abbrechen' });
    for (let press = 0; press < 40 && !(await hasFocus(cancel)); press += 1) {
      await page.keyboard.press('Tab');
      if (await hasFocus(close)) throw new Error('Tab went back to "Schließen" before the end of the form');
    }
    await expectFocus(page, cancel, 'Abbrechen at the end of the form');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocus(page, create, '"Neue Schließzeit" after Escape');
  });
});
