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
    // Back home means signing in first (the phone navigation is checked in onboarding.test.ts).
    await page.waitForURL(/\/auth\/interaction\//);
  });

  it('answers health with db ok on the same port', async () => {
    const res = await fetch(`${inject('baseURL')}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'ok' });
  });
});
