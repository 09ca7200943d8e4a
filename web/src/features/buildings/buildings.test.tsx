/**
 * Buildings screen (decision 0052): the list with address, federal state (and region), floors,
 * units and holiday treatment; the empty state saying buildings are optional and what they give;
 * creating one sends the contract's body (state, region, floors, treatment); a postcode of four
 * digits is refused before any request; the server's refusal of a region shows under the region;
 * deleting asks first and says the units stay; the holidays of a year, switched year by year; a
 * member who only reads (ems) sees everything but gets no control to change anything.
 */
import type { Building, Holiday } from '@heizplan/contracts/buildings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { testBuilding } from '../../test/buildings-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem } from '../../test/units-fixtures.ts';
import { formatHolidayDate } from './components/holidays-dialog.tsx';

const annex = testBuilding({
  id: '00000000-0000-4000-a000-000000000002',
  name: 'Nebengebäude',
  street: '',
  postcode: '',
  city: 'Berlin',
  state: 'BE',
  region: null,
  floors: [],
  publicHolidays: 'ignore',
  unitCount: 1,
});

const regions = (lang: string) => ({
  results: [
    { state: 'BY', regions: [{ code: 'A', name: lang === 'de' ? 'Augsburg' : 'Augsburg (city)' }] },
    { state: 'BE', regions: [] },
  ],
});

const holidaysOf = (year: number): Holiday[] => [
  { date: `${year}-01-01`, name: 'Neujahr', regional: false },
  { date: `${year}-01-06`, name: 'Heilige Drei Könige', regional: false },
  { date: `${year}-08-08`, name: 'Augsburger Friedensfest', regional: true },
];

