/**
 * The hosted registration page checks its fields itself: submitting it empty used
 * to post to the server, which answered 400 and left a console error. The browser's own
 * validation (required fields, e-mail type, minimum password length) now stops the form first.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.ts';

describe('hosted registration page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function openRegistration(): Promise<{ page: Page; errors: string[]; posts: string[] }> {
    const page = await (await browser.newContext({ locale: 'de-DE' })).newPage();
    const errors: string[] = [];
    const posts: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/register')) posts.push(request.url());
    });
    await page.goto(`${inject('baseURL')}/units`);
    await page.waitForURL(/\/auth\/interaction\//);
    await page.getByRole('link', { name: /Neues Konto/ }).click();
    await page.locator('input[name="name"]').waitFor();
    return { page, errors, posts };
  }

  const invalid = (page: Page, name: string) =>
    page.locator(`input[name="${name}"]`).evaluate((input) => !(input as HTMLInputElement).checkValidity());

  it('stops an empty form in the page: no request, no console error', async () => {
    const { page, errors, posts } = await openRegistration();
    const url = page.url();
    await page.locator('form button[type="submit"]').click();
    await page.waitForTimeout(300);
    expect(page.url()).toBe(url);
    expect(posts).toEqual([]);
    await expect(invalid(page, 'name')).resolves.toBe(true);
    await screenshot(page, 'registration-empty-de');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("says what is missing in the page's language, not the browser's", async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await page.goto(`${inject('baseURL')}/units`);
    await page.waitForURL(/\/auth\/interaction\//);
    await page.getByRole('link', { name: /Create an account/ }).click();
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.locator('input[name="email"]').fill('grace');
    await page.locator('form button[type="submit"]').click();
    const message = (name: string) =>
      page
        .locator(`input[name="${name}"]`)
        .evaluate((input) => (input as HTMLInputElement).validationMessage);
    await expect(message('name')).resolves.toBe('Bitte füllen Sie dieses Feld aus.');
    await expect(message('email')).resolves.toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    await page.locator('input[name="password"]').fill('kurz');
    await page
      .locator('input[name="password"]')
      .evaluate((input) => (input as HTMLInputElement).reportValidity());
    await expect(message('password')).resolves.toMatch(/mindestens \d+ Zeichen/);
    await screenshot(page, 'registration-german-in-english-browser');
    await page.context().close();
  });

  it('stops a malformed e-mail and a short password before they reach the server', async () => {
    const { page, errors, posts } = await openRegistration();
    await page.locator('input[name="name"]').fill('Grace Hopper');
    await page.locator('input[name="email"]').fill('grace');
    await page.locator('input[name="password"]').fill('kurz');
    await page.locator('form button[type="submit"]').click();
    await page.waitForTimeout(300);
    expect(posts).toEqual([]);
    await expect(invalid(page, 'email')).resolves.toBe(true);
    await page.locator('input[name="email"]').fill('grace@example.com');
    await expect(invalid(page, 'password')).resolves.toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
