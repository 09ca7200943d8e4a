/**
 * The building filters of the device, alert, closure and booking calendar lists (decision 0052):
 * shown only once the company has buildings; a building sends `buildingId`, and a floor of it
 * (offered once a building with floors is chosen, devices and alerts only) sends `floor`, each
 * from the first page; another building clears the floor. Closures and booking calendars start at
 * a link's `?building=` (before the navigation's current building), ask nothing before they know
 * the building is the company's, and say when a building has none.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testBuilding } from '../../test/buildings-fixtures.ts';
import { testDevice } from '../../test/devices-fixtures.ts';
import { listCalls, listsApi } from '../../test/lists-api.ts';
import { renderRoutes } from '../../test/render.tsx';
import { signIn, testProfile } from '../../test/signed-in.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';

const main = testBuilding();
const school = testBuilding({ id: '00000000-0000-4000-a000-000000000002', name: 'Schule', floors: [] });

/** Where the navigation's building switcher keeps the current building of company c1. */
const CURRENT_BUILDING = 'heizplan.building.c1';

function open(path: string, buildings = [main, school], lang: 'de' | 'en' = 'en') {
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang }),
    extra: listsApi(buildings, { devices: [testDevice()] }),
  });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.text);

describe('building filters of the device, alert, closure and booking calendar lists', {
  timeout: 20_000,
}, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    { list: 'devices', path: '/devices' },
    { list: 'alerts', path: '/alerts' },
  ])('narrows the $list to a building and one of its floors', async ({ list, path }) => {
    const { fetchMock } = open(path);
    const building = await screen.findByTestId(`${list}-building-filter`);
    expect(building).toHaveAccessibleName('Building');
    expect(options(building)).toEqual(['All buildings', 'Hauptgebäude', 'Schule']);
    expect(screen.queryByTestId(`${list}-floor-filter`)).toBeNull();
    expect(listCalls(fetchMock, list).every((q) => !q.has('buildingId'))).toBe(true);

    await userEvent.selectOptions(building, main.id);
    await waitFor(() => expect(listCalls(fetchMock, list).at(-1)?.get('buildingId')).toBe(main.id));
    const floor = screen.getByTestId(`${list}-floor-filter`);
    expect(floor).toHaveAccessibleName('Floor');
    expect(options(floor)).toEqual(['All floors', 'KG', 'EG', '1. OG']);
    await userEvent.selectOptions(floor, 'EG');
    await waitFor(() => expect(listCalls(fetchMock, list).at(-1)?.get('floor')).toBe('EG'));
    expect(listCalls(fetchMock, list).at(-1)?.get('buildingId')).toBe(main.id);
    expect(listCalls(fetchMock, list).at(-1)?.get('page')).toBe('1');

    // A building without floors: no floor select, and the floor is gone from the request.
    await userEvent.selectOptions(building, school.id);
    await waitFor(() => expect(listCalls(fetchMock, list).at(-1)?.get('buildingId')).toBe(school.id));
    expect(listCalls(fetchMock, list).at(-1)?.has('floor')).toBe(false);
    expect(screen.queryByTestId(`${list}-floor-filter`)).toBeNull();
  });

  it('groups the devices by building and floor under headings, sorted by the server', async () => {
    const place = { buildingId: main.id, buildingName: main.name, floor: 'EG' };
    const first = testDevice({ unitName: 'Aula', ...place });
    const second = testDevice({ unitName: 'Bühne', ...place });
    const loose = testDevice();
    const { session, fetchMock } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: listsApi([main, school], { devices: [first, second, loose] }),
    });
    renderRoutes(routes, '/devices', { session });
    const toggle = await screen.findByTestId('devices-group-by-building');
    expect(toggle).toHaveAccessibleName('Nach Gebäude und Etage gruppieren');
    await userEvent.click(toggle);
    await waitFor(() => expect(listCalls(fetchMock, 'devices').at(-1)?.get('sort')).toBe('building'));
    expect(listCalls(fetchMock, 'devices').at(-1)?.get('order')).toBe('asc');
    expect(await screen.findByTestId(`devices-table-group-${first.id}`)).toHaveTextContent(
      'Hauptgebäude · EG',
    );
    expect(screen.queryByTestId(`devices-table-group-${second.id}`)).toBeNull();
    expect(screen.getByTestId(`devices-table-group-${loose.id}`)).toHaveTextContent('Ohne Gebäude');
  });

  it('sorts the alerts by building once grouped', async () => {
    const { fetchMock } = open('/alerts');
    await userEvent.click(await screen.findByTestId('alerts-group-by-building'));
    await waitFor(() => expect(listCalls(fetchMock, 'alerts').at(-1)?.get('sort')).toBe('building'));
    expect(screen.getByTestId('alerts-group-by-building')).toBeChecked();
  });

  it('shows no building filter to a company without buildings', async () => {
    open('/devices', []);
    await screen.findByTestId('devices-table');
    expect(screen.queryByTestId('devices-building-filter')).toBeNull();
  });

  const calendarLists = [
    {
      list: 'closures',
      path: '/closures',
      none: 'No upcoming or running closures for this building.',
      noneDe: 'Keine anstehenden oder laufenden Schließzeiten für dieses Gebäude.',
    },
    {
      list: 'booking-feeds',
      path: '/booking-feeds',
      none: 'No booking calendars for rooms of this building.',
      noneDe: 'Keine Buchungskalender für Räume dieses Gebäudes.',
    },
  ];

  it.each(calendarLists)('narrows the $list to a building, without a floor', async ({ list, path, none }) => {
    const { fetchMock } = open(path);
    const building = await screen.findByTestId(`${list}-building-filter`);
    expect(building).toHaveAccessibleName('Building');
    expect(options(building)).toEqual(['All buildings', 'Hauptgebäude', 'Schule']);
    // Nothing yet: the list explains itself.
    expect(await screen.findByTestId(`${list}-empty`)).toBeInTheDocument();
    expect(listCalls(fetchMock, list).every((q) => !q.has('buildingId'))).toBe(true);

    await userEvent.selectOptions(building, main.id);
    await waitFor(() => expect(listCalls(fetchMock, list).at(-1)?.get('buildingId')).toBe(main.id));
    expect(listCalls(fetchMock, list).at(-1)?.get('page')).toBe('1');
    expect(screen.queryByTestId(`${list}-floor-filter`)).toBeNull();
    // Nothing in this building: said so, not the explanation of an empty company.
    expect(await screen.findByTestId(`${list}-table-empty`)).toHaveTextContent(none);
    expect(screen.queryByTestId(`${list}-empty`)).toBeNull();
  });

  it.each(calendarLists)(
    "opens the $list at a link's building, also when the navigation has another",
    async ({ list, path }) => {
      localStorage.setItem(CURRENT_BUILDING, main.id);
      const { fetchMock } = open(`${path}?building=${school.id}`);
      expect(await screen.findByTestId(`${list}-building-filter`)).toHaveValue(school.id);
      await waitFor(() => expect(listCalls(fetchMock, list).length).toBeGreaterThan(0));
      expect(listCalls(fetchMock, list).map((q) => q.get('buildingId'))).toEqual(
        listCalls(fetchMock, list).map(() => school.id),
      );
    },
  );

  it("keeps a link's building when the navigation's stored building no longer exists", async () => {
    localStorage.setItem(CURRENT_BUILDING, '00000000-0000-4000-a000-00000000dead');
    const { fetchMock } = open(`/closures?building=${school.id}`);
    expect(await screen.findByTestId('closures-building-filter')).toHaveValue(school.id);
    await waitFor(() => expect(listCalls(fetchMock, 'closures').length).toBeGreaterThan(0));
    expect(listCalls(fetchMock, 'closures').every((q) => q.get('buildingId') === school.id)).toBe(true);
  });

  it.each(calendarLists)("starts the $list at the navigation's building", async ({ list, path }) => {
    localStorage.setItem(CURRENT_BUILDING, main.id);
    const { fetchMock } = open(path);
    expect(await screen.findByTestId(`${list}-building-filter`)).toHaveValue(main.id);
    await waitFor(() => expect(listCalls(fetchMock, list).at(-1)?.get('buildingId')).toBe(main.id));
  });

  it.each(calendarLists)(
    "filters the $list by nothing for a link's unknown building",
    async ({ list, path }) => {
      const { fetchMock } = open(`${path}?building=00000000-0000-4000-a000-00000000dead`);
      expect(await screen.findByTestId(`${list}-building-filter`)).toHaveValue('');
      await screen.findByTestId(`${list}-empty`);
      // Never asked with a building the company does not have (the server would answer 404).
      expect(listCalls(fetchMock, list).length).toBeGreaterThan(0);
      expect(listCalls(fetchMock, list).every((q) => !q.has('buildingId'))).toBe(true);
    },
  );

  it.each(calendarLists)('shows the $list no building filter without buildings', async ({ list, path }) => {
    open(path, []);
    await screen.findByTestId(`${list}-empty`);
    expect(screen.queryByTestId(`${list}-building-filter`)).toBeNull();
  });

  it.each(calendarLists)('says the $list filter in German', async ({ list, path, noneDe }) => {
    await setLanguage('de');
    open(path, [main, school], 'de');
    const building = await screen.findByTestId(`${list}-building-filter`);
    expect(building).toHaveAccessibleName('Gebäude');
    expect(options(building)[0]).toBe('Alle Gebäude');
    await userEvent.selectOptions(building, school.id);
    expect(await screen.findByTestId(`${list}-table-empty`)).toHaveTextContent(noneDe);
  });

  it('says it in German', async () => {
    await setLanguage('de');
    open('/alerts', [main, school], 'de');
    const building = await screen.findByTestId('alerts-building-filter');
    expect(building).toHaveAccessibleName('Gebäude');
    expect(options(building)[0]).toBe('Alle Gebäude');
    await userEvent.selectOptions(building, main.id);
    expect(screen.getByTestId('alerts-floor-filter')).toHaveAccessibleName('Etage');
    expect(options(screen.getByTestId('alerts-floor-filter'))[0]).toBe('Alle Etagen');
  });
});
