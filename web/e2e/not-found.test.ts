import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';

describe('served app', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('renders the German 404 page for an unknown path', async () => {
    const page = await browser.newPage({ locale: 'de-DE' });
    await page.goto(`${inject('baseURL')}/gibt/es/nicht`);
    await expect(page.getByTestId('not-found-title').textContent()).resolves.toBe('Seite nicht gefunden');
    await screenshot(page, 'not-found-de');
    await page.getByTestId('not-found-back').click();
    await page.waitForURL(/\/units$/);
  });

  it('shows the navigation behind a menu on a 375 px phone', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(`${inject('baseURL')}/units`);
    await expect(page.getByTestId('nav-units').first().isVisible()).resolves.toBe(false);
    await page.getByTestId('nav-toggle').click();
    await expect(page.getByTestId('nav-units').last().isVisible()).resolves.toBe(true);
    await screenshot(page, 'shell-phone-menu');
  });

  it('answers health with db ok on the same port', async () => {
    const res = await fetch(`${inject('baseURL')}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'ok' });
  });
});
