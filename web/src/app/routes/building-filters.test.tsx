/**
 * The building filters of the device and alert lists (decision 0052): shown only once the company
 * has buildings; a building sends `buildingId`, and a floor of it (offered once a building with
 * floors is chosen) sends `floor`, each from the first page; another building clears the floor.
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

function open(path: string, buildings = [main, school], lang: 'de' | 'en' = 'en') {
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang }),
    extra: listsApi(buildings, { devices: [testDevice()] }),
  });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.text);

describe('building filters of the device and alert lists', { timeout: 20_000 }, () => {
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

  it('shows no building filter to a company without buildings', async () => {
    open('/devices', []);
    await screen.findByTestId('devices-table');
    expect(screen.queryByTestId('devices-building-filter')).toBeNull();
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
