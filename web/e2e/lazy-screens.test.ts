/**
 * Screens are chunks loaded on navigation (spec §8 "A failed screen-chunk load raises a preload
 * error event"): the gateways screen's chunk is fetched only when the screen is first opened;
 * when it cannot be fetched, the page reloads once into /gateways and then shows the error
 * screen with a retry instead of a blank page; the retry loads the screen once the chunk is
 * reachable again. Both failures reach the server's error log (no Sentry DSN configured). No CSP
 * violation on the way.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpWithCompany } from './accounts.ts';
import { launchBrowser, recordCspViolations, screenshot } from './browser.ts';

const GATEWAYS_CHUNK = /\/assets\/gateways-page-[\w-]+\.js$/;

describe('lazy screens', () => {
  const baseURL = inject('baseURL');
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('loads a screen on navigation, reloads once when its chunk fails, then offers a retry', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 800 } });
    const violations = await recordCspViolations(context);
    const page = await context.newPage();
    const scripts: string[] = [];
    const reports: { kind: string; message: string; path: string }[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      if (request.url().endsWith('/api/public/client-errors')) reports.push(request.postDataJSON());
    });
    await page.goto(`${baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL,
      account: { name: 'Lena Lazy', email: 'lazy@example.com', password: 'chunks on demand' },
      company: 'Lazy GmbH',
      registerLinkName: /Create an account/,
    });
    await page.getByTestId('units-empty').waitFor();
    expect(scripts.some((script) => GATEWAYS_CHUNK.test(script))).toBe(false);

    // The chunk cannot be fetched (a deploy removed it, or the connection dropped).
    await page.route(GATEWAYS_CHUNK, (route) => route.abort());
    const reloaded = page.waitForEvent('load');
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.locator('#nav-desktop').getByTestId('nav-gateways').click();
    await reloaded;
    expect(page.url()).toBe(`${baseURL}/gateways`);
    const error = page.getByTestId('chunk-error');
    await error.waitFor();
    expect(await error.getByRole('heading').textContent()).toBe('The page could not be loaded');
    // Still inside the shell, and no second reload: the mark in sessionStorage stopped it.
    await expect(page.locator('#nav-desktop').getByTestId('nav-units').isVisible()).resolves.toBe(true);
    expect(loads).toBe(1);
    // Reported before the reload and again after it (lib/error-reporting.ts, keepalive).
    expect(reports.map(({ kind, path }) => ({ kind, path }))).toEqual([
      { kind: 'chunk', path: '/gateways' },
      { kind: 'chunk', path: '/gateways' },
    ]);
    expect(reports[0]?.message).toMatch(/gateways-page-/);
    await screenshot(page, 'chunk-error-en');

    await page.unroute(GATEWAYS_CHUNK);
    await page.getByTestId('error-retry').click();
    await page.getByTestId('gateways-empty').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('heizplan.chunkReload'))).toBeNull();
    expect(scripts.some((script) => GATEWAYS_CHUNK.test(script))).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });
});
