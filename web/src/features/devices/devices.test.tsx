/**
 * Devices screen (registry, spec §5): validation messages, server field errors, last signal,
 * delete; its room pickers (filter, add, change) search the server, so rooms beyond the first
 * page are found by typing and a device's room is named before any search.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { formatExact, formatRelative } from '../../components/relative-time.tsx';
import { fixedClock } from '../../test/clock.ts';
import { registryApi, testDevice } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit, unitSearches } from '../../test/units-fixtures.ts';

/** 70 rooms: one search page (50) does not hold them all. */
const manyRooms = () =>
  Array.from({ length: 70 }, (_, i) => testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }));

/** An active subscription with every one of its 5 licences in use. */
const ACTIVE_BILLING = {
  provider: 'manual',
  status: 'active',
  interval: 'yearly',
  nextInterval: null,
  licences: 5,
  usableLicences: 5,
  usedLicences: 5,
  unitCount: 5,
  deviceCount: 5,
  paymentMethod: 'immediate',
  currentPeriodEnd: '2027-11-23T10:00:00.000Z',
  cancelAtPeriodEnd: false,
  prices: { currency: 'EUR', perLicence: { monthly: 490, yearly: 4900, '3yearly': 12900 } },
  netTotal: 24500,
};

/** The screens' clock: last signals are shown relative to it. */
const NOW = new Date('2026-11-24T09:00:00Z');

function open(path: string, api: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra: api });
  return { ...renderRoutes(routes, path, { session, clock: fixedClock(NOW) }), fetchMock };
}

describe('formatRelative', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('words the time since an instant in the largest whole unit, in the UI language', () => {
    expect(formatRelative('2026-11-22T11:55:00Z', now, 'de')).toBe('vor 5 Min.');
    expect(formatRelative('2026-11-22T11:55:00Z', now, 'en')).toBe('5 min. ago');
    expect(formatRelative('2026-11-22T11:59:20Z', now, 'en')).toBe('40 sec. ago');
    // Just now, or a moment after the page's clock last ticked: never "in 0 sec.".
    expect(formatRelative('2026-11-22T12:00:00Z', now, 'de')).toBe('jetzt');
    expect(formatRelative('2026-11-22T12:00:12Z', now, 'en')).toBe('now');
    expect(formatRelative('2026-11-22T09:00:00Z', now, 'de')).toBe('vor 3 Std.');
    expect(formatRelative('2026-11-19T12:00:00Z', now, 'en')).toBe('3 days ago');
  });
});

