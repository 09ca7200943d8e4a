/**
 * The widget catalogue at /dev/ui is a development tool: the production build the
 * journeys run against answers it with the 404 page and ships none of its code. The catalogue
 * itself is checked in development mode by `web/src/features/dev-ui/ui-catalogue.test.tsx`.
 */

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';

describe('widget catalogue /dev/ui in a production build', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows the 404 page instead of the catalogue', async () => {
    const page = await browser.newPage({ locale: 'de-DE' });
    await page.goto(`${inject('baseURL')}/dev/ui`);
    await expect(page.getByTestId('not-found-title').textContent()).resolves.toBe('Seite nicht gefunden');
    await expect(page.getByTestId('catalogue-title').count()).resolves.toBe(0);
    await screenshot(page, 'ui-catalogue-production-404');
    await page.close();
  });

  it('ships no catalogue code in the scripts the page loads', async () => {
    const baseURL = inject('baseURL');
    const html = await (await fetch(`${baseURL}/dev/ui`)).text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const code = await (await fetch(new URL(src, baseURL))).text();
      expect(code.includes('catalogue-title'), `${src} carries the catalogue`).toBe(false);
    }
  });
});
