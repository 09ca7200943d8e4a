/**
 * A newcomer opens the demo (its own server with DEMO=1): signs in with the demo's account, gets
 * the first-run tour on the units screen in German and walks it with the keyboard — focus on
 * each step's "Weiter", Tab within the step, Enter to go on — from the table into the first room
 * (plan, 7-day preview, setpoint on its way to the valve, the occupants’ QR page) to the alerts
 * ("Meldungen").
 * After "Fertig", a reload shows the table without the tour. No CSP violation on the way. The other journeys register accounts
 * of their own with DEMO=0 and never see it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { artifactsDir, launchBrowser, recordCspViolations } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

const DEMO = { email: 'demo@heizplan.example', password: 'heizplan-demo' };

describe('first-run tour in the demo', () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let violations: string[];

  /**
   * The viewport as the newcomer sees it (the overlay covers the window, not the whole page),
   * then checked with axe as every journey's shot is (decision 0071): the step's popover too.
   */
  const shoot = async (name: string) => {
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
    await expectAccessible(page, name);
  };
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  /** Whether the focus is inside the step's popover or the element it points at. */
  const focusInStep = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return Boolean(active?.closest('[data-testid="tour"]') || active?.closest('.driver-active-element'));
    });
  const highlighted = () =>
    page.evaluate(
      () => document.querySelector('.driver-active-element')?.getAttribute('data-testid') ?? null,
    );

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-tour-'));
    server = await startServer({ dataDir, env: { DEMO: '1' } });
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    violations = await recordCspViolations(context);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts by itself when the newcomer signs in to the demo', async () => {
    await page.goto(`${server.baseURL}/units`);
    await page.waitForURL(/\/auth\/interaction\//);
    await page.locator('input[name="email"]').fill(DEMO.email);
    await page.locator('input[name="password"]').fill(DEMO.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${server.baseURL}/units`);
    const tour = page.getByTestId('tour');
    await tour.waitFor();
    await expect(tour.innerText()).resolves.toContain('Ihre Räume');
    await expect(tour.innerText()).resolves.toContain('1 von 6');
    await expect.poll(focused).toBe('tour-next');
    expect(await highlighted()).toMatch(/^units-table-row-/);
    // A table row opens nothing: it carries none of the attributes of a popup's opener (axe's
    // aria-conditional-attr), although driver.js sets them on whatever it highlights.
    await expect
      .poll(() =>
        page.evaluate(() =>
          ['aria-haspopup', 'aria-expanded', 'aria-controls'].filter((name) =>
            document.querySelector('.driver-active-element')?.hasAttribute(name),
          ),
        ),
      )
      .toEqual([]);
    await shoot('tour-1-units');
  });

  it('walks into the first room with the keyboard, step by step', async () => {
    const steps = [
      { title: 'Der Heizplan', element: 'unit-plans', shot: 'tour-2-plan' },
      { title: 'Die nächsten 7 Tage', element: 'unit-preview', shot: 'tour-3-preview' },
      { title: 'Auf dem Weg zum Ventil', element: 'unit-setpoint', shot: 'tour-4-setpoint' },
      { title: 'Die Seite für Raumnutzer', element: 'unit-qr', shot: 'tour-5-qr' },
      { title: 'Meldungen', element: 'nav-alerts', shot: 'tour-6-alerts' },
    ];
    for (const [index, step] of steps.entries()) {
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByTestId('tour').innerText(), { timeout: 15_000 })
        .toContain(step.title);
      await expect.poll(highlighted).toBe(step.element);
      await expect.poll(focused).toBe('tour-next');
      await expect(page.getByTestId('tour').innerText()).resolves.toContain(`${index + 2} von 6`);
      if (index === 0) {
        expect(page.url()).toMatch(/\/units\/[0-9a-f-]{36}$/);
        // Tab and Shift+Tab stay within the step: "Zurück", "Rundgang überspringen", × …
        const reached = new Set<string | null>();
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press('Shift+Tab');
          expect(await focusInStep()).toBe(true);
          reached.add(await focused());
        }
        expect([...reached]).toEqual(expect.arrayContaining(['tour-back', 'tour-skip', 'tour-close']));
        await page.getByTestId('tour-next').focus();
      }
      await shoot(step.shot);
    }
  });

  it('ends with "Fertig" and does not come back', async () => {
    await expect(page.getByTestId('tour-next').innerText()).resolves.toBe('Fertig');
    await page.keyboard.press('Enter');
    await page.getByTestId('tour').waitFor({ state: 'detached' });
    await page.goto(`${server.baseURL}/units`);
    await page.getByTestId('units-table').waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    expect(await page.getByTestId('tour').count()).toBe(0);
    await shoot('tour-7-after');
    // driver.js draws its overlay and places its popover within the app's CSP.
    expect(violations).toEqual([]);
  });
});
