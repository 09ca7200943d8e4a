/**
 * /assign (spec §2): typed TR005 code, 'Device not found.', 'Unknown unit', next device, no camera;
 * the room is searched on the server, so a room beyond the first page is found by typing.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { registryApi, testDevice } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit, unitSearches } from '../../test/units-fixtures.ts';
import { cameraProblemOf } from './components/qr-scanner.tsx';

function open(api: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra: api });
  return { ...renderRoutes(routes, '/assign', { session }), fetchMock };
}

const patches = (fetchMock: ReturnType<typeof signIn>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PATCH')
    .map(([url, init]) => [url, JSON.parse(String(init?.body))]);

async function typeCode(code: string) {
  const input = await screen.findByTestId('assign-code');
  await userEvent.clear(input);
  await userEvent.type(input, code);
  await userEvent.click(screen.getByTestId('assign-lookup'));
}

describe('assign screen', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('finds a device by a typed TR005 code, assigns it to the chosen unit, and next device starts over', async () => {
    const device = testDevice({ id: '70b3d52dd3000042' });
    const unit = testUnit({ name: 'Büro 1' });
    const patch: FetchHandler = (method) =>
      method === 'PATCH' ? json(200, { ...device, unitId: unit.id, unitName: unit.name }) : undefined;
    const { fetchMock } = open(registryApi({ devices: [device], units: [unit] }, patch));
    await typeCode('LW:D0:1122334455667788:70B3D52DD3000042:AABB1122:SYYWWNNNNNN');
    expect(await screen.findByTestId('assign-device-id')).toHaveTextContent('70b3d52dd3000042');
    expect(screen.getByTestId('assign-device-unit')).toHaveTextContent('No unit');

    await userEvent.click(screen.getByTestId('assign-unit'));
    await userEvent.type(screen.getByTestId('assign-unit'), 'büro 1');
    await userEvent.click(await screen.findByTestId(`assign-unit-${unit.id}`));
    await userEvent.click(screen.getByTestId('assign-submit'));
    expect(await screen.findByTestId('assign-success')).toHaveTextContent(
      'Device 70b3d52dd3000042 is now assigned to Büro 1.',
    );
    expect(patches(fetchMock)).toEqual([[`/api/companies/c1/devices/${device.id}`, { unitId: unit.id }]]);

    await userEvent.click(screen.getByTestId('assign-next'));
    expect(screen.getByTestId('assign-code')).toHaveValue('');
    expect(screen.getByTestId('assign-code')).toHaveFocus();
    expect(screen.queryByTestId('assign-device')).toBeNull();
    expect(screen.queryByTestId('assign-success')).toBeNull();
    expect(screen.getByTestId('assign-scan-start')).toBeInTheDocument();
  });

  it('treats a new code typed after an assignment as the next device', async () => {
    const first = testDevice();
    const second = testDevice();
    const unit = testUnit();
    const patch: FetchHandler = (method) =>
      method === 'PATCH' ? json(200, { ...first, unitId: unit.id, unitName: unit.name }) : undefined;
    open(registryApi({ devices: [first, second], units: [unit] }, patch));
    await typeCode(first.id);
    await userEvent.click(await screen.findByTestId('assign-unit'));
    await userEvent.click(await screen.findByTestId(`assign-unit-${unit.id}`));
    await userEvent.click(screen.getByTestId('assign-submit'));
    await screen.findByTestId('assign-success');
    await typeCode(second.id);
    expect(await screen.findByTestId('assign-device-id')).toHaveTextContent(second.id);
    expect(screen.queryByTestId('assign-success')).toBeNull();
    expect(screen.getByTestId('assign-submit')).toBeInTheDocument();
  });

  it('names the current room before searching and finds a room beyond the first page by typing', async () => {
    // 70 rooms: one search page (50) does not hold them all.
    const rooms = Array.from({ length: 70 }, (_, i) =>
      testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }),
    );
    const current = rooms[64]!;
    const far = rooms[68]!;
    const device = testDevice({ unitId: current.id, unitName: current.name });
    const patch: FetchHandler = (method) =>
      method === 'PATCH' ? json(200, { ...device, unitId: far.id, unitName: far.name }) : undefined;
    const { fetchMock } = open(registryApi({ devices: [device], units: rooms }, patch));
    await typeCode(device.id);
    const picker = await screen.findByRole('combobox', { name: 'Unit' });
    // Named from the device itself, although the first page does not hold it.
    expect(picker).toHaveValue('Zimmer 65');
    expect(unitSearches(fetchMock)).toEqual([]);
    await userEvent.click(picker);
    expect(await screen.findByTestId('assign-unit-more')).toHaveTextContent('Showing 50 of 70 rooms');
    expect(screen.queryByRole('option', { name: 'Zimmer 69' })).toBeNull();
    await userEvent.type(picker, 'Zimmer 69');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 69' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 69');
    expect(picker).toHaveValue('Zimmer 69');
    await userEvent.click(screen.getByTestId('assign-submit'));
    expect(await screen.findByTestId('assign-success')).toHaveTextContent(
      `Device ${device.id} is now assigned to Zimmer 69.`,
    );
    expect(patches(fetchMock)).toEqual([[`/api/companies/c1/devices/${device.id}`, { unitId: far.id }]]);
  });

  it("says 'Device not found.' for a DevEUI the company has not registered", async () => {
    open(registryApi({ devices: [testDevice()] }));
    await typeCode('0011223344556677');
    expect(await screen.findByTestId('assign-not-found')).toHaveTextContent('Device not found.');
    expect(screen.queryByTestId('assign-device')).toBeNull();
  });

  it('explains a malformed code without asking the server', async () => {
    const { fetchMock } = open(registryApi({}));
    await typeCode('LW:D0:1122334455667788:70B3D52DD3000042');
    expect(await screen.findByTestId('assign-code-field-error')).toHaveTextContent(
      "The QR code is incomplete: a LoRaWAN code has at least 5 parts separated by ':'.",
    );
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/by-eui/'))).toBe(false);
  });

  it("shows 'Unknown unit' when the server does not know the chosen unit", async () => {
    const device = testDevice();
    const unit = testUnit({ name: 'Gone' });
    const patch: FetchHandler = (method) =>
      method === 'PATCH' ? problem(404, 'Not Found', 'Unknown unit') : undefined;
    open(registryApi({ devices: [device], units: [unit] }, patch));
    await typeCode(device.id);
    await userEvent.click(await screen.findByTestId('assign-unit'));
    await userEvent.click(await screen.findByTestId(`assign-unit-${unit.id}`));
    await userEvent.click(screen.getByTestId('assign-submit'));
    expect(await screen.findByTestId('assign-unit-field-error')).toHaveTextContent('Unknown unit');
  });

  it('explains a missing camera and keeps the typed input working', async () => {
    open(registryApi({}));
    // jsdom, like an insecure (non-HTTPS) page, has no navigator.mediaDevices.
    await userEvent.click(await screen.findByTestId('assign-scan-start'));
    expect(await screen.findByTestId('assign-camera-problem')).toHaveTextContent('No camera available');
    expect(screen.getByTestId('assign-code')).toBeEnabled();
  });

  it('tells a refused camera permission apart from a missing camera', () => {
    expect(cameraProblemOf(new DOMException('denied', 'NotAllowedError'))).toBe('denied');
    expect(cameraProblemOf(new DOMException('none', 'NotFoundError'))).toBe('noCamera');
    expect(cameraProblemOf(new DOMException('busy', 'NotReadableError'))).toBe('failed');
  });
});
