/**
 * Device registry journey in Chromium against the real server: a new company adds a
 * unit, registers a valve on /devices (after the DevEUI check refused a short id), assigns it on
 * a 375 px phone through /assign with a typed TR005 code, gets 'Device not found.' for an
 * unknown DevEUI, sees the unit on /devices, and registers a gateway on /gateways (offline:
 * it has sent no stats yet). The QR scanner is driven by Chromium's fake camera playing a
 * video of the TR005 code. Screens are shot at desktop and phone size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buyLicences, signUpWithCompany } from './accounts.ts';
import { screenshot } from './browser.ts';
import { launchBrowserWithCamera, qrCodeVideo } from './fake-camera.ts';

const DEV_EUI = '70b3d52dd3000042';
const TR005 = `LW:D0:1122334455667788:${DEV_EUI.toUpperCase()}:AABB1122:SYYWWNNNNNN`;

describe('devices, assign and gateways', () => {
  const baseURL = inject('baseURL');
  const videoDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-camera-'));
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  /** The current screen at desktop size and again on a 375 px phone (same sign-in). */
  async function shoot(name: string, path: string) {
    await screenshot(page, `devices-${name}-desktop`);
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 812 });
    await phone.goto(`${baseURL}${path}`);
    await phone.locator('h1').first().waitFor();
    await phone.waitForLoadState('networkidle');
    await screenshot(phone, `devices-${name}-phone`);
    await phone.close();
  }

  beforeAll(async () => {
    const video = path.join(videoDir, 'tr005.y4m');
    qrCodeVideo(TR005, video);
    browser = await launchBrowserWithCamera(video);
    // Reduced motion, as every journey's context (browser.ts): checks never meet a fade.
    context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
    await page.goto(`${baseURL}/devices`);
    await signUpWithCompany(page, {
      baseURL,
      account: { name: 'Vera Ventil', email: 'vera@example.com', password: 'valves all the way down' },
      company: 'Hausverwaltung Süd',
      registerLinkName: /Create an account/,
      landing: /\/(units|devices)$/,
    });
    await buyLicences(page, baseURL, 5);
    await page.goto(`${baseURL}/units`);
    await page.getByTestId('create-units').click();
    await page.getByTestId('create-units-mode').selectOption('one');
    await page.getByTestId('create-unit-name').fill('Office 1');
    await page.getByTestId('create-units-submit').click();
    await page.getByText('Office 1').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(videoDir, { recursive: true, force: true });
  });

  it('registers a device on /devices after the DevEUI check', async () => {
    await page.goto(`${baseURL}/devices`);
    await page.getByTestId('devices-empty').waitFor();
    await shoot('empty', '/devices');
    await page.getByTestId('add-device').click();
    await page.getByTestId('add-device-id').fill('70b3d52dd30000');
    await page.getByTestId('add-device-app-key').fill('0123456789abcdef0123456789abcdef');
    await page.getByTestId('add-device-model').selectOption('mclimate-vicki');
    await page.getByTestId('add-device-submit').click();
    await expect(page.getByTestId('add-device-id-field-error').innerText()).resolves.toBe(
      'A LoRaWAN device id is its DevEUI: exactly 16 hex digits.',
    );
    await screenshot(page, 'devices-add-invalid');
    await page.getByTestId('add-device-id').fill(DEV_EUI.toUpperCase());
    await page.getByTestId('add-device-submit').click();
    await page.getByTestId('toast-device-added').waitFor();
    const row = page.getByTestId(`devices-table-row-${DEV_EUI}`);
    await expect(row.innerText()).resolves.toContain('MClimate Vicki');
    await expect(page.getByTestId(`device-last-seen-${DEV_EUI}`).innerText()).resolves.toBe('Never');
  });

  it('assigns the device on a phone with a typed TR005 code, then reports an unknown DevEUI', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${baseURL}/assign`);
    await page.getByTestId('assign-code').fill(TR005);
    await page.getByTestId('assign-lookup').click();
    await expect(page.getByTestId('assign-device-id').innerText()).resolves.toBe(DEV_EUI);
    await page.getByTestId('assign-unit').click();
    await page.getByTestId('assign-unit').fill('office');
    await page.getByRole('option', { name: 'Office 1' }).click();
    await screenshot(page, 'devices-assign-phone-found');
    await page.getByTestId('assign-submit').click();
    await expect(page.getByTestId('assign-success').innerText()).resolves.toBe(
      `Device ${DEV_EUI} is now assigned to Office 1.`,
    );
    await screenshot(page, 'devices-assign-phone-assigned');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);

    await page.getByTestId('assign-next').click();
    await expect(page.getByTestId('assign-code').inputValue()).resolves.toBe('');
    await page.getByTestId('assign-code').fill('00112233445566ff');
    await page.getByTestId('assign-lookup').click();
    await expect(page.getByTestId('assign-not-found').innerText()).resolves.toBe('Device not found.');
    await screenshot(page, 'devices-assign-phone-not-found');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot('assign', '/assign');
  });

  it('scans the same code with the phone camera and shows the device with its unit', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${baseURL}/assign`);
    await page.getByTestId('assign-scan-start').click();
    await page.getByTestId('assign-camera').waitFor();
    await expect(page.getByTestId('assign-device-id').innerText()).resolves.toBe(DEV_EUI);
    await expect(page.getByTestId('assign-code').inputValue()).resolves.toBe(TR005);
    await expect(page.getByTestId('assign-device-unit').innerText()).resolves.toBe('Office 1');
    await screenshot(page, 'devices-assign-phone-scanned');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the assignment on /devices', async () => {
    await page.goto(`${baseURL}/devices`);
    const row = page.getByTestId(`devices-table-row-${DEV_EUI}`);
    await expect(row.innerText()).resolves.toContain('Office 1');
    await shoot('list', '/devices');
  });

  it('registers a gateway on /gateways, offline until it sends stats', async () => {
    await page.goto(`${baseURL}/gateways`);
    await page.getByTestId('gateways-empty').waitFor();
    await page.getByTestId('add-gateway').click();
    await page.getByTestId('add-gateway-name').fill('Roof');
    await page.getByTestId('add-gateway-eui').fill('B827EBFFFE000001');
    await page.getByTestId('add-gateway-submit').click();
    await page.getByTestId('toast-gateway-added').waitFor();
    await expect(page.getByTestId('gateways-table').innerText()).resolves.toContain('b827ebfffe000001');
    await expect(page.getByTestId('gateways-table').innerText()).resolves.toContain('Offline');
    await shoot('gateways', '/gateways');
  });
});