function open(
  buildings: Building[] = [],
  more?: FetchHandler,
  lang: 'en' | 'de' = 'en',
  role: 'admin' | 'heating' | 'ems' = 'admin',
) {
  const api: FetchHandler = (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const [path, search = ''] = url.split('?');
    const query = new URLSearchParams(search);
    if (method === 'GET' && path === '/api/companies/c1/')
      return json(200, testCompany({ role, economy_temperature: 16.5 }));
    if (method === 'GET' && path === '/api/companies/c1/buildings')
      return json(200, { results: buildings, count: buildings.length, page: 1, size: 10 });
    if (method === 'GET' && path === '/api/holiday-regions')
      return json(200, regions(query.get('lang') ?? ''));
    const holidays = path?.match(/^\/api\/companies\/c1\/buildings\/([\w-]+)\/holidays$/);
    if (method === 'GET' && holidays) return json(200, { results: holidaysOf(Number(query.get('year'))) });
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/buildings', { session }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, prefix: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith(prefix) && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );

const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

async function newBuildingDialog() {
  await userEvent.click(await screen.findByTestId('building-new'));
  return screen.findByTestId('building-dialog');
}

describe('buildings screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('lists buildings in German: address, state with region, floors, units and holiday treatment', async () => {
    open([testBuilding(), annex], undefined, 'de');
    await setLanguage('de');
    const table = await screen.findByTestId('buildings-table');
    const main = testBuilding();
    expect(within(table).getByTestId(`building-name-${main.id}`)).toHaveTextContent('Hauptgebäude');
    expect(within(table).getByTestId(`building-address-${main.id}`)).toHaveTextContent(
      'Maximilianstraße 1, 86150 Augsburg',
    );
    expect(await within(table).findByTestId(`building-state-${main.id}`)).toHaveTextContent(
      'Bayern (Augsburg)',
    );
    expect(within(table).getByTestId(`building-floors-${main.id}`)).toHaveTextContent('3');
    expect(within(table).getByTestId(`building-floors-${main.id}`)).toHaveAttribute('title', 'KG, EG, 1. OG');
    expect(within(table).getByTestId(`building-units-${main.id}`)).toHaveTextContent('12');
    expect(within(table).getByTestId(`building-treatment-${main.id}`)).toHaveTextContent(
      'Feiertage: Frostschutz',
    );
    expect(within(table).getByTestId(`building-address-${annex.id}`)).toHaveTextContent('Berlin');
    expect(within(table).getByTestId(`building-state-${annex.id}`)).toHaveTextContent('Berlin');
    expect(within(table).getByTestId(`building-treatment-${annex.id}`)).toHaveTextContent(
      'Feiertage ohne Wirkung',
    );
    // On a phone the name column carries the rest.
    expect(within(table).getByText('1 Raum · Feiertage ohne Wirkung')).toHaveClass('sm:hidden');
    expect(screen.getAllByRole('link', { name: 'Gebäude' })[0]).toHaveAttribute('aria-current', 'page');
  });

  it('explains that buildings are optional and bring the holidays of their state', async () => {
    open([]);
    const empty = await screen.findByTestId('buildings-empty');
    expect(empty).toHaveTextContent('No buildings yet');
    expect(empty).toHaveTextContent('Buildings are optional');
    expect(empty).toHaveTextContent("Heizplan knows the building's public holidays");
    expect(within(empty).getByTestId('buildings-empty-new')).toBeEnabled();
    expect(screen.queryByTestId('buildings-table')).toBeNull();
  });

  it('creates a building with state, region, floors and public holidays as closures', async () => {
    const { fetchMock } = open([], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/buildings' ? json(201, testBuilding()) : undefined,
    );
    const dialog = await newBuildingDialog();
    await userEvent.type(within(dialog).getByTestId('building-name'), ' Hauptgebäude ');
    await userEvent.type(within(dialog).getByTestId('building-street'), 'Maximilianstraße 1');
    await userEvent.type(within(dialog).getByTestId('building-postcode'), '86150');
    await userEvent.type(within(dialog).getByTestId('building-city'), 'Augsburg');
    const state = within(dialog).getByTestId('building-state');
    // The 16 states by their English names, in English order.
    const names = [...(state as HTMLSelectElement).options].map((o) => o.text);
    expect(names).toHaveLength(17);
    expect(names.slice(0, 3)).toEqual(['Please choose', 'Baden-Württemberg', 'Bavaria']);
    expect(names).toContain('North Rhine-Westphalia');
    const region = within(dialog).getByTestId('building-region');
    expect(region).toBeDisabled();
    await userEvent.selectOptions(state, 'BY');
    await waitFor(() => expect(region).toBeEnabled());
    expect(region).toHaveValue('');
    expect([...(region as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'none',
      'Augsburg (city)',
    ]);
    await userEvent.selectOptions(region, 'A');

    // Floors: three added by keyboard, one removed again.
    expect(within(dialog).getByTestId('building-floors-none')).toHaveTextContent('No floors yet.');
    const add = within(dialog).getByTestId('building-floor-add');
    add.focus();
    await userEvent.keyboard('{Enter}');
    expect(within(dialog).getByTestId('building-floor-0')).toHaveFocus();
    await userEvent.keyboard('KG');
    await userEvent.click(add);
    await userEvent.keyboard('EG');
    await userEvent.click(add);
    await userEvent.keyboard('1. OG');
    expect(within(dialog).getByRole('textbox', { name: 'Floor 3' })).toHaveValue('1. OG');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove floor 1' }));
    expect(within(dialog).getByTestId('building-floor-0')).toHaveValue('EG');
    expect(within(dialog).getByTestId('building-floor-0')).toHaveFocus();

    expect(within(dialog).queryByTestId('building-mode')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('building-holidays-closure'));
    const mode = within(dialog).getByTestId('building-mode');
    expect([...(mode as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Frost protection (8 °C)',
      'Economy (16.5 °C)',
      'Standby (18 °C)',
    ]);
    await userEvent.selectOptions(mode, 'economy');
    await userEvent.click(within(dialog).getByTestId('building-save'));

    expect(await screen.findByTestId('toast-building-saved')).toHaveTextContent('Building created');
    const posts = calls(fetchMock, 'POST', '/api/companies/c1/buildings');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0])).toEqual({
      name: 'Hauptgebäude',
      street: 'Maximilianstraße 1',
      postcode: '86150',
      city: 'Augsburg',
      state: 'BY',
      region: 'A',
      floors: ['EG', '1. OG'],
      publicHolidays: 'closure',
      holidayMode: 'economy',
    });
    await waitFor(() => expect(screen.queryByTestId('building-dialog')).toBeNull());
  });

  it('refuses a four-digit postcode, a missing state, an empty and a doubled floor before any request', async () => {
    const { fetchMock } = open([], undefined, 'de');
    await setLanguage('de');
    const dialog = await newBuildingDialog();
    await userEvent.type(within(dialog).getByTestId('building-name'), 'Schule');
    await userEvent.type(within(dialog).getByTestId('building-postcode'), '8615');
    const add = within(dialog).getByTestId('building-floor-add');
    await userEvent.click(add);
    await userEvent.keyboard('EG');
    await userEvent.click(add);
    await userEvent.keyboard('eg');
    await userEvent.click(add);
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('building-postcode-field-error')).toHaveTextContent(
      'Eine Postleitzahl hat fünf Ziffern.',
    );
    expect(within(dialog).getByTestId('building-postcode')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('building-state-field-error')).toHaveTextContent(
      'Bitte wählen Sie ein Bundesland.',
    );
    expect(screen.getByTestId('building-floor-1-error')).toHaveTextContent(
      'Dieses Geschoss steht schon in der Liste.',
    );
    expect(screen.getByTestId('building-floor-2-error')).toHaveTextContent(
      'Bitte füllen Sie dieses Feld aus.',
    );
    expect(screen.queryByTestId('building-floor-0-error')).toBeNull();
    expect(calls(fetchMock, 'POST', '/api/companies/c1/buildings')).toHaveLength(0);
    // Fixing a floor clears its message at once; removing the empty one clears the other.
    const second = within(dialog).getByTestId('building-floor-1');
    await userEvent.clear(second);
    await userEvent.type(second, 'OG');
    await waitFor(() => expect(screen.queryByTestId('building-floor-1-error')).toBeNull());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Geschoss 3 entfernen' }));
    expect(screen.queryByTestId('building-floor-2-error')).toBeNull();
    // The focus stays in the list, on the floor above.
    expect(within(dialog).getByTestId('building-floor-1')).toHaveFocus();
  });

  it('orders the floors by keyboard, the focus staying on the moved floor', async () => {
    const main = testBuilding();
    const { fetchMock } = open([main], (method, url) =>
      method === 'PATCH' && url === `/api/companies/c1/buildings/${main.id}` ? json(200, main) : undefined,
    );
    await userEvent.click(await screen.findByTestId(`building-edit-${main.id}`));
    const dialog = await screen.findByTestId('building-dialog');
    const down = within(dialog).getByRole('button', { name: 'Move floor 1 down' });
    expect(within(dialog).getByRole('button', { name: 'Move floor 1 up' })).toBeDisabled();
    down.focus();
    await userEvent.keyboard('{Enter}');
    // "KG" is second now; its "down" button keeps the focus.
    expect(within(dialog).getByTestId('building-floor-1')).toHaveValue('KG');
    expect(within(dialog).getByTestId('building-floor-down-1')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    // At the bottom its "down" is disabled: the focus moves to its "up".
    expect(within(dialog).getByTestId('building-floor-2')).toHaveValue('KG');
    expect(within(dialog).getByTestId('building-floor-up-2')).toHaveFocus();
    await userEvent.click(within(dialog).getByTestId('building-holidays-ignore'));
    expect(within(dialog).queryByTestId('building-mode')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('toast-building-saved')).toHaveTextContent('Building saved');
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/buildings/${main.id}`)[0])).toEqual({
      name: 'Hauptgebäude',
      street: 'Maximilianstraße 1',
      postcode: '86150',
      city: 'Augsburg',
      state: 'BY',
      region: 'A',
      floors: ['EG', '1. OG', 'KG'],
      publicHolidays: 'ignore',
      holidayMode: 'frost',
    });
  });

  it("shows the server's refusal of the holiday region under the region, in German", async () => {
    const message = 'The federal state has no holiday region "A".';
    const main = testBuilding();
    const { fetchMock } = open(
      [main],
      (method, url) =>
        method === 'PATCH' && url === `/api/companies/c1/buildings/${main.id}`
          ? problem(
              400,
              'Bad Request',
              message,
              [{ field: 'body.region', message, code: 'unknown_holiday_region', params: { region: 'A' } }],
              'unknown_holiday_region',
            )
          : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Gebäude Hauptgebäude bearbeiten' }));
    const dialog = await screen.findByTestId('building-dialog');
    expect(within(dialog).getByTestId('building-created')).toHaveTextContent('Angelegt von Ada Lovelace');
    expect(within(dialog).getByTestId('building-state')).toHaveValue('BY');
    await waitFor(() => expect(within(dialog).getByTestId('building-region')).toHaveValue('A'));
    expect(within(dialog).getByTestId('building-floor-2')).toHaveValue('1. OG');
    expect(within(dialog).getByTestId('building-mode')).toHaveValue('frost');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('building-region-field-error')).toHaveTextContent(
      'Das Bundesland hat keine Feiertagsregion „A“.',
    );
    expect(within(dialog).getByTestId('building-region')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByTestId('toast-building-error')).toHaveTextContent(
      'Fehler beim Speichern des Gebäudes',
    );
    expect(document.body.textContent).not.toContain(message);
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/buildings/${main.id}`)[0])).toMatchObject({
      state: 'BY',
      region: 'A',
      floors: ['KG', 'EG', '1. OG'],
    });
  });

  it('deletes a building after a confirmation saying its units stay', async () => {
    const main = testBuilding();
    const { fetchMock } = open([main], (method, url) =>
      method === 'DELETE' && url === `/api/companies/c1/buildings/${main.id}` ? json(204) : undefined,
    );
    await userEvent.click(await screen.findByTestId(`building-delete-${main.id}`));
    const confirm = await screen.findByTestId('building-delete-dialog');
    expect(confirm).toHaveTextContent('The building “Hauptgebäude” will be deleted.');
    expect(confirm).toHaveTextContent('Its 12 units stay; they are then in no building and on no floor.');
    expect(calls(fetchMock, 'DELETE', '/api/companies/c1/buildings')).toHaveLength(0);
    await userEvent.click(within(confirm).getByTestId('building-delete-dialog-confirm'));
    expect(await screen.findByTestId('toast-building-deleted')).toHaveTextContent('Building deleted');
    expect(calls(fetchMock, 'DELETE', `/api/companies/c1/buildings/${main.id}`)).toHaveLength(1);
  });

  it('lists the public holidays of the year with weekday, regional badge and effect, and switches year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T10:00:00Z'));
    const main = testBuilding();
    const { fetchMock } = open([main], undefined, 'de');
    await setLanguage('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Feiertage von Hauptgebäude anzeigen' }));
    const dialog = await screen.findByTestId('holidays-dialog');
    expect(dialog).toHaveTextContent('Feiertage 2026');
    expect(dialog).toHaveTextContent('Hauptgebäude · Bayern (Augsburg)');
    expect(within(dialog).getByTestId('holidays-note')).toHaveTextContent(
      'Betriebsart an Feiertagen: Frostschutz (8 °C), von 00:00 bis 24:00 Uhr (Europe/Berlin).',
    );
    expect(await within(dialog).findByTestId('holiday-date-2026-01-06')).toHaveTextContent('Di., 06.01.2026');
    expect(within(dialog).getByTestId('holiday-2026-01-06')).toHaveTextContent('Heilige Drei Könige');
    expect(within(dialog).getByTestId('holiday-effect-2026-01-06')).toHaveTextContent(
      'Frostschutz (8 °C), ganztägig',
    );
    expect(within(dialog).getByTestId('holiday-regional-2026-08-08')).toHaveTextContent('regional');
    expect(within(dialog).queryByTestId('holiday-regional-2026-01-01')).toBeNull();
    expect(
      String(calls(fetchMock, 'GET', `/api/companies/c1/buildings/${main.id}/holidays`)[0]?.[0]),
    ).toContain('year=2026&lang=de');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Nächstes Jahr' }));
    expect(within(dialog).getByTestId('holidays-year')).toHaveTextContent('2027');
    expect(await within(dialog).findByTestId('holiday-date-2027-01-06')).toHaveTextContent('Mi., 06.01.2027');
    expect(dialog).toHaveTextContent('Feiertage 2027');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vorheriges Jahr' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vorheriges Jahr' }));
    expect(await within(dialog).findByTestId('holiday-date-2025-01-06')).toHaveTextContent('Mo., 06.01.2025');
    const years = calls(fetchMock, 'GET', `/api/companies/c1/buildings/${main.id}/holidays`).map((call) =>
      new URL(String(call[0]), 'http://x').searchParams.get('year'),
    );
    expect(years).toEqual(['2026', '2027', '2025']);
  });

  it('says public holidays change nothing in a building that ignores them', async () => {
    open([annex]);
    await userEvent.click(await screen.findByTestId(`building-holidays-${annex.id}`));
    const dialog = await screen.findByTestId('holidays-dialog');
    expect(within(dialog).getByTestId('holidays-note')).toHaveTextContent(
      'Public holidays have no effect in this building: the units heat by their plans. Under “Edit”',
    );
    const [first] = await within(dialog).findAllByTestId(/^holiday-effect-/);
    expect(first).toHaveTextContent('Heating by plan');
  });

  it('formats holiday dates in either language, whatever the browser zone', () => {
    expect(formatHolidayDate('2026-12-25', 'de')).toBe('Fr., 25.12.2026');
    expect(formatHolidayDate('2026-12-25', 'en')).toBe('Fri, 12/25/2026');
  });

  it('shows a member who only reads (ems) buildings and holidays without any control to change them', async () => {
    open([testBuilding()], undefined, 'en', 'ems');
    const table = await screen.findByTestId('buildings-table');
    expect(within(table).getByText('Hauptgebäude')).toBeInTheDocument();
    expect(screen.queryByTestId('building-new')).toBeNull();
    expect(within(table).queryAllByRole('button', { name: /building/ })).toEqual([]);
    await userEvent.click(
      within(table).getByRole('button', { name: 'Show the public holidays of Hauptgebäude' }),
    );
    const dialog = await screen.findByTestId('holidays-dialog');
    expect(await within(dialog).findAllByTestId(/^holiday-effect-/)).toHaveLength(3);
    expect(dialog).not.toHaveTextContent('Edit');
  });

  it('shows a member who only reads (ems) an empty list without a create button', async () => {
    open([], undefined, 'en', 'ems');
    const empty = await screen.findByTestId('buildings-empty');
    expect(within(empty).queryByTestId('buildings-empty-new')).toBeNull();
    expect(within(empty).getByTestId('buildings-read-only')).toHaveTextContent(
      'Your role may only view buildings.',
    );
  });
});
