/**
 * The building switcher (decision 0052): shown for two buildings or more; the building chosen is
 * kept per company in localStorage and is where the units, devices and alerts lists start —
 * also after a reload, and on another list — until "All buildings" clears it. A list may narrow
 * to another building for itself; choosing in the switcher again sets it back.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testBuilding } from '../../test/buildings-fixtures.ts';
import { listCalls, listsApi } from '../../test/lists-api.ts';
import { renderRoutes } from '../../test/render.tsx';
import { signIn, testProfile } from '../../test/signed-in.ts';
import { testUnit } from '../../test/units-fixtures.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';

const main = testBuilding();
const school = testBuilding({ id: '00000000-0000-4000-a000-000000000002', name: 'Schule', floors: ['EG'] });
const KEY = 'heizplan.building.c1';

function open(path: string, buildings = [main, school]) {
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang: 'en' }),
    extra: listsApi(buildings, { units: [testUnit({ name: 'Aula' })] }),
  });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const switcher = async () => within(await screen.findByTestId('building-switcher'));
const lastBuilding = (fetchMock: ReturnType<typeof vi.fn>, list: string) =>
  listCalls(fetchMock, list).at(-1)?.get('buildingId') ?? null;

describe('building switcher', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sets where the lists start, keeps it per company, and "All buildings" clears it', async () => {
    const { fetchMock, router } = open('/units');
    const select = (await switcher()).getByTestId('building-switcher-select');
    expect(select).toHaveAccessibleName('Building');
    expect(select).toHaveValue('');
    await screen.findByTestId('units-building-filter');

    await userEvent.selectOptions(select, school.id);
    expect(localStorage.getItem(KEY)).toBe(school.id);
    await waitFor(() => expect(lastBuilding(fetchMock, 'units')).toBe(school.id));
    expect(screen.getByTestId('units-building-filter')).toHaveValue(school.id);

    await router.navigate('/devices');
    await waitFor(() => expect(lastBuilding(fetchMock, 'devices')).toBe(school.id));
    expect(await screen.findByTestId('devices-building-filter')).toHaveValue(school.id);
    await router.navigate('/alerts');
    await waitFor(() => expect(lastBuilding(fetchMock, 'alerts')).toBe(school.id));

    await userEvent.selectOptions((await switcher()).getByTestId('building-switcher-select'), '');
    expect(localStorage.getItem(KEY)).toBeNull();
    await waitFor(() => expect(lastBuilding(fetchMock, 'alerts')).toBeNull());
  });

  it('starts the lists at the stored building after a reload', async () => {
    localStorage.setItem(KEY, main.id);
    const { fetchMock } = open('/devices');
    expect((await switcher()).getByTestId('building-switcher-select')).toHaveValue(main.id);
    await waitFor(() => expect(listCalls(fetchMock, 'devices').length).toBeGreaterThan(0));
    // The first request already asks for the building: no unfiltered list first.
    expect(listCalls(fetchMock, 'devices').every((q) => q.get('buildingId') === main.id)).toBe(true);
  });

  it("lets a list narrow for itself until the switcher's building changes again", async () => {
    localStorage.setItem(KEY, main.id);
    const { fetchMock } = open('/units');
    const filter = await screen.findByTestId('units-building-filter');
    await userEvent.selectOptions(filter, school.id);
    await waitFor(() => expect(lastBuilding(fetchMock, 'units')).toBe(school.id));
    expect(localStorage.getItem(KEY)).toBe(main.id);
    await userEvent.selectOptions((await switcher()).getByTestId('building-switcher-select'), '');
    await waitFor(() => expect(lastBuilding(fetchMock, 'units')).toBeNull());
    expect(filter).toHaveValue('');
  });

  it('forgets a building the company no longer has', async () => {
    localStorage.setItem(KEY, '00000000-0000-4000-a000-00000000dead');
    const { fetchMock } = open('/units');
    expect((await switcher()).getByTestId('building-switcher-select')).toHaveValue('');
    await waitFor(() => expect(lastBuilding(fetchMock, 'units')).toBeNull());
  });

  it('is not shown with a single building', async () => {
    open('/units', [main]);
    await screen.findByTestId('units-building-filter');
    expect(screen.queryByTestId('building-switcher')).toBeNull();
  });
});
