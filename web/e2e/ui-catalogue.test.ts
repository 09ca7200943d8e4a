/**
 * The widget catalogue at /dev/ui as a user sees it (issue 3): screenshots on a desktop and a
 * 375 px phone, and the behaviours a reviewer tries first — sorting a table column, a dialog
 * closed with Escape, a toast appearing, a delayed tooltip, the language switch.
 */

import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { artifactsDir, launchBrowser, screenshot } from './browser.ts';

describe('widget catalogue /dev/ui', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const SECTIONS = [
    'buttons',
    'fields',
    'combobox',
    'tooltip',
    'toast',
    'steps',
    'spinner',
    'dialog',
    'table',
  ];

  /** One PNG per widget section, to look at each widget at full resolution. */
  async function screenshotSections(page: Page, prefix: string) {
    for (const id of SECTIONS) {
      await page
        .getByTestId(`catalogue-${id}`)
        .screenshot({ path: path.join(artifactsDir, `${prefix}-${id}.png`) });
    }
  }

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport, locale: 'de-DE', reducedMotion: 'reduce' });
    await page.goto(`${inject('baseURL')}/dev/ui`);
    await page.getByTestId('catalogue-title').waitFor();
    return page;
  }

  it('renders every widget on a desktop and sorts, opens dialogs, shows toasts and tooltips', async () => {
    const page = await open({ width: 1280, height: 900 });
    await expect(page.getByTestId('catalogue-title').textContent()).resolves.toBe('Widget-Katalog');
    // the server-paged demo has loaded its first page
    await page.getByTestId('demo-table-server-row-r1').waitFor();
    await screenshot(page, 'ui-catalogue-desktop-de');
    await screenshotSections(page, 'ui-desktop');

    const nameHeader = page.getByTestId('demo-table-header-name');
    const firstName = () => page.locator('[data-testid^="demo-table-row-"] td').first().textContent();
    await page.getByTestId('demo-table-sort-name').click();
    await expect(nameHeader.getAttribute('aria-sort')).resolves.toBe('ascending');
    await page.getByTestId('demo-table-sort-name').click();
    await expect(nameHeader.getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(firstName()).resolves.toBe('Raum 42');
    await page.getByTestId('demo-table-sort-name').click();
    await expect(nameHeader.getAttribute('aria-sort')).resolves.toBeNull();
    await expect(firstName()).resolves.toBe('Raum 1');
    await page
      .getByTestId('catalogue-table')
      .screenshot({ path: path.join(artifactsDir, 'ui-desktop-table-sorted.png') });

    await page.getByTestId('demo-dialog-open').click();
    await page.getByTestId('demo-dialog').waitFor();
    await expect(page.evaluate(() => getComputedStyle(document.body).overflow)).resolves.toBe('hidden');
    await screenshot(page, 'ui-catalogue-dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('demo-dialog').waitFor({ state: 'detached' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe(
      'demo-dialog-open',
    );

    await page.getByTestId('demo-toast-success').click();
    const toast = page.getByTestId('app-toast');
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toContain('Raum angelegt');
    await page.screenshot({ path: path.join(artifactsDir, 'ui-desktop-toast-shown.png') });
    await toast.waitFor({ state: 'detached', timeout: 8000 });

    await page.getByTestId('demo-combobox-single').fill('raum1');
    const options = page.getByTestId('demo-combobox-single-listbox');
    await expect(options.getByTestId('demo-option-r1').isVisible()).resolves.toBe(true);
    await expect(options.getByTestId('demo-option-r2').count()).resolves.toBe(0);
    // the open list hangs below the section, so the picture takes the page area under it too
    const box = (await page.getByTestId('catalogue-combobox').boundingBox())!;
    const scrollY = await page.evaluate(() => window.scrollY);
    await page.screenshot({
      path: path.join(artifactsDir, 'ui-desktop-combobox-open.png'),
      fullPage: true,
      clip: { ...box, y: box.y + scrollY, height: box.height + 240 },
    });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('demo-combobox-single').inputValue()).resolves.toBe('Raum 10');

    await page.getByTestId('demo-tooltip-top-trigger').hover();
    await page.getByTestId('demo-tooltip-top').waitFor();
    await page
      .getByTestId('catalogue-tooltip')
      .screenshot({ path: path.join(artifactsDir, 'ui-desktop-tooltip-open.png') });

    await page.getByTestId('catalogue-lang-en').click();
    await expect(page.getByTestId('catalogue-title').textContent()).resolves.toBe('Widget catalogue');
    await screenshot(page, 'ui-catalogue-desktop-en');
    await page.close();
  });

  it('fits a 375 px phone without sideways scrolling, and its dialog closes on an overlay tap', async () => {
    const page = await open({ width: 375, height: 740 });
    await page.getByTestId('demo-table-server-row-r1').waitFor();
    await screenshot(page, 'ui-catalogue-phone-de');
    await screenshotSections(page, 'ui-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('demo-dialog-open').click();
    await page.getByTestId('demo-dialog').waitFor();
    await page.screenshot({ path: path.join(artifactsDir, 'ui-phone-dialog-open.png') });
    await page.getByTestId('demo-dialog-overlay').click({ position: { x: 10, y: 10 } });
    await page.getByTestId('demo-dialog').waitFor({ state: 'detached' });
    await page.close();
  });
});
