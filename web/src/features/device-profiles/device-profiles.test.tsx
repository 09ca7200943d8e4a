/**
 * Device profiles (decision 0062): the list with configuration, places and how many devices
 * report each profile; creating one from the model's factory settings, for a building and a room
 * found by search, with the form's rules checked before sending; members who may not operate see
 * no buttons.
 */
import type { DeviceProfile, DeviceProfileList } from '@heizplan/contracts/device-profiles';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { testUnit } from '../../test/units-fixtures.ts';

const BUILDING = '00000000-0000-4000-b000-000000000001';
const hall = testUnit({ name: 'Aula' });
/** More rooms than one search page holds: the room picker searches on the server. */
const rooms = [hall, ...Array.from({ length: 60 }, (_, i) => testUnit({ name: `Klasse ${i + 1}` }))];
const FACTORY = {
  keepAliveMinutes: 10,
  openWindow: { enabled: false, durationMinutes: 10, deltaK: 1 },
  childLock: false,
  childLockKeptOffline: false,
  temperatureRange: { min: 5, max: 30 },
  temperatureOffset: 0,
};
const school: DeviceProfile = {
  id: '00000000-0000-4000-a000-0000000000d1',
  name: 'Schule',
  model: 'mclimate-vicki',
  config: {
    ...FACTORY,
    keepAliveMinutes: 15,
    openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
    childLock: true,
  },
  places: { company: false, buildingIds: [BUILDING], groupIds: [], unitIds: [hall.id] },
  units: [{ id: hall.id, name: hall.name }],
  sync: { devices: 40, inSync: 31, pending: 8, differs: 1 },
  updatedAt: '2026-11-27T05:00:00.000Z',
};

function open(role: 'admin' | 'heating' | 'ems' = 'heating', lang: 'de' | 'en' = 'de', profiles = [school]) {
  const list = (): DeviceProfileList => ({
    results: profiles,
    models: [
      {
        model: 'mclimate-vicki',
        name: 'MClimate Vicki LoRaWAN',
        defaults: FACTORY,
        fields: Object.keys(FACTORY) as never,
      },
    ],
    airtimeBudgetS: 30,
  });
  const api: FetchHandler = (method, url, init) => {
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/device-profiles') return json(200, list());
    if (method === 'GET' && path === '/api/companies/c1/buildings')
      return json(200, {
        results: [{ id: BUILDING, name: 'Grundschule Nord' }],
        count: 1,
        page: 1,
        size: 200,
      });
    if (method === 'GET' && path === '/api/companies/c1/units') {
      const q = new URLSearchParams(url.split('?')[1]).get('q')?.toLowerCase();
      const found = q ? rooms.filter((u) => u.name.toLowerCase().includes(q)) : rooms;
      return json(200, { results: found.slice(0, 50), count: found.length, page: 1, size: 50 });
    }
    if (method === 'GET' && path === '/api/companies/c1/groups')
      return json(200, { results: [], count: 0, page: 1, size: 200 });
    if (method === 'POST' && path === '/api/companies/c1/device-profiles') {
      const body = JSON.parse(String(init.body));
      const created = {
        ...school,
        id: '00000000-0000-4000-a000-0000000000d2',
        ...body,
        sync: { devices: 0, inSync: 0, pending: 0, differs: 0 },
      };
      profiles = [...profiles, created];
      return json(201, created);
    }
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/device-profiles', { session }), fetchMock };
}

const posts = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) =>
        String(url).split('?')[0] === '/api/companies/c1/device-profiles' &&
        (init as RequestInit)?.method === 'POST',
    )
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

describe('device profiles', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows each profile with its settings, where it applies and how far it reached its devices, in German', async () => {
    open();
    expect(await screen.findByTestId(`device-profile-config-${school.id}`)).toHaveTextContent(
      'Meldet alle 15 minFenster-offen-Erkennung: schließt 30 min bei Abfall um 1,5 KKindersicherung an, ohne Funkverbindung gelöstEinstellbereich am Ventil 5,0 °C bis 30,0 °C',
    );
    // The building's name arrives with the buildings list.
    await waitFor(() =>
      expect(screen.getByTestId(`device-profile-places-${school.id}`)).toHaveTextContent(
        'Gilt für: Grundschule Nord, Aula',
      ),
    );
    expect(screen.getByTestId(`device-profile-sync-${school.id}`)).toHaveTextContent(
      '40 Geräte: 31 übernommen, 8 werden übertragen, 1 weichen ab',
    );
    expect(screen.getByText(/höchstens 30 s Funkzeit am Tag/)).toBeInTheDocument();
  });

  it('creates a profile from the factory settings, refusing a keep-alive outside 1–255 min first', async () => {
    const { fetchMock } = open('heating', 'en', []);
    await userEvent.click(await screen.findByTestId('device-profile-new'));
    await userEvent.type(await screen.findByTestId('device-profile-name'), 'Offices');
    const keepAlive = screen.getByTestId('device-profile-keep-alive');
    await userEvent.clear(keepAlive);
    await userEvent.type(keepAlive, '300');
    await userEvent.click(screen.getByTestId('device-profile-child-lock'));
    await userEvent.click(screen.getByTestId('device-profile-child-lock-offline'));
    await userEvent.click(await screen.findByTestId(`device-profile-building-${BUILDING}`));
    // A room beyond the first page of 50 is found by the server's search.
    const far = rooms.at(-1) as (typeof rooms)[number];
    const dialog = screen.getByTestId('device-profile-new-dialog');
    await userEvent.type(within(dialog).getByTestId('device-profile-units'), far.name);
    await userEvent.click(await screen.findByTestId(`device-profile-units-${far.id}`));
    expect(within(dialog).getByTestId(`device-profile-units-chip-${far.id}`)).toHaveTextContent(far.name);
    await userEvent.click(screen.getByTestId('device-profile-new-submit'));
    expect(await screen.findByTestId('device-profile-keep-alive-field-error')).toHaveTextContent('255 min');
    expect(posts(fetchMock)).toEqual([]);
    await userEvent.clear(keepAlive);
    await userEvent.type(keepAlive, '20');
    await userEvent.click(screen.getByTestId('device-profile-new-submit'));
    await waitFor(() =>
      expect(posts(fetchMock)).toEqual([
        {
          name: 'Offices',
          model: 'mclimate-vicki',
          config: { ...FACTORY, keepAliveMinutes: 20, childLock: true, childLockKeptOffline: true },
          places: { company: false, buildingIds: [BUILDING], groupIds: [], unitIds: [far.id] },
        },
      ]),
    );
    expect(await screen.findByTestId('toast-device-profile-saved')).toHaveTextContent('Profile saved');
  });

  it('shows read-only members the profiles without buttons', async () => {
    open('ems', 'en');
    expect(await screen.findByTestId(`device-profile-sync-${school.id}`)).toHaveTextContent(
      '40 devices: 31 in sync, 8 being sent, 1 differ',
    );
    expect(screen.queryByTestId('device-profile-new')).toBeNull();
    expect(screen.queryByTestId(`device-profile-edit-${school.id}`)).toBeNull();
  });
});
