/**
 * With SENTRY_DSN set (spec §8, §9), the browser reports through Sentry's SDK: the server hands
 * the DSN to the page at run time, the page's CSP lets it reach Sentry's host, and an uncaught
 * error arrives there as an envelope — here at a local stand-in of Sentry's ingestion endpoint.
 * Nothing goes to the server's fallback endpoint meanwhile.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithCompany } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser, recordCspViolations } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

describe('error reporting to Sentry', () => {
  let sentry: Server;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  const envelopes: { path: string; body: string }[] = [];

  beforeAll(async () => {
    sentry = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        envelopes.push({ path: request.url ?? '', body });
        response.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}');
      });
    });
    sentry.listen(0, '127.0.0.1');
    await once(sentry, 'listening');
    const { port } = sentry.address() as AddressInfo;
    dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-sentry-'));
    server = await startServer({ dataDir, env: { SENTRY_DSN: `http://publickey@127.0.0.1:${port}/1` } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    sentry?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends the page's uncaught error to Sentry's host, allowed by the CSP", async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const violations = await recordCspViolations(context);
    const page = await context.newPage();
    const fallback: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/public/client-errors')) fallback.push(request.url());
    });
    await page.goto(`${server.baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL: server.baseURL,
      account: { name: 'Sentry Sam', email: 'sentry@example.com', password: 'errors go out' },
      company: 'Sentry GmbH',
      registerLinkName: /Create an account/,
    });
    await page.getByTestId('units-empty').waitFor();
    // axe is evaluated through DevTools, not as a script: the check below adds no CSP violation.
    await expectAccessible(page, 'empty rooms list in English');
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('journey boom');
      });
    });
    await expect
      .poll(() => envelopes.filter(({ body }) => body.includes('journey boom')).length, { timeout: 20_000 })
      .toBe(1);
    const envelope = envelopes.find(({ body }) => body.includes('journey boom'));
    expect(envelope?.path).toMatch(/^\/api\/1\/envelope\/\?.*sentry_key=publickey/);
    expect(envelope?.body).toContain('"environment":"production"');
    expect(fallback).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
});
