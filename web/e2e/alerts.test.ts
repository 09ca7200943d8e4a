/**
 * Alert centre journey in Chromium against a server of its own, reading a broker this
 * test starts, with the device simulator of tools/simulator. The admin registers a webhook (a
 * local receiver) on /alerts; a valve reports for an hour and then falls silent (its uplinks carry
 * simulated times two hours back); the alert appears in the navigation badge, on the unit's row
 * and on its page, is acknowledged with a note on /alerts, reaches the admin by mail and the
 * webhook with a valid signature, and resolves by itself when the simulator brings the valve
 * back. Screens are shot in English and German, at desktop and phone size.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../server/src/lorawan/embedded-broker.ts';
import { type Simulator, startSimulator } from '../../tools/simulator/simulator.ts';
import { apiAs, buyLicences, signUpWithCompany } from './accounts.ts';
import { expectAccessible } from './axe.ts';
import { launchBrowser, screenshot } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

const DEV_EUI = '70b3d52dd3000c01';
const EMAIL = 'alma.alarm@example.com';

interface Delivery {
  signature: string;
  body: string;
}

describe('alert centre', () => {
  let broker: EmbeddedBroker;
  let server: RunningServer;
  let simulator: Simulator;
  let browser: Browser;
  let page: Page;
  let receiver: Server;
  let receiverUrl: string;
  let unitId: string;
  let secret = '';
  const deliveries: Delivery[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-alerts-'));

  const openAlerts = async () =>
    (await apiAs(page, server.baseURL, 'GET', '/companies/:company/alerts/summary')) as unknown as {
      attention: number;
      open: number;
    };

  beforeAll(async () => {
    broker = await startEmbeddedBroker({ port: 0 });
    server = await startServer({
      dataDir,
      // The receiver is on loopback, which production refuses unless WEBHOOKS_ALLOW_PRIVATE.
      env: {
        MQTT_URL: broker.url,
        DEMO: '0',
        ALERT_EVALUATION_SECONDS: '5',
        WEBHOOKS_ALLOW_HTTP: '1',
        WEBHOOKS_ALLOW_PRIVATE: '1',
      },
    });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        deliveries.push({ signature: String(req.headers['heizplan-signature']), body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/heizplan`;

    browser = await launchBrowser();
    page = await (
      await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${server.baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL: server.baseURL,
      account: { name: 'Alma Alarm', email: EMAIL, password: 'tell me when it breaks' },
      company: 'Grundschule Am See',
      registerLinkName: /Create an account/,
    });
    await buyLicences(page, server.baseURL, 2);
    const unit = await apiAs(page, server.baseURL, 'POST', '/companies/:company/units', {
      name: 'Klasse 3b',
    });
    unitId = unit?.id as string;
    await apiAs(page, server.baseURL, 'POST', '/companies/:company/devices', {
      id: DEV_EUI,
      model: 'mclimate-vicki',
      unitId,
    });
    // Resolve as soon as the cause is gone instead of after the default 10 minutes.
    await apiAs(page, server.baseURL, 'PATCH', '/companies/:company/alert-settings', { clearMinutes: 0 });
  });
  afterAll(async () => {
    await browser?.close();
    await simulator?.close();
    await server?.stop();
    await broker?.close();
    receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers a webhook and keeps its signing secret', async () => {
    await page.goto(`${server.baseURL}/alerts?tab=webhooks`);
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await page.getByTestId('webhook-add').click();
    secret = await page.getByTestId('webhook-secret-value').innerText();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await screenshot(page, 'alerts-webhook-secret');
    await page.keyboard.press('Escape');
    await page.getByText(receiverUrl).waitFor();
  });

  it('shows the silent valve in the navigation badge, on its unit row and on the unit page', async () => {
    // An hour of readings that ended two hours ago: the valve has been silent since.
    simulator = await startSimulator({
      url: broker.url,
      applicationId: 'heizplan',
      gateways: ['0016c001ff10a235'],
      devices: [{ devEui: DEV_EUI, model: 'mclimate-vicki', roomTemperature: 19 }],
      clientId: 'e2e-alerts-simulator',
      start: new Date(Date.now() - 3 * 3_600_000),
    });
    for (let i = 0; i < 4; i++) await simulator.tick(0.25);
    await expect.poll(async () => (await openAlerts()).attention, { timeout: 30_000 }).toBe(1);
    await page.goto(`${server.baseURL}/units`);
    const badge = page.getByTestId('nav-alerts').getByTestId('alerts-badge');
    await expect(badge.innerText()).resolves.toContain('1 open alert');
    await expect(page.getByTestId(`alert-indicator-${unitId}`).getAttribute('aria-label')).resolves.toBe(
      '1 open alert',
    );
    await screenshot(page, 'alerts-units-indicator');
    await page.getByTestId(`unit-link-${unitId}`).click();
    await expect(page.getByTestId('unit-alert-banner').innerText()).resolves.toBe(
      '1 open alert for this unit',
    );
    await page.getByTestId('unit-alert-banner').click();
    await page.waitForURL(`${server.baseURL}/alerts?unitId=${unitId}`);
    await page.getByTestId('alerts-table').getByText('Device offline').waitFor();
    await expect(page.getByTestId('alerts-table').innerText()).resolves.toContain('No radio signal since');
  });

  it('is acknowledged with a note, which clears the badge but keeps the alert open', async () => {
    await page.getByRole('button', { name: 'Acknowledge alert “Device offline”' }).click();
    await page.getByTestId('alert-ack-note').fill('Batterie wird getauscht');
    await expectAccessible(page, 'acknowledge dialog');
    await page.getByTestId('alert-ack-dialog').getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByTestId('toast-alert-acknowledged').waitFor();
    await expect
      .poll(() => page.getByTestId('alerts-table').innerText())
      .toContain('Acknowledged by Alma Alarm');
    await expect(page.getByTestId('alerts-table').innerText()).resolves.toContain(
      '„Batterie wird getauscht“',
    );
    await expect.poll(() => page.getByTestId('nav-alerts').getByTestId('alerts-badge').count()).toBe(0);
    await screenshot(page, 'alerts-acknowledged');
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 812 });
    await phone.goto(`${server.baseURL}/alerts`);
    await phone.getByTestId('alerts-table').getByText('Device offline').first().waitFor();
    await screenshot(phone, 'alerts-phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The mute menu button fits beside the alert: the table does not scroll sideways either.
    const tableOverflow = await phone.evaluate(() => {
      const scroller = document.querySelector('[data-testid="alerts-table"] table')?.parentElement;
      return scroller ? scroller.scrollWidth - scroller.clientWidth : Number.NaN;
    });
    expect(tableOverflow).toBeLessThanOrEqual(0);
    await phone.close();
  });

  it('was mailed to the admin and posted, signed, to the webhook', async () => {
    await expect
      .poll(
        () => {
          const outbox = path.join(dataDir, 'outbox');
          return readdirSync(outbox)
            .map((file) => readFileSync(path.join(outbox, file), 'utf8'))
            .some((mail) => mail.includes(`To: ${EMAIL}`) && mail.includes(`${DEV_EUI}, Klasse 3b`));
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(true);
    const hooks = await apiAs(page, server.baseURL, 'GET', '/companies/:company/webhooks');
    const [hook] = (hooks as unknown as { results: { id: string }[] }).results;
    const log = () =>
      apiAs(page, server.baseURL, 'GET', `/companies/:company/webhooks/${hook?.id}/deliveries`);
    await expect
      .poll(() => deliveries.length, { timeout: 30_000, message: 'deliveries' })
      .toBeGreaterThanOrEqual(2)
      .catch(async (err: Error) => {
        throw new Error(`${err.message}; delivery log: ${JSON.stringify(await log())}`);
      });
    for (const delivery of deliveries) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(delivery.signature) ?? [];
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex'));
    }
    const types = deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['alert.opened', 'alert.acknowledged']));
  });

  it('resolves by itself when the simulator brings the valve back', async () => {
    // Two simulated hours bring the simulator's clock to now: the valve reports again.
    await simulator.tick(2);
    await expect.poll(async () => (await openAlerts()).open, { timeout: 30_000 }).toBe(0);
    await page.goto(`${server.baseURL}/alerts`);
    await page.getByTestId('alerts-state').selectOption('resolved');
    await page.getByTestId('alerts-table').getByText('Device offline').first().waitFor();
    await expect(page.getByTestId('alerts-table').innerText()).resolves.toMatch(
      /Resolved (\d|[A-Z][a-z]{2} \d)/,
    );
    await expect
      .poll(() => deliveries.some((d) => d.body.includes('"alert.resolved"')), { timeout: 30_000 })
      .toBe(true);
    await screenshot(page, 'alerts-resolved');
  });

  it('reads in German', async () => {
    await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}').value;
      await fetch('/api/me/language?lang=de', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      localStorage.setItem('heizplan.lang', 'de');
    });
    const german = await page.context().newPage();
    await german.goto(`${server.baseURL}/alerts`);
    await german.getByTestId('alerts-state').selectOption('resolved');
    await german.getByTestId('alerts-table').getByText('Gerät meldet sich nicht').first().waitFor();
    await expect(german.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Meldungen');
    await screenshot(german, 'alerts-de');
    await german.getByTestId('alerts-tab-rules').click();
    await german.getByTestId('rules-save').waitFor();
    await screenshot(german, 'alerts-rules-de');
    await german.close();
  });
});
