/**
 * Units in buildings (decision 0052): the unit settings send building and floor, the floor
 * choices are the chosen building's and choosing another building clears the floor; creating
 * units puts them in a building and on a floor; the units screen filters by building (only once
 * the company has one) and shows building and floor under a unit's name; the server's refusal
 * of a floor shows under the floor.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { buildingsApi, testBuilding } from '../../test/buildings-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';

const main = testBuilding();
const school = testBuilding({
  id: '00000000-0000-4000-a000-000000000002',
  name: 'Schule',
  floors: ['EG', 'OG'],
  publicHolidays: 'ignore',
});

function open(
  path: string,
  units: ReturnType<typeof testUnit>[],
  more?: FetchHandler,
  buildings = [main, school],
) {
  const api: FetchHandler = (method, url, init) =>
    more?.(method, url, init) ?? buildingsApi(buildings)(method, url, init);
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang: 'en' }),
    extra: heatingApi(units, api),
  });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const sent = (fetchMock: ReturnType<typeof vi.fn>, method: string, url: string) =>
  fetchMock.mock.calls
    .filter(([u, init]) => u === url && (init as RequestInit | undefined)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.text);

describe('units in buildings', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('saves building and floor, offers the chosen building’s floors and clears the floor on another building', async () => {
    const unit = testUnit({ name: 'Aula', buildingId: main.id, buildingName: main.name, floor: 'EG' });
    const url = `/api/companies/c1/units/${unit.id}`;
    const { fetchMock } = open(`/units/${unit.id}`, [unit], (method, u) =>
      u === url
        ? method === 'GET'
          ? json(200, unit)
          : method === 'PATCH'
            ? json(200, unit)
            : undefined
        : method === 'GET' && u === `${url}/plans`
          ? json(200, { results: [] })
          : undefined,
    );
    expect(await screen.findByTestId('unit-place')).toHaveTextContent('Hauptgebäude · EG');
    const building = await screen.findByTestId('unit-building-field');
    const buildingSelect = within(building).getByTestId('unit-building');
    const floor = screen.getByTestId('unit-floor');
    await waitFor(() => expect(options(buildingSelect)).toEqual(['No building', 'Hauptgebäude', 'Schule']));
    expect(buildingSelect).toHaveValue(main.id);
    expect(floor).toHaveValue('EG');
    expect(options(floor)).toEqual(['No floor', 'KG', 'EG', '1. OG']);

    await userEvent.selectOptions(buildingSelect, school.id);
    expect(floor).toHaveValue('');
    expect(options(floor)).toEqual(['No floor', 'EG', 'OG']);
    await userEvent.selectOptions(floor, 'OG');
    await userEvent.click(screen.getByTestId('unit-save'));
    await screen.findByTestId('toast-unit-saved');
    expect(sent(fetchMock, 'PATCH', url)).toEqual([
      {
        name: 'Aula',
        groupId: null,
        buildingId: school.id,
        floor: 'OG',
        wallControlMin: null,
        wallControlMax: null,
        optimumStart: true,
      },
    ]);

    // No building: no floor to choose, and both sent as none.
    await userEvent.selectOptions(buildingSelect, '');
    expect(floor).toHaveValue('');
    expect(floor).toBeDisabled();
    await userEvent.click(screen.getByTestId('unit-save'));
    await waitFor(() => expect(sent(fetchMock, 'PATCH', url)).toHaveLength(2));
    expect(sent(fetchMock, 'PATCH', url)[1]).toMatchObject({ buildingId: null, floor: null });
  });

  it("shows the server's refusal of a floor under the floor", async () => {
    const unit = testUnit({ name: 'Flur' });
    const url = `/api/companies/c1/units/${unit.id}`;
    open(`/units/${unit.id}`, [unit], (method, u) =>
      u === url
        ? method === 'GET'
          ? json(200, unit)
          : method === 'PATCH'
            ? problem(
                400,
                'Bad Request',
                'Unknown floor.',
                [
                  {
                    field: 'body.floor',
                    message: 'Unknown floor.',
                    code: 'unknown_floor',
                    params: { floor: 'KG' },
                  },
                ],
                'unknown_floor',
              )
            : undefined
        : method === 'GET' && u === `${url}/plans`
          ? json(200, { results: [] })
          : undefined,
    );
    const buildingSelect = await screen.findByTestId('unit-building');
    await waitFor(() => expect(options(buildingSelect)).toContain('Hauptgebäude'));
    await userEvent.selectOptions(buildingSelect, main.id);
    await userEvent.selectOptions(screen.getByTestId('unit-floor'), 'KG');
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findByTestId('unit-floor-field-error')).toHaveTextContent(
      'The building has no floor “KG”.',
    );
  });

  it('shows no building fields to a company without buildings, and sends none', async () => {
    const unit = testUnit({ name: 'Keller' });
    const url = `/api/companies/c1/units/${unit.id}`;
    const { fetchMock } = open(
      `/units/${unit.id}`,
      [unit],
      (method, u) =>
        u === url
          ? method === 'GET' || method === 'PATCH'
            ? json(200, unit)
            : undefined
          : method === 'GET' && u === `${url}/plans`
            ? json(200, { results: [] })
            : undefined,
      [],
    );
    await userEvent.click(await screen.findByTestId('unit-save'));
    await screen.findByTestId('toast-unit-saved');
    expect(screen.queryByTestId('unit-building')).toBeNull();
    expect(sent(fetchMock, 'PATCH', url)[0]).not.toHaveProperty('buildingId');
  });

  it('creates units in a building and on a floor', async () => {
    const { fetchMock } = open('/units', [], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/units/bulk'
        ? json(201, { results: [testUnit(), testUnit()] })
        : undefined,
    );
    await userEvent.click(await screen.findByTestId('create-units'));
    const building = await screen.findByTestId('create-units-building');
    await userEvent.selectOptions(building, main.id);
    await userEvent.selectOptions(screen.getByTestId('create-units-floor'), '1. OG');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByText('2 units created')).toBeVisible();
    expect(sent(fetchMock, 'POST', '/api/companies/c1/units/bulk')).toEqual([
      { pattern: 'Room {n}', count: 10, start: 1, groupId: null, buildingId: main.id, floor: '1. OG' },
    ]);
  });

  it('filters the units by building and shows building and floor under the name', async () => {
    const aula = testUnit({ name: 'Aula', buildingId: main.id, buildingName: main.name, floor: 'EG' });
    const lab = testUnit({ name: 'Labor', buildingId: school.id, buildingName: school.name });
    const loose = testUnit({ name: 'Kiosk' });
    const { fetchMock } = open('/units', [aula, lab, loose]);
    expect(await screen.findByTestId(`unit-place-${aula.id}`)).toHaveTextContent('Hauptgebäude · EG');
    expect(screen.getByTestId(`unit-place-${lab.id}`)).toHaveTextContent('Schule');
    expect(screen.queryByTestId(`unit-place-${loose.id}`)).toBeNull();
    const filter = await screen.findByTestId('units-building-filter');
    expect(filter).toHaveAccessibleName('Building');
    expect(options(filter)).toEqual(['All buildings', 'Hauptgebäude', 'Schule']);
    const unitCalls = () =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/companies/c1/units?'));
    expect(unitCalls().every((u) => !u.includes('buildingId'))).toBe(true);
    await userEvent.selectOptions(filter, school.id);
    await waitFor(() => expect(unitCalls().at(-1)).toContain(`buildingId=${school.id}`));
    expect(unitCalls().at(-1)).toContain('page=1');
    const filtered = unitCalls().length;
    await userEvent.selectOptions(filter, '');
    expect(filter).toHaveValue('');
    // Back to the whole list, from the cache: no building asked for.
    expect(
      unitCalls()
        .slice(filtered)
        .every((u) => !u.includes('buildingId')),
    ).toBe(true);
  });

  it('groups the units by building and floor under headings, and back to names', async () => {
    const aula = testUnit({ name: 'Aula', buildingId: main.id, buildingName: main.name, floor: 'EG' });
    const hall = testUnit({ name: 'Halle', buildingId: main.id, buildingName: main.name, floor: 'EG' });
    const lab = testUnit({ name: 'Labor', buildingId: school.id, buildingName: school.name });
    const loose = testUnit({ name: 'Kiosk' });
    // The server answers in building order (its `sort=building`).
    const { fetchMock } = open('/units', [aula, hall, lab, loose]);
    await screen.findByTestId(`unit-place-${aula.id}`);
    expect(screen.queryByTestId(`units-table-group-${aula.id}`)).toBeNull();
    const unitCalls = () =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/companies/c1/units?'));
    const toggle = await screen.findByTestId('units-group-by-building');
    expect(toggle).toHaveAccessibleName('Group by building and floor');
    await userEvent.click(toggle);
    await waitFor(() => expect(unitCalls().at(-1)).toContain('sort=building&order=asc'));
    expect(await screen.findByTestId(`units-table-group-${aula.id}`)).toHaveTextContent('Hauptgebäude · EG');
    expect(screen.queryByTestId(`units-table-group-${hall.id}`)).toBeNull();
    expect(screen.getByTestId(`units-table-group-${lab.id}`)).toHaveTextContent('Schule');
    expect(screen.getByTestId(`units-table-group-${loose.id}`)).toHaveTextContent('No building');
    expect(screen.getByRole('columnheader', { name: 'Hauptgebäude · EG' })).toHaveAttribute(
      'scope',
      'colgroup',
    );
    // Back to the list by name (from the cache), without headings.
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.queryByTestId(`units-table-group-${aula.id}`)).toBeNull());
    expect(toggle).not.toBeChecked();
  });

  it('shows no building filter while the company has no building', async () => {
    open('/units', [testUnit({ name: 'Aula' })], undefined, []);
    await screen.findByText('Aula');
    expect(screen.getByTestId('units-search')).toBeInTheDocument();
    expect(screen.queryByTestId('units-building-filter')).toBeNull();
  });
});
