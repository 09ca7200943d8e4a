/**
 * Buildings screen (decision 0052): the list with address, federal state (and region), floors,
 * units and holiday treatment; the empty state saying buildings are optional and what they give;
 * creating one sends the contract's body (state, region, floors, treatment); a postcode of four
 * digits is refused before any request; the server's refusal of a region shows under the region;
 * deleting asks first and says the units stay; the holidays of a year, switched year by year,
 * with links to the building's closures and booking calendars; a member who only reads (ems)
 * sees everything but gets no control to change anything.
 */
import type { Building, BuildingDay, Holiday, HolidayList } from '@heizplan/contracts/buildings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { testBuilding } from '../../test/buildings-fixtures.ts';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem } from '../../test/units-fixtures.ts';
import { formatHolidayDate } from './holiday-dates.ts';

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

const holidayListOf = (year: number): HolidayList => ({
  results: holidaysOf(year),
  schoolHolidays: [
    { start: `${year}-02-16`, end: `${year}-02-20`, name: 'Frühjahrsferien' },
    { start: `${year}-11-18`, end: `${year}-11-18`, name: 'Buß- und Bettag' },
    { start: `${year}-12-24`, end: `${year + 1}-01-08`, name: 'Weihnachtsferien' },
  ],
  schoolHolidaysUntil: '2029-09-30',
});

/** The screen's clock: the holidays dialog opens on its year. */
const NOW = new Date('2026-06-01T10:00:00Z');