describe('devices screen', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the last signal relative to now and the exact time in a tooltip; never-seen devices say so', async () => {
    const fiveMinutesAgo = new Date(NOW.getTime() - 5 * 60_000 - 5_000).toISOString();
    const heard = testDevice({ lastSeen: fiveMinutesAgo, battery: { value: 3.6, unit: 'V' } });
    const silent = testDevice();
    open('/devices', registryApi({ devices: [heard, silent] }));
    const lastSignal = await screen.findByTestId(`device-last-seen-${heard.id}`);
    expect(lastSignal).toHaveTextContent('5 min. ago');
    expect(screen.getByTestId(`device-last-seen-${silent.id}`)).toHaveTextContent('Never');
    expect(
      within(screen.getByTestId(`devices-table-row-${heard.id}`)).getByText('3.6 V'),
    ).toBeInTheDocument();
    await userEvent.hover(lastSignal);
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(
      formatExact(fiveMinutesAgo, 'en'),
    );
  });

  it("tells each valve's firmware and the frost protection it keeps by itself", async () => {
    const holding = testDevice({
      firmware: '4.3',
      antiFreeze: { activation: 7, deactivation: 10, target: 8 },
      antiFreezeSupport: 'supported',
    });
    const settingUp = testDevice({ firmware: '4.3', antiFreezeSupport: 'supported' });
    const old = testDevice({ firmware: '4.2', antiFreezeSupport: 'firmware_too_old' });
    const asking = testDevice();
    const sensor = testDevice({ model: 'elsys-ers', antiFreezeSupport: 'none' });
    open('/devices', registryApi({ devices: [holding, settingUp, old, asking, sensor] }));
    const settings = async (device: { id: string }) =>
      screen.findByTestId(`device-own-settings-${device.id}`);
    expect(await settings(holding)).toHaveTextContent(
      'Firmware 4.3On-device frost protection: 8.0 °C below 7.0 °C',
    );
    expect(await settings(settingUp)).toHaveTextContent('Setting up on-device frost protection');
    expect(await settings(old)).toHaveTextContent(
      'Firmware 4.2Firmware too old for on-device frost protection',
    );
    expect(await settings(asking)).toHaveTextContent('Asking for the firmware');
    expect(screen.queryByTestId(`device-own-settings-${sensor.id}`)).toBeNull();
    await userEvent.hover(screen.getByText('On-device frost protection: 8.0 °C below 7.0 °C'));
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(
      'below a room temperature of 7.0 °C it heats to 8.0 °C until the room is above 10.0 °C',
    );
  });

  it("tells each valve's profile state, airtime against the budget, and a keep-alive that would not fit", async () => {
    const synced = testDevice({
      firmware: '4.3',
      antiFreezeSupport: 'supported',
      config: {
        status: 'in_sync',
        profileName: 'Schule',
        differs: [],
        reason: null,
        recalibrating: false,
        canRecalibrate: true,
      },
      airtime: {
        spreadingFactor: 7,
        uplinkPerDayS: 8.2,
        downlinkTodayS: 0.1,
        budgetS: 30,
        keepAliveOverBudget: null,
      },
    });
    const far = testDevice({
      firmware: '4.3',
      antiFreezeSupport: 'supported',
      config: {
        status: 'differs',
        profileName: 'Schule',
        differs: ['keepAliveMinutes'],
        reason: 'budget',
        recalibrating: false,
        canRecalibrate: true,
      },
      airtime: {
        spreadingFactor: 12,
        uplinkPerDayS: 142.3,
        downlinkTodayS: 4.5,
        budgetS: 30,
        keepAliveOverBudget: { desired: 15, fits: 72 },
      },
    });
    open('/devices', registryApi({ devices: [synced, far] }));
    expect(await screen.findByTestId(`device-config-${synced.id}`)).toHaveTextContent(
      'Profile ‘Schule’: in sync',
    );
    expect(screen.getByTestId(`device-own-settings-${synced.id}`)).toHaveTextContent(
      'SF7 · airtime 8.3 s of 30 s a day',
    );
    expect(screen.getByTestId(`device-config-${far.id}`)).toHaveTextContent(
      "Profile ‘Schule’: differs (today's airtime is used up)",
    );
    expect(screen.getByTestId(`device-airtime-warning-${far.id}`)).toHaveTextContent(
      'Reporting every 15 min exceeds the airtime budget; 72 min or more fits',
    );
    await userEvent.hover(screen.getByTestId(`device-config-${far.id}`));
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(
      'Not yet as in the profile: reporting interval',
    );
  });

  it('shows read-only members the devices with their profile state, without recalibrate, import or delete', async () => {
    const [vicki, other] = [testDevice(), testDevice()];
    open(
      '/devices',
      registryApi({ devices: [vicki, other] }, (method, url) =>
        method === 'GET' && url.split('?')[0] === '/api/companies/c1/'
          ? json(200, testCompany({ role: 'ems' }))
          : undefined,
      ),
    );
    expect(await screen.findByTestId(`devices-table-row-${vicki.id}`)).toBeInTheDocument();
    expect(screen.getByTestId('devices-profiles')).toBeInTheDocument();
    for (const testid of [
      `device-recalibrate-${vicki.id}`,
      `device-delete-${vicki.id}`,
      'devices-recalibrate-page',
      'devices-import',
      'add-device',
    ]) {
      expect(screen.queryByTestId(testid)).toBeNull();
    }
  });

  it('asks for a motor recalibration of one valve, and of the valves on the page, after a confirmation', async () => {
    const vicki = testDevice();
    const other = testDevice();
    const sensor = testDevice({
      model: 'elsys-ers',
      config: {
        status: 'none',
        profileName: null,
        differs: [],
        reason: null,
        recalibrating: false,
        canRecalibrate: false,
      },
    });
    const { fetchMock } = open(
      '/devices',
      registryApi({ devices: [vicki, other, sensor] }, (method, url, init) =>
        method === 'POST' && url === '/api/companies/c1/devices/recalibrate'
          ? json(200, { requested: JSON.parse(String(init.body)).deviceIds.length, unsupported: [] })
          : undefined,
      ),
    );
    expect(await screen.findByTestId(`device-recalibrate-${vicki.id}`)).toHaveTextContent('Recalibrate');
    expect(screen.queryByTestId(`device-recalibrate-${sensor.id}`)).toBeNull();
    await userEvent.click(screen.getByTestId(`device-recalibrate-${vicki.id}`));
    await userEvent.click(await screen.findByTestId(`device-recalibrate-${vicki.id}-confirm-confirm`));
    expect(await screen.findByTestId('toast-recalibrate')).toHaveTextContent(
      'Recalibration requested for 1 valve',
    );
    await userEvent.click(screen.getByTestId('devices-recalibrate-page'));
    await userEvent.click(await screen.findByTestId('devices-recalibrate-page-confirm-confirm'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls
          .filter(([url]) => String(url) === '/api/companies/c1/devices/recalibrate')
          .map(([, init]) => JSON.parse(String((init as RequestInit).body))),
      ).toEqual([{ deviceIds: [vicki.id] }, { deviceIds: [vicki.id, other.id] }]),
    );
  });

  it('shows how fast each battery falls and the days left until it is low', async () => {
    const draining = testDevice({
      battery: { value: 40, unit: '%' },
      batteryTrend: { perWeek: -7, daysLeft: 20 },
    });
    const steady = testDevice({
      battery: { value: 3.4, unit: 'V' },
      batteryTrend: { perWeek: 0, daysLeft: null },
    });
    const fresh = testDevice({ battery: { value: 3.6, unit: 'V' }, batteryTrend: null });
    open('/devices', registryApi({ devices: [draining, steady, fresh] }));
    expect(await screen.findByTestId(`device-battery-trend-${draining.id}`)).toHaveTextContent(
      '-7 %/week~20 days left',
    );
    expect(screen.getByTestId(`device-battery-trend-${steady.id}`)).toHaveTextContent('steady');
    expect(screen.queryByTestId(`device-battery-trend-${fresh.id}`)).toBeNull();
  });

  it('exports the filtered devices as an Excel workbook in the UI language', async () => {
    const valve = testDevice({ id: '70b3d52dd3000001' });
    const { fetchMock } = open(
      '/devices',
      registryApi({ devices: [valve] }, (_method, url) =>
        url.startsWith('/api/companies/c1/devices/export')
          ? new Response('DevEUI;Modell\n', { status: 200, headers: { 'content-type': 'text/csv' } })
          : undefined,
      ),
    );
    await screen.findByText('70b3d52dd3000001');
    await userEvent.selectOptions(screen.getByTestId('devices-model-filter'), 'mclimate-vicki');
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:devices');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    await userEvent.click(screen.getByTestId('devices-export-xlsx'));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const asked = fetchMock.mock.calls
      .map(([url]) => String(url))
      .find((url) => url.includes('/devices/export'));
    const query = new URL(asked ?? '', 'http://app').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ model: 'mclimate-vicki', format: 'xlsx', lang: 'en' });
    expect(query.has('page')).toBe(false);
  });

  it('shows an invitation when the company has no devices', async () => {
    open('/devices', registryApi({}));
    expect(await screen.findByTestId('devices-empty')).toHaveTextContent('No devices yet');
  });

  it('checks DevEUI, AppKey, JoinEUI and type before sending, with the spec §5 messages', async () => {
    const { fetchMock } = open('/devices', registryApi({}));
    await userEvent.click(await screen.findByTestId('add-device'));
    await userEvent.click(screen.getByTestId('add-device-submit'));
    expect(await screen.findByTestId('add-device-id-field-error')).toHaveTextContent(
      'The device id is required.',
    );
    expect(await screen.findByTestId('add-device-app-key-field-error')).toHaveTextContent(
      'The AppKey is required.',
    );
    expect(await screen.findByTestId('add-device-model-field-error')).toHaveTextContent(
      'Choose the device type.',
    );

    await userEvent.type(screen.getByTestId('add-device-id'), '70B3D52DD300000');
    await userEvent.type(screen.getByTestId('add-device-app-key'), '0123456789abcdef');
    await userEvent.type(screen.getByTestId('add-device-join-eui'), 'xyz');
    expect(await screen.findByTestId('add-device-id-field-error')).toHaveTextContent(
      'A LoRaWAN device id is its DevEUI: exactly 16 hex digits.',
    );
    expect(await screen.findByTestId('add-device-app-key-field-error')).toHaveTextContent(
      'The AppKey of a LoRaWAN device has exactly 32 hex digits.',
    );
    expect(await screen.findByTestId('add-device-join-eui-field-error')).toHaveTextContent(
      'The JoinEUI has exactly 16 hex digits.',
    );
    // The contract's limit is the field's maxLength: a 17th character is not taken.
    expect(screen.getByTestId('add-device-id')).toHaveAttribute('maxlength', '16');
    await userEvent.type(screen.getByTestId('add-device-id'), '01234');
    expect(screen.getByTestId('add-device-id')).toHaveValue('70B3D52DD3000000');
    expect(screen.queryByTestId('add-device-id-field-error')).toBeNull();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('sends a valid device as typed and says under its field that the server refused it', async () => {
    const unit = testUnit({ name: 'Büro' });
    const post: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/devices'
        ? problem(400, 'Bad Request', 'Server says no', [{ field: 'body.appKey', message: 'Server says no' }])
        : undefined;
    const { fetchMock } = open('/devices', registryApi({ units: [unit] }, post));
    await userEvent.click(await screen.findByTestId('add-device'));
    await userEvent.type(screen.getByTestId('add-device-id'), '70B3D52DD3000001');
    await userEvent.type(screen.getByTestId('add-device-app-key'), '0123456789abcdef0123456789ABCDEF');
    await userEvent.selectOptions(screen.getByTestId('add-device-model'), 'milesight-wt101');
    await userEvent.click(screen.getByTestId('add-device-unit'));
    await userEvent.click(await screen.findByTestId(`add-device-unit-${unit.id}`));
    await userEvent.click(screen.getByTestId('add-device-submit'));
    // A field error without a code the web knows reads as a generic sentence, never the server's English.
    const fieldError = await screen.findByTestId('add-device-app-key-field-error');
    expect(fieldError).toHaveTextContent('This value was not accepted.');
    expect(fieldError).not.toHaveTextContent('Server says no');
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST') ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      id: '70B3D52DD3000001',
      protocol: 'lorawan',
      model: 'milesight-wt101',
      appKey: '0123456789abcdef0123456789ABCDEF',
      unitId: unit.id,
    });
  });

  it('adds a device to a room beyond the first page found by typing, or to no room after all', async () => {
    const rooms = manyRooms();
    const far = rooms[66]!;
    const post: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/devices'
        ? json(201, testDevice({ id: '70b3d52dd3000001' }))
        : undefined;
    const { fetchMock } = open('/devices', registryApi({ units: rooms }, post));
    await userEvent.click(await screen.findByTestId('add-device'));
    await userEvent.type(screen.getByTestId('add-device-id'), '70B3D52DD3000001');
    await userEvent.type(screen.getByTestId('add-device-app-key'), '0123456789abcdef0123456789abcdef');
    await userEvent.selectOptions(screen.getByTestId('add-device-model'), 'milesight-wt101');
    const picker = screen.getByRole('combobox', { name: 'Unit (optional)' });
    expect(picker).toHaveValue('No unit');
    await userEvent.type(picker, 'Zimmer 67');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 67' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 67');
    expect(picker).toHaveValue('Zimmer 67');
    // "No unit" takes the choice back.
    await userEvent.click(picker);
    await userEvent.click(await screen.findByRole('option', { name: 'No unit' }));
    expect(picker).toHaveValue('No unit');
    await userEvent.type(picker, 'Zimmer 67');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 67' }));
    await userEvent.click(screen.getByTestId('add-device-submit'));
    await screen.findByTestId('toast-device-added');
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST') ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({ unitId: far.id });
  });

  it('asks for the licences in use again after a device was added', async () => {
    const added: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/companies/c1/devices') {
        return json(201, testDevice({ id: '70b3d52dd3000001' }));
      }
      return method === 'GET' && url === '/api/companies/c1/billing' ? json(200, ACTIVE_BILLING) : undefined;
    };
    const { fetchMock } = open('/devices', registryApi({}, added));
    const billingReads = () =>
      fetchMock.mock.calls.filter(
        ([url, init]) => url === '/api/companies/c1/billing' && init?.method === 'GET',
      ).length;
    await userEvent.click(await screen.findByTestId('add-device'));
    await vi.waitFor(() => expect(billingReads()).toBeGreaterThan(0));
    const before = billingReads();
    await userEvent.type(screen.getByTestId('add-device-id'), '70B3D52DD3000001');
    await userEvent.type(screen.getByTestId('add-device-app-key'), '0123456789abcdef0123456789abcdef');
    await userEvent.selectOptions(screen.getByTestId('add-device-model'), 'milesight-wt101');
    await userEvent.click(screen.getByTestId('add-device-submit'));
    await screen.findByTestId('toast-device-added');
    expect(billingReads()).toBeGreaterThan(before);
  });

  it('refuses a device beyond the licences with the reason and a link to buy licences', async () => {
    const post: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/companies/c1/devices') {
        return json(409, { type: 'about:blank', title: 'Conflict', status: 409, code: 'licences_exhausted' });
      }
      if (method === 'GET' && url === '/api/companies/c1/billing') {
        return json(200, ACTIVE_BILLING);
      }
      return undefined;
    };
    open('/devices', registryApi({}, post));
    await userEvent.click(await screen.findByTestId('add-device'));
    await userEvent.type(screen.getByTestId('add-device-id'), '70B3D52DD3000009');
    await userEvent.type(screen.getByTestId('add-device-app-key'), '0123456789abcdef0123456789ABCDEF');
    await userEvent.selectOptions(screen.getByTestId('add-device-model'), 'elsys-ers');
    await userEvent.click(screen.getByTestId('add-device-submit'));
    expect(await screen.findByTestId('add-device-error')).toHaveTextContent(
      'Every licence is in use. Buy more licences in settings → billing before adding a device.',
    );
    expect(screen.getByTestId('add-device-buy-licences')).toHaveAttribute('href', '/settings/billing');
  });

  it('deletes after confirming, and the 409 for the last device becomes an error toast', async () => {
    const device = testDevice();
    const del: FetchHandler = (method) =>
      method === 'DELETE'
        ? problem(
            409,
            'Conflict',
            'The last device cannot be deleted while the subscription is active.',
            undefined,
            'last_device',
          )
        : undefined;
    const { fetchMock } = open('/devices', registryApi({ devices: [device] }, del));
    await userEvent.click(await screen.findByTestId(`device-delete-${device.id}-open`));
    expect(screen.getByTestId(`device-delete-${device.id}`)).toHaveTextContent(device.id);
    await userEvent.click(screen.getByTestId(`device-delete-${device.id}-confirm`));
    expect(await screen.findByTestId('toast-device-delete-error')).toHaveTextContent(
      'The last device cannot be deleted while the subscription is active.',
    );
    expect(screen.queryByTestId(`device-delete-${device.id}`)).toBeNull();
    expect(fetchMock.mock.calls.some(([url, i]) => i?.method === 'DELETE' && url.endsWith(device.id))).toBe(
      true,
    );
  });

  it('changes the unit from the unit cell and can remove the assignment', async () => {
    const office = testUnit({ name: 'Office' });
    const lab = testUnit({ name: 'Lab' });
    const device = testDevice({ unitId: office.id, unitName: office.name });
    const patch: FetchHandler = (method, _url, init) =>
      method === 'PATCH' ? json(200, { ...device, ...JSON.parse(String(init.body)) }) : undefined;
    const { fetchMock } = open('/devices', registryApi({ devices: [device], units: [office, lab] }, patch));
    // The name starts with the room the button shows (label in name).
    await userEvent.click(
      await screen.findByRole('button', { name: `Office – change the unit of device ${device.id}` }),
    );
    expect(screen.getByTestId(`device-unit-save-${device.id}`)).toBeDisabled();
    await userEvent.click(screen.getByTestId(`device-unit-${device.id}`));
    await userEvent.click(await screen.findByTestId(`device-unit-${device.id}-${lab.id}`));
    await userEvent.click(screen.getByTestId(`device-unit-save-${device.id}`));
    expect(await screen.findByTestId('toast-device-unit-saved')).toHaveTextContent('Assignment saved');
    await userEvent.click(
      screen.getByRole('button', { name: `Office – change the unit of device ${device.id}` }),
    );
    await userEvent.click(screen.getByTestId(`device-unit-clear-${device.id}`));
    const bodies = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PATCH')
      .map(([url, init]) => [url, JSON.parse(String(init?.body))]);
    expect(bodies).toEqual([
      [`/api/companies/c1/devices/${device.id}`, { unitId: lab.id }],
      [`/api/companies/c1/devices/${device.id}`, { unitId: null }],
    ]);
  });

  it("names a device's room beyond the first page in the change dialog before any search", async () => {
    const rooms = manyRooms();
    const current = rooms[59]!;
    const far = rooms[68]!;
    const device = testDevice({ unitId: current.id, unitName: current.name });
    const patch: FetchHandler = (method, _url, init) =>
      method === 'PATCH' ? json(200, { ...device, ...JSON.parse(String(init.body)) }) : undefined;
    const { fetchMock } = open('/devices', registryApi({ devices: [device], units: rooms }, patch));
    await userEvent.click(
      await screen.findByRole('button', { name: `Zimmer 60 – change the unit of device ${device.id}` }),
    );
    const dialog = screen.getByTestId(`device-unit-dialog-${device.id}`);
    const picker = within(dialog).getByRole('combobox', { name: 'Unit' });
    expect(picker).toHaveValue('Zimmer 60');
    await userEvent.type(picker, 'Zimmer 69');
    await userEvent.click(await within(dialog).findByRole('option', { name: 'Zimmer 69' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 69');
    await userEvent.click(within(dialog).getByTestId(`device-unit-save-${device.id}`));
    await screen.findByTestId('toast-device-unit-saved');
    const bodies = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PATCH')
      .map(([, init]) => JSON.parse(String(init?.body)));
    expect(bodies).toEqual([{ unitId: far.id }]);
  });

  it('filters by a room beyond the first page found by typing, and back to all rooms', async () => {
    const rooms = manyRooms();
    const far = rooms[69]!;
    const { fetchMock } = open('/devices', registryApi({ devices: [testDevice()], units: rooms }));
    await screen.findByTestId('devices-table');
    const filter = screen.getByRole('combobox', { name: 'Filter by unit' });
    expect(filter).toHaveValue('All units');
    await userEvent.type(filter, 'Zimmer 70');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 70' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 70');
    expect(filter).toHaveValue('Zimmer 70');
    const devicesQuery = () =>
      new URL(
        fetchMock.mock.calls
          .map(([url]) => url)
          .filter((url) => url.startsWith('/api/companies/c1/devices?'))
          .at(-1) ?? '',
        'http://x',
      ).searchParams;
    await waitFor(() => expect(devicesQuery().get('unitId')).toBe(far.id));
    await userEvent.click(filter);
    await userEvent.click(await screen.findByRole('option', { name: 'All units' }));
    expect(filter).toHaveValue('All units');
  });

  it('filters by model and unit and sorts through the server', async () => {
    const unit = testUnit({ name: 'Büro' });
    const { fetchMock } = open('/devices', registryApi({ devices: [testDevice()], units: [unit] }));
    await screen.findByTestId('devices-table');
    await userEvent.selectOptions(screen.getByTestId('devices-model-filter'), 'elsys-ers');
    await userEvent.click(screen.getByTestId('devices-unit-filter'));
    await userEvent.click(screen.getByTestId('devices-unit-filter-none'));
    await userEvent.click(screen.getByTestId('devices-table-sort-lastSeen'));
    const lastList = fetchMock.mock.calls
      .map(([url]) => url)
      .filter((url) => url.startsWith('/api/companies/c1/devices?'))
      .at(-1);
    const query = new URL(lastList ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      model: 'elsys-ers',
      unassigned: 'true',
      sort: 'lastSeen',
      order: 'asc',
      page: '1',
    });
  });
});
