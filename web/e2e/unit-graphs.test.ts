/**
 * Graph journey in Chromium against a server of its own that reads a broker this test
 * starts (MQTT_URL): a Micropelt valve in a unit publishes two weeks of ChirpStack uplinks with
 * the vendor's byte layout, and the unit page shows them over 48 hours and over 2 weeks. Both
 * ranges are shot to be looked at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chirpstackUplinkEvent } from '../../server/src/lorawan/chirpstack.ts';
import { getCodec } from '../../server/src/lorawan/codecs/registry.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../server/src/lorawan/embedded-broker.ts';
import { buyLicences, signUpWithCompany } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

const DEV_EUI = '70b3d52dd3000b01';
const DAY_MS = 86_400_000;
const STEP_MS = 20 * 60_000;

/** A plausible office room: warm in the day, set back at night, the valve following the gap. */
function reading(at: number) {
  const hour = new Date(at).getUTCHours();
  const day = hour >= 5 && hour < 21;
  const setpoint = day ? 21 : 17;
  const roomTemperature = Math.round((setpoint - 0.6 + Math.sin(at / 3_600_000) * 0.5) * 4) / 4;
  const valveOpening = Math.max(0, Math.min(100, Math.round((setpoint - roomTemperature) * 40)));
  return {
    roomTemperature,
    setpoint,
    valveOpening,
    supplyTemperature: day ? 52 : 38,
    battery: { value: 3, unit: 'V' as const },
    errors: [],
  };
}

describe('unit graphs', () => {
  let broker: EmbeddedBroker;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-graphs-'));

  beforeAll(async () => {
    broker = await startEmbeddedBroker({ port: 0 });
    server = await startServer({ dataDir, env: { MQTT_URL: broker.url, DEMO: '0' } });
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${server.baseURL}/units`);
    await signUpWithCompany(page, {
      baseURL: server.baseURL,
      account: { name: 'Greta Graph', email: 'greta@example.com', password: 'two weeks of readings' },
      company: 'Rathaus',
      registerLinkName: /Create an account/,
    });
    await buyLicences(page, server.baseURL, 2);
    await page.getByTestId('create-units').click();
    await page.getByTestId('create-units-mode').selectOption('one');
    await page.getByTestId('create-unit-name').fill('Sitzungssaal');
    await page.getByTestId('create-units-submit').click();
    await page.getByText('Sitzungssaal').first().waitFor();
    await page.goto(`${server.baseURL}/devices`);
    await page.getByTestId('add-device').click();
    await page.getByTestId('add-device-id').fill(DEV_EUI);
    await page.getByTestId('add-device-app-key').fill('0123456789abcdef0123456789abcdef');
    await page.getByTestId('add-device-model').selectOption('micropelt-mlr003');
    await page.getByTestId('add-device-unit').click();
    await page.getByRole('option', { name: 'Sitzungssaal' }).click();
    await page.getByTestId('add-device-submit').click();
    await page.getByTestId('toast-device-added').waitFor();

    const client = await mqtt.connectAsync(broker.url, { protocolVersion: 4, clientId: 'e2e-graphs' });
    const codec = getCodec('micropelt-mlr003');
    const now = Date.now();
    let fCnt = 0;
    for (let at = now - 14 * DAY_MS; at < now; at += STEP_MS) {
      const { bytes, fPort } = codec.encodeUplink(reading(at));
      const event = chirpstackUplinkEvent({
        applicationId: 'heizplan',
        devEui: DEV_EUI,
        fCnt: fCnt++,
        fPort,
        bytes,
        time: new Date(at),
        gatewayId: '0016c001ff10a235',
        rssi: -95,
        snr: 6,
        deduplicationId: `e2e-${fCnt}`,
      });
      await client.publishAsync(event.topic, event.payload, { qos: 1 });
    }
    await client.endAsync();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await broker?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the last 48 hours and two weeks of the room from the valve’s uplinks', async () => {
    await page.goto(`${server.baseURL}/units`);
    await page.getByText('Sitzungssaal').first().click();
    const chart = page.getByTestId('unit-graph-chart');
    await chart.locator('canvas').waitFor();
    await expect(page.getByTestId('unit-graph').innerText()).resolves.toContain('Room temperature');
    await page
      .getByTestId('unit-history')
      .screenshot({ path: path.join(import.meta.dirname, 'artifacts', 'unit-graph-48h.png') });
    await page.getByTestId('unit-graph-range-14d').click();
    await expect(page.getByTestId('unit-graph-range-14d').getAttribute('aria-pressed')).resolves.toBe('true');
    await page.waitForLoadState('networkidle');
    await chart.locator('canvas').waitFor();
    await page
      .getByTestId('unit-history')
      .screenshot({ path: path.join(import.meta.dirname, 'artifacts', 'unit-graph-14d.png') });
    await screenshot(page, 'unit-graph-page');
  });
});