function open(
  buildings: Building[] = [],
  more?: FetchHandler,
  lang: 'en' | 'de' = 'en',
  role: 'admin' | 'heating' | 'ems' = 'admin',
  now: Date = NOW,
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
    if (method === 'GET' && holidays) return json(200, holidayListOf(Number(query.get('year'))));
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/buildings', { session, clock: fixedClock(now) }), fetchMock };
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
    // The outdoor temperature the weather provider last observed, with its hour in the company's zone.
    const outdoor = within(table).getByTestId(`building-outdoor-${main.id}`);
    expect(outdoor).toHaveTextContent('jetzt außen -2,5 °C');
    expect(outdoor).toHaveAttribute('title', 'Gemessen um 10:00 Uhr (DWD über Bright Sky)');
    // On a phone, under the name.
    expect(within(table).getByTestId(`building-heating-phone-${main.id}`)).toHaveTextContent(
      'jetzt außen -2,5 °C',
    );
    expect(within(table).getByTestId(`building-heating-phone-${main.id}`)).toHaveClass('md:hidden');
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
    // Its rooms, report and meters one click away.
    expect(within(table).getByRole('link', { name: 'Räume von Hauptgebäude' })).toHaveAttribute(
      'href',
      `/units?building=${main.id}`,
    );
    expect(within(table).getByRole('link', { name: 'Bericht von Hauptgebäude' })).toHaveAttribute(
      'href',
      `/reports?buildingId=${main.id}`,
    );
    expect(within(table).getByRole('link', { name: 'Zähler und Ziele von Hauptgebäude' })).toHaveAttribute(
      'href',
      `/reports?buildingId=${main.id}#meters`,
    );
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
    // Coordinates as a map shows them, with a decimal comma or point.
    await userEvent.type(within(dialog).getByTestId('building-latitude'), '48,3705');
    await userEvent.type(within(dialog).getByTestId('building-longitude'), '10.8978');
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
    // Bavaria has holidays in part of it only: the form asks, and offers what the postcode says.
    const question = within(dialog).getByTestId('building-region-question');
    expect(question).toHaveTextContent('In Bavaria some public holidays apply in part of the state only.');
    expect(question).toHaveTextContent('Assumption Day (15 August)');
    await userEvent.click(
      within(question).getByRole('button', { name: 'Take “Augsburg (city)” (postcode 86150)' }),
    );
    expect(region).toHaveValue('A');
    expect(within(dialog).queryByTestId('building-region-question')).toBeNull();

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
    // A school: its school holidays too, in the same mode; "like a Sunday" needs no mode.
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /School holidays as a closure/ }));
    await userEvent.click(within(dialog).getByTestId('building-holidays-sunday'));
    expect(within(dialog).getByTestId('building-mode')).toHaveValue('economy');
    await userEvent.click(within(dialog).getByTestId('building-holidays-closure'));
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
      schoolHolidays: true,
      latitude: 48.3705,
      longitude: 10.8978,
      outdoorSensorId: null,
      occupantMaxTemperature: null,
      occupantBand: null,
    });
    await waitFor(() => expect(screen.queryByTestId('building-dialog')).toBeNull());
  });

  it("sets the occupants' limits of a building as a German types them, and says what empty means", async () => {
    const main = testBuilding();
    const { fetchMock } = open(
      [main],
      (method, url) =>
        method === 'PATCH' && url === `/api/companies/c1/buildings/${main.id}` ? json(200, main) : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(await screen.findByTestId(`building-edit-${main.id}`));
    const dialog = await screen.findByTestId('building-dialog');
    const occupants = within(dialog).getByRole('group', { name: 'Raumnutzer auf der QR-Seite' });
    expect(occupants).toHaveTextContent(
      'Leer lassen für die Werte der Firma: höchstens 24,0 °C, Spielraum 2 K.',
    );
    const ceiling = within(occupants).getByRole('textbox', { name: 'Höchste Temperatur (°C)' });
    const band = within(occupants).getByRole('textbox', { name: 'Spielraum um den Plan (K)' });
    await userEvent.type(ceiling, '22,5');
    await userEvent.type(band, '12');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('building-occupants-band-field-error')).toHaveTextContent(
      'Einen Spielraum von 0,5 bis 10 K eingeben oder leer lassen.',
    );
    expect(calls(fetchMock, 'PATCH', `/api/companies/c1/buildings/${main.id}`)).toHaveLength(0);
    await userEvent.clear(band);
    await userEvent.type(band, '1,5');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('toast-building-saved')).toHaveTextContent('Gebäude gespeichert');
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/buildings/${main.id}`)[0])).toMatchObject({
      occupantMaxTemperature: 22.5,
      occupantBand: 1.5,
    });
  });

  it('refuses a latitude out of range and a latitude without longitude, naming field and limits', async () => {
    const { fetchMock } = open([], undefined, 'de');
    await setLanguage('de');
    const dialog = await newBuildingDialog();
    await userEvent.type(within(dialog).getByTestId('building-name'), 'Schule');
    await userEvent.selectOptions(within(dialog).getByTestId('building-state'), 'BY');
    const latitude = within(dialog).getByTestId('building-latitude');
    await userEvent.type(latitude, '95');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('building-latitude-field-error')).toHaveTextContent(
      'Der Breitengrad ist eine Zahl von -90 bis 90.',
    );
    await userEvent.clear(latitude);
    await userEvent.type(latitude, '48,1');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('building-longitude-field-error')).toHaveTextContent(
      'Geben Sie Breiten- und Längengrad zusammen an oder beide nicht.',
    );
    expect(calls(fetchMock, 'POST', '/api/companies/c1/buildings')).toHaveLength(0);
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
    expect(await screen.findByTestId('building-state-field-error')).toHaveTextContent(
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
      schoolHolidays: false,
      // Shown in the English form as "48.3705", sent back unchanged.
      latitude: 48.3705,
      longitude: 10.8978,
      outdoorSensorId: null,
      occupantMaxTemperature: null,
      occupantBand: null,
    });
  });

  it('chooses an unassigned sensor as outdoor sensor, in German, and lists its reading as the sensor’s', async () => {
    const main = testBuilding({
      outdoor: { temperature: 3.5, at: '2026-11-26T09:00:00.000Z', kind: 'sensor', provider: 'sensor' },
    });
    const sensors = ['a81758fffe0000a1', 'a81758fffe0000a2'].map((id) => ({ id, model: 'elsys-ers' }));
    const { fetchMock } = open(
      [main],
      (method, url) => {
        if (method === 'GET' && url.split('?')[0] === '/api/companies/c1/devices')
          return json(200, { results: sensors, count: 2, page: 1, size: 200 });
        if (method === 'PATCH' && url === `/api/companies/c1/buildings/${main.id}`)
          return json(200, { ...main, outdoorSensorId: 'a81758fffe0000a2' });
        return undefined;
      },
      'de',
    );
    await setLanguage('de');
    expect(await screen.findByTestId(`building-outdoor-${main.id}`)).toHaveAttribute(
      'title',
      'Gemessen vom Außenfühler um 10:00 Uhr',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Gebäude Hauptgebäude bearbeiten' }));
    const dialog = await screen.findByTestId('building-dialog');
    const select = within(dialog).getByRole('combobox', { name: 'Außenfühler (optional)' });
    expect(select).toHaveValue('');
    await waitFor(() =>
      expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
        'keiner',
        'a81758fffe0000a1',
        'a81758fffe0000a2',
      ]),
    );
    expect(within(dialog).getByTestId('building-outdoor-sensor-field')).toHaveTextContent(
      'Seine Messwerte haben Vorrang vor denen des Wetterdienstes',
    );
    // Only the company's sensors without a unit are offered.
    const [listed] = calls(fetchMock, 'GET', '/api/companies/c1/devices');
    const query = new URL(String(listed?.[0]), 'http://localhost').searchParams;
    expect([query.get('unassigned'), query.get('kind')]).toEqual(['true', 'sensor']);
    await userEvent.selectOptions(select, 'a81758fffe0000a2');
    await userEvent.click(within(dialog).getByTestId('building-save'));
    expect(await screen.findByTestId('toast-building-saved')).toHaveTextContent('Gebäude gespeichert');
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/buildings/${main.id}`)[0])).toMatchObject({
      outdoorSensorId: 'a81758fffe0000a2',
      latitude: 48.3705,
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
    const main = testBuilding();
    const { fetchMock } = open([main], undefined, 'de');
    await setLanguage('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Feiertage von Hauptgebäude anzeigen' }));
    const dialog = await screen.findByTestId('holidays-dialog');
    expect(dialog).toHaveTextContent('Feier- und Ferientage 2026');
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
    expect(dialog).toHaveTextContent('Feier- und Ferientage 2027');
    const school = within(dialog).getByTestId('school-holidays');
    expect(school).toHaveTextContent('Schulferien 2027');
    expect(within(school).getByTestId('school-holiday-2027-12-24')).toHaveTextContent(
      'Fr., 24.12.2027 – Sa., 08.01.2028Weihnachtsferien',
    );
    expect(within(school).getByTestId('school-holiday-2027-11-18')).toHaveTextContent('Do., 18.11.2027Buß');
    expect(within(school).getByTestId('school-holidays-note')).toHaveTextContent(
      'Schulferien wirken sich in diesem Gebäude nicht aus.',
    );
    expect(within(school).getByTestId('school-holidays-source')).toHaveTextContent(
      'OpenHolidays API (ODbL), Stand bis So., 30.09.2029.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vorheriges Jahr' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vorheriges Jahr' }));
    expect(await within(dialog).findByTestId('holiday-date-2025-01-06')).toHaveTextContent('Mo., 06.01.2025');
    const years = calls(fetchMock, 'GET', `/api/companies/c1/buildings/${main.id}/holidays`).map((call) =>
      new URL(String(call[0]), 'http://x').searchParams.get('year'),
    );
    expect(years).toEqual(['2026', '2027', '2025']);
    const calendars = within(dialog).getByTestId('building-calendars');
    expect(within(calendars).getByRole('heading')).toHaveTextContent(
      'Schließzeiten und Buchungskalender dieses Gebäudes',
    );
    expect(within(calendars).getByRole('link', { name: 'Schließzeiten anzeigen' })).toHaveAttribute(
      'href',
      `/closures?building=${main.id}`,
    );
    expect(within(calendars).getByRole('link', { name: 'Buchungskalender anzeigen' })).toHaveAttribute(
      'href',
      `/booking-feeds?building=${main.id}`,
    );
  });

  it.each([
    { link: 'Show closures', path: '/closures' },
    { link: 'Show booking calendars', path: '/booking-feeds' },
  ])("opens the building's list from the holidays dialog, closing it: $link", async ({ link, path }) => {
    const { router } = open([annex]);
    await userEvent.click(await screen.findByTestId(`building-holidays-${annex.id}`));
    const calendars = within(await screen.findByTestId('holidays-dialog')).getByTestId('building-calendars');
    expect(within(calendars).getByRole('heading')).toHaveTextContent(
      "This building's closures and booking calendars",
    );
    await userEvent.click(within(calendars).getByRole('link', { name: link }));
    await waitFor(() => expect(router.location().pathname).toBe(path));
    expect(router.location().search).toBe(`?building=${annex.id}`);
    expect(screen.queryByTestId('holidays-dialog')).toBeNull();
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
    // The report, yes; the meters and targets it cannot keep, no.
    expect(within(table).getByRole('link', { name: 'Report of Hauptgebäude' })).toBeVisible();
    expect(within(table).queryByRole('link', { name: /Meters and targets/ })).toBeNull();
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

  it('adds, imports and deletes own days in the holidays dialog; a reader sees them without controls', async () => {
    const main = testBuilding();
    const path = `/api/companies/c1/buildings/${main.id}/days`;
    let days: BuildingDay[] = [];
    let made = 0;
    const day = (date: string, name: string): BuildingDay => ({
      id: `00000000-0000-4000-a000-0000000001${String(++made).padStart(2, '0')}`,
      date,
      name,
      createdAt: '2027-03-01T10:00:00.000Z',
      createdBy: null,
    });
    const daysApi: FetchHandler = (method, url, init) => {
      const [p] = url.split('?');
      if (method === 'GET' && p === path) return json(200, { results: days });
      if (method === 'POST' && p === path) {
        const body = JSON.parse(String(init?.body));
        if (days.some((d) => d.date === body.date))
          return json(409, {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            code: 'building_day_exists',
            params: { date: body.date },
          });
        days = [...days, day(body.date, body.name)];
        return json(201, days.at(-1));
      }
      if (method === 'POST' && p === `${path}/import`) {
        days = [...days, day('2027-05-14', 'Betriebsausflug'), day('2027-05-15', 'Betriebsausflug')];
        return json(200, { imported: 2, skipped: 1 });
      }
      if (method === 'DELETE' && p?.startsWith(`${path}/`)) {
        days = days.filter((d) => !p.endsWith(d.id));
        return json(204);
      }
      return undefined;
    };
    // In 2027: the dialog opens on that year, where the days are added.
    const { fetchMock } = open([main], daysApi, 'de', 'admin', new Date('2027-03-01T10:00:00Z'));
    await setLanguage('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Feiertage von Hauptgebäude anzeigen' }));
    const section = within(await screen.findByTestId('holidays-dialog')).getByTestId('own-days');
    expect(await within(section).findByTestId('own-days-none')).toHaveTextContent(
      'Für 2027 sind keine eigenen Tage eingetragen.',
    );
    // The contract's rules before any request: a date and a name are needed.
    await userEvent.click(within(section).getByTestId('own-day-add'));
    expect(calls(fetchMock, 'POST', path)).toHaveLength(0);
    await userEvent.type(within(section).getByTestId('own-day-date'), '2027-05-07');
    await userEvent.type(within(section).getByTestId('own-day-name'), 'Brückentag');
    await userEvent.click(within(section).getByTestId('own-day-add'));
    expect(await screen.findByTestId('toast-day-added')).toHaveTextContent('Tag hinzugefügt');
    expect(bodyOf(calls(fetchMock, 'POST', path)[0])).toEqual({ date: '2027-05-07', name: 'Brückentag' });
    expect(await within(section).findByTestId('own-day-2027-05-07')).toHaveTextContent(
      'Fr., 07.05.2027BrückentagFrostschutz (8 °C), ganztägig',
    );
    // The same date again: the server's refusal under the form, in German.
    await userEvent.type(within(section).getByTestId('own-day-date'), '2027-05-07');
    await userEvent.type(within(section).getByTestId('own-day-name'), 'Nochmal');
    await userEvent.click(within(section).getByTestId('own-day-add'));
    expect(await within(section).findByTestId('own-day-error')).toHaveTextContent(
      'Für den 2027-05-07 hat das Gebäude schon einen eigenen Tag.',
    );

    const ics = new File(['BEGIN:VCALENDAR\r\nEND:VCALENDAR'], 'betrieb.ics', { type: 'text/calendar' });
    await userEvent.upload(within(section).getByTestId('own-days-file'), ics);
    expect(await screen.findByTestId('toast-days-imported')).toHaveTextContent(
      '2 Tage importiert1 Tag war schon eingetragen.',
    );
    expect(bodyOf(calls(fetchMock, 'POST', `${path}/import`)[0])).toEqual({
      ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR',
    });
    await within(section).findByTestId('own-day-2027-05-15');

    await userEvent.click(
      within(section).getByRole('button', { name: 'Brückentag am Fr., 07.05.2027 löschen' }),
    );
    expect(await screen.findByTestId('toast-day-deleted')).toHaveTextContent('Tag gelöscht');
    await waitFor(() => expect(within(section).queryByTestId('own-day-2027-05-07')).toBeNull());
  });

  it('shows a reader the own days without a form or delete buttons', async () => {
    const main = testBuilding();
    const listed: BuildingDay = {
      id: '00000000-0000-4000-a000-000000000301',
      date: `${NOW.getUTCFullYear()}-12-24`,
      name: 'Heiligabend frei',
      createdAt: '2026-01-01T00:00:00.000Z',
      createdBy: null,
    };
    open(
      [main],
      (method, url) =>
        method === 'GET' && url.startsWith(`/api/companies/c1/buildings/${main.id}/days`)
          ? json(200, { results: [listed] })
          : undefined,
      'en',
      'ems',
    );
    await userEvent.click(
      await screen.findByRole('button', { name: 'Show the public holidays of Hauptgebäude' }),
    );
    const section = within(await screen.findByTestId('holidays-dialog')).getByTestId('own-days');
    expect(await within(section).findByTestId(`own-day-${listed.date}`)).toHaveTextContent(
      'Heiligabend frei',
    );
    expect(within(section).queryByTestId('own-day-form')).toBeNull();
    expect(within(section).queryAllByRole('button')).toEqual([]);
  });
});
