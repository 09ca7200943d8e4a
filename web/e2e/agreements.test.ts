/**
 * Agreement versions (spec §4 "Terms must be accepted again when a version
 * changes"): after the operator bumps the licence version and restarts, every member of the
 * company is sent back to setup step 3, and accepting once for the company lets both in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptAgreements, register } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

/**
 * Opens `url` in a page that was open while the server restarted. The app may reload that page by
 * itself when its requests come back (recovering its chunks), which interrupts this navigation;
 * then the page's own load is awaited instead — the caller asserts where it ends up.
 */
async function openAfterRestart(page: Page, url: string) {
  try {
    await page.goto(url);
  } catch (err) {
    if (!String(err).includes('interrupted by another navigation')) throw err;
    await page.waitForLoadState();
  }
}

describe('bumped licence version', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-agreements-'));
  let port: number;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    port = await freePort();
    server = await startServer({ dataDir, port });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function onboard(name: string, email: string, join?: string): Promise<Page> {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await page.goto(`${server.baseURL}/units`);
    await register(page, { name, email, password: 'a long enough secret' }, /Create an account/);
    await page.waitForURL(`${server.baseURL}/setup/1`);
    await page.getByTestId('setup-next').click();
    await page.waitForURL(`${server.baseURL}/setup/2`);
    if (join) {
      await page.getByTestId('setup-mode-join').click();
      await page.getByTestId('setup-invite-code').fill(join);
    } else {
      await page.getByTestId('setup-company-name').fill('Wohnbau Nord');
    }
    await page.getByTestId('setup-next').click();
    if (!join) {
      await page.waitForURL(`${server.baseURL}/setup/3`);
      await acceptAgreements(page);
    }
    await page.waitForURL(`${server.baseURL}/units`);
    return page;
  }

  it('sends both members back to step 3 until the new version is accepted', async () => {
    const admin = await onboard('Ada Admin', 'ada@example.com');
    const { token, companyId } = await admin.evaluate(() => ({
      token: (JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}') as { value?: string }).value,
      companyId: localStorage.getItem('heizplan.companyId'),
    }));
    const invite = (await (
      await fetch(`${server.baseURL}/api/invite/?company_id=${companyId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { id: string };
    const member = await onboard('Max Member', 'max@example.com', invite.id);

    await server.stop();
    server = await startServer({ dataDir, port, env: { AGREEMENT_VERSION_LICENSE: '2' } });

    await openAfterRestart(member, `${server.baseURL}/units`);
    await member.waitForURL(`${server.baseURL}/setup/3`);
    await openAfterRestart(admin, `${server.baseURL}/devices`);
    await admin.waitForURL(`${server.baseURL}/setup/3`);
    await screenshot(admin, 'agreements-bumped-step-3');
    await acceptAgreements(admin);
    await admin.waitForURL(`${server.baseURL}/units`);

    // Accepted for the company: the member gets in too.
    await member.goto(`${server.baseURL}/units`);
    await member.getByRole('heading', { name: 'Units' }).first().waitFor();
    expect(member.url()).toBe(`${server.baseURL}/units`);
    // Two server starts on PGlite dominate this journey's time.
  }, 240_000);
});
