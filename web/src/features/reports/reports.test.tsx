/**
 * The reports screen (decision 0061): key figures in German, drilling down from the company to a
 * building and a room (the request's scope follows, the address keeps it), the month's files,
 * a building's meters and targets only for members who operate (the share typed in percent,
 * refused above 100 %), and a period without readings.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { buildingsApi, testBuilding } from '../../test/buildings-fixtures.ts';
import { fixedClock, testNow } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { BUILDING_ID, OTHER_UNIT_ID, reportsApi, testReport, UNIT_ID } from './report-fixtures.ts';
import { defaultMonth, monthOfDate } from './report-view.ts';

// uPlot needs a canvas jsdom does not have; the chart's options are checked in report-view.test.ts.
vi.mock('./components/days-chart.tsx', () => ({
  default: ({ days }: { days: unknown[] }) => <div data-testid="report-chart">{days.length}</div>,
}));

/**
 * The screen's clock. The reports viewed are November 2026's (the fixtures'), named in the
 * address; without one the screen opens on the month of `NOW`. HEIZPLAN_TEST_NOW moves it.
 */
const NOW = testNow('2026-12-08T09:00:00+01:00');

function open(
  path: string,
  { role = 'admin', api = reportsApi() }: { role?: 'admin' | 'ems'; api?: FetchHandler } = {},
) {
  const building = testBuilding({ id: BUILDING_ID, name: 'Hauptgebäude' });
  const { session, fetchMock } = signIn({
    role,
    profile: testProfile({ lang: 'de' }),
    extra: (method, url, init) => api(method, url, init) ?? buildingsApi([building])(method, url, init),
  });
  return { ...renderRoutes(routes, path, { session, clock: fixedClock(NOW) }), fetchMock };
}

/** The URLs of the report requests so far. */
const reportCalls = (fetchMock: ReturnType<typeof open>['fetchMock']) =>
  fetchMock.mock.calls
    .map(([url]) => String(url))
    .filter((url) => url.startsWith('/api/companies/c1/reports?'));

describe('reports screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the key figures in German', async () => {
    open('/reports?month=2026-11');
    expect(await screen.findByTestId('kpi-comfort-value')).toHaveTextContent('12 %');
    expect(screen.getByTestId('kpi-comfort')).toHaveTextContent('Unter Komfort');
    expect(screen.getByTestId('kpi-comfort')).toHaveTextContent('mehr als 0,5 K unter dem Sollwert');
    expect(screen.getByTestId('kpi-comfort')).toHaveTextContent('600 h belegt');
    expect(screen.getByTestId('kpi-heating-value')).toHaveTextContent('1.234,5 h');
    expect(screen.getByTestId('kpi-heating')).toHaveTextContent('3 h je Gradtag');
    expect(screen.getByTestId('kpi-setback-value')).toHaveTextContent('980 h');
    expect(screen.getByTestId('kpi-window-value')).toHaveTextContent('6,5 h');
    expect(screen.getByTestId('kpi-degree-days-value')).toHaveTextContent('412 Kd');
    expect(screen.getByTestId('kpi-degree-days')).toHaveTextContent('Ø außen 4,2 °C');
    expect(screen.getByTestId('kpi-change-previous')).toHaveTextContent('−10 % ggü. Vormonat');
    expect(screen.getByTestId('kpi-change-previous-year')).toHaveTextContent('+5 % ggü. Vorjahr');
    expect(screen.getByTestId('kpi-energy-value')).toHaveTextContent('12.345,6 kWh');
    expect(screen.getByTestId('kpi-energy')).toHaveTextContent('29,97 kWh je Gradtag');
    expect(screen.getByTestId('kpi-energy-per-m2')).toHaveTextContent('8,2 kWh/m²');
    expect(screen.getByTestId('kpi-saving-value')).toHaveTextContent('18 %');
    expect(screen.getByTestId('kpi-saving-hint')).toHaveTextContent(
      'Schätzung gegenüber einem Referenzplan (Komfort Mo–Fr 07:00–18:00, sonst 4 K abgesenkt), keine Messung',
    );
    expect(screen.getByTestId('report-summary')).toHaveTextContent(
      '01.11.2026 – 30.11.2026 · 3 Räume mit Messwerten · Datenabdeckung 95 %',
    );
    expect(screen.getByTestId('report-category-i')).toHaveTextContent('Kategorie I (ab 21 °C): 300 h · 50 %');
    const missed = screen.getByTestId('report-targets-missed');
    expect(missed).toHaveTextContent('Heizstunden je Gradtag: 3 h – Ziel höchstens 2,5 h');
    expect(missed).toHaveTextContent('Anteil unter Komfort: 12 % – Ziel höchstens 10 %');
    const losses = screen.getByTestId('report-losses');
    expect(within(losses).getByText('Geheizt bei offenem Fenster')).toBeInTheDocument();
    expect(within(losses).getByText('Gerät meldet zu selten')).toBeInTheDocument();
    expect(losses).toHaveTextContent('35 % der Zeit');
    // Occupants complained while the figures say comfortable: the finding, counted in complaints.
    const complaints = within(losses).getByTestId(`report-loss-complaints_despite_comfort-${OTHER_UNIT_ID}`);
    expect(complaints).toHaveTextContent(
      'Beschwerden trotz Komfortwerten: Fühler falsch platziert, Zugluft oder ein Plan, der die Nutzung verfehlt?',
    );
    expect(complaints).toHaveTextContent('4 Beschwerden');
    expect(screen.getByTestId('kpi-comfort-feedback')).toHaveTextContent(
      'Raumnutzer: 1 × zu warm, 4 × zu kalt',
    );
    expect(screen.getByTestId('report-overrides-web')).toHaveTextContent(
      'In der Web-App: 4 Änderungen · 7,5 h',
    );
    expect(screen.getByTestId('report-overrides-value')).toHaveTextContent('5');
    expect(screen.getByTestId(`report-rows-row-building-${BUILDING_ID}`)).toHaveTextContent('21,5 °C');
    // Beside the comfort figures: how often occupants said "zu warm" and "zu kalt".
    const rows = screen.getByRole('table', { name: 'Gebäude' });
    expect(within(rows).getByRole('columnheader', { name: /Zu warm/ })).toBeInTheDocument();
    expect(within(rows).getByRole('columnheader', { name: /Zu kalt/ })).toBeInTheDocument();
    expect(await screen.findByTestId('report-chart')).toHaveTextContent('2');
    expect(screen.getAllByTestId('nav-reports')[0]).toHaveTextContent('Berichte');
  });

  it('names the daily chart with its last day and shows its days as a table', async () => {
    open('/reports?month=2026-11');
    expect(
      await screen.findByRole('img', {
        name: 'Tagesverlauf Stadtwerke, 01.11.2026 bis 02.11.2026: zuletzt am 02.11.2026 Raumtemperatur 21,0 °C, Soll 21,0 °C, außen 5,0 °C, 35 h geheizt',
      }),
    ).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Daten als Tabelle' });
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = screen.getByRole('table', { name: 'Tageswerte Stadtwerke, 01.11.2026 bis 02.11.2026' });
    const first = within(table).getByRole('row', { name: /^01\.11\.2026/ });
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['20,5 °C', '21,0 °C', '3,0 °C', '40 h']);
  });

  it('drills down from the company to a building and a room, and back up, in the address too', async () => {
    const { fetchMock, router } = open('/reports?month=2026-11');
    await userEvent.click(await screen.findByTestId(`report-row-link-${BUILDING_ID}`));
    // The building's name comes with the buildings list, which may arrive after the report.
    await waitFor(() =>
      expect(screen.getByTestId('report-crumb-building')).toHaveTextContent('Hauptgebäude'),
    );
    expect(router.location().search).toBe(`?month=2026-11&buildingId=${BUILDING_ID}`);
    expect(reportCalls(fetchMock).at(-1)).toBe(
      `/api/companies/c1/reports?month=2026-11&buildingId=${BUILDING_ID}`,
    );

    await userEvent.click(await screen.findByTestId(`report-row-link-${UNIT_ID}`));
    await waitFor(() => expect(screen.getByTestId('report-crumb-unit')).toHaveTextContent('Aula'));
    // The room's report alone is asked for; the building stays for the breadcrumb.
    expect(reportCalls(fetchMock).at(-1)).toBe(`/api/companies/c1/reports?month=2026-11&unitId=${UNIT_ID}`);
    expect(router.location().search).toBe(`?month=2026-11&buildingId=${BUILDING_ID}&unitId=${UNIT_ID}`);
    // The building's name comes with the buildings list, which may arrive after the report.
    await waitFor(() =>
      expect(screen.getByTestId('report-crumb-building')).toHaveTextContent('Hauptgebäude'),
    );

    await userEvent.click(screen.getByTestId('report-crumb-company'));
    await waitFor(() => expect(router.location().search).toBe('?month=2026-11'));
    expect(await screen.findByTestId(`report-row-link-${BUILDING_ID}`)).toBeInTheDocument();
  });

  it('opens on the month of today, or the one before in a month’s first days, and goes no further than today', async () => {
    const { fetchMock } = open('/reports');
    const month = defaultMonth(NOW);
    await waitFor(() =>
      expect(reportCalls(fetchMock).at(-1)).toBe(`/api/companies/c1/reports?month=${month}`),
    );
    expect(await screen.findByLabelText('Monat wählen')).toHaveValue(month);
    // In a month's first days the month before shows, and the current one is a step ahead.
    const next = screen.getByRole('button', { name: 'Nächster Zeitraum' });
    if (month === monthOfDate(NOW)) expect(next).toBeDisabled();
    else expect(next).toBeEnabled();
  });

  it('moves by month and switches to the heating season holding the month', async () => {
    const { fetchMock, router } = open('/reports?month=2026-11');
    await screen.findByTestId('report-content');
    await userEvent.click(screen.getByTestId('report-period-previous'));
    await waitFor(() => expect(reportCalls(fetchMock).at(-1)).toContain('month=2026-10'));
    await userEvent.click(screen.getByTestId('report-period-season'));
    expect(await screen.findByTestId('report-season')).toHaveTextContent('Heizperiode 2026/27');
    await waitFor(() => expect(reportCalls(fetchMock).at(-1)).toBe('/api/companies/c1/reports?season=2026'));
    expect(router.location().search).toBe('?season=2026');
  });

  it('downloads the month of the scope shown in each format, and none for a season', async () => {
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`);
    await screen.findByTestId('report-content');
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    for (const format of ['excel', 'csv', 'xlsx', 'pdf']) {
      await userEvent.click(screen.getByTestId(`report-export-${format}`));
      await waitFor(() =>
        expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
          `/api/companies/c1/reports/export?month=2026-11&buildingId=${BUILDING_ID}&format=${format}&lang=de`,
        ),
      );
    }
    expect(createObjectURL).toHaveBeenCalledTimes(4);
    expect(screen.getByTestId('report-export-excel')).toHaveTextContent('Excel (CSV)');

    await userEvent.click(screen.getByTestId('report-period-season'));
    expect(await screen.findByTestId('report-export-season-hint')).toHaveTextContent(
      'Herunterladen können Sie einen einzelnen Monat.',
    );
    expect(screen.getByTestId('report-export-pdf')).toBeDisabled();
    expect(screen.getByTestId('report-export-pdf')).toHaveAttribute('title');
  });

  it('saves the monthly mail at once', async () => {
    const { fetchMock } = open('/reports?month=2026-11');
    const toggle = await screen.findByTestId('report-subscription');
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.click(toggle);
    expect(await screen.findByTestId('toast-report-subscription')).toHaveTextContent(
      'Sie erhalten den Monatsbericht jetzt per E-Mail.',
    );
    const put = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/reports/subscription') && init?.method === 'PUT',
    );
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ subscribed: true });
    expect(toggle).toBeChecked();
  });

  it('hides the meters and targets from a member who only reads', async () => {
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`, { role: 'ems' });
    expect(await screen.findByTestId('report-content')).toBeInTheDocument();
    expect(screen.getByTestId('report-exports')).toBeInTheDocument();
    expect(screen.queryByTestId('report-meters')).toBeNull();
    expect(screen.queryByTestId('report-settings-form')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/report-data'))).toBe(false);
  });

  it('takes the share below comfort in percent, refuses more than 100 % and sends a share', async () => {
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`);
    const share = await screen.findByTestId('report-settings-max-share');
    expect(share).toHaveValue(10);
    expect(within(screen.getByTestId('meter-readings')).getByText('Oktober 2026')).toBeInTheDocument();
    await userEvent.clear(share);
    await userEvent.type(share, '150');
    await userEvent.click(screen.getByTestId('report-settings-save'));
    expect(await screen.findByTestId('report-settings-max-share-field-error')).toHaveTextContent(
      'Der max. Anteil unter Komfort darf höchstens 100 % betragen.',
    );
    const puts = () =>
      fetchMock.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/report-settings') && init?.method === 'PUT',
      );
    expect(puts()).toHaveLength(0);
    await userEvent.clear(share);
    await userEvent.type(share, '25');
    await userEvent.click(screen.getByTestId('report-settings-save'));
    await screen.findByTestId('toast-report-settings-saved');
    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toEqual({
      heatedAreaM2: 1500,
      maxHeatingHoursPerDegreeDay: 2.5,
      maxBelowComfortShare: 0.25,
    });
  });

  it('reads a meter reading typed the German way, says what it read, asks as it is far from October, and saves exactly that', async () => {
    const api = reportsApi();
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`, {
      api: (method, url, init) =>
        method === 'PUT' && url.endsWith('/meter-readings')
          ? json(200, JSON.parse(String(init.body)))
          : api(method, url, init),
    });
    const kwh = await screen.findByRole('textbox', { name: 'Verbrauch (kWh)' });
    await userEvent.type(kwh, '38.450,5');
    expect(await screen.findByText('Gelesen als 38.450,5')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Zählerstand speichern' }));
    // October had 9.800 kWh of gas: nearly four times that is asked about before it is saved.
    const check = await screen.findByRole('dialog', { name: 'Verbrauch prüfen' });
    expect(check).toHaveTextContent(
      '38.450,5 kWh Gas für November 2026 ist mehr als das Dreifache des Monats davor (Oktober 2026: 9.800 kWh).',
    );
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/meter-readings') && init?.method === 'PUT',
      ),
    ).toBe(false);
    await userEvent.click(within(check).getByRole('button', { name: 'Wert stimmt, speichern' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(
        ([url, init]) => String(url).endsWith('/meter-readings') && init?.method === 'PUT',
      );
      expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ kwh: 38450.5 });
    });
  });

  it('sends nothing when the user corrects a reading far below the month before', async () => {
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`, { api: reportsApi() });
    const kwh = await screen.findByRole('textbox', { name: 'Verbrauch (kWh)' });
    await userEvent.type(kwh, '38,5');
    await userEvent.click(screen.getByRole('button', { name: 'Zählerstand speichern' }));
    const check = await screen.findByRole('dialog', { name: 'Verbrauch prüfen' });
    expect(check).toHaveTextContent('ist weniger als ein Drittel des Monats davor');
    await userEvent.click(within(check).getByRole('button', { name: 'Wert korrigieren' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Verbrauch (kWh)' })).toHaveValue('38,5');
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/meter-readings') && init?.method === 'PUT',
      ),
    ).toBe(false);
  });

  it('imports meter readings from a CSV file and names each refused line in German', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The meter readings were not imported.',
      errors: [
        { field: 'csv.row.3.month', message: 'must be a month YYYY-MM' },
        { field: 'csv.row.3.kwh', message: 'must be a number of kWh' },
      ],
    };
    let answer: Response = new Response(JSON.stringify(problem), {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
    });
    const api = reportsApi();
    const { fetchMock } = open(`/reports?month=2026-11&buildingId=${BUILDING_ID}`, {
      api: (method, url, init) =>
        method === 'POST' && url.endsWith('/meter-readings/import') ? answer : api(method, url, init),
    });
    const file = (text: string) => new File([text], 'zaehler.csv', { type: 'text/csv' });
    await userEvent.upload(
      await screen.findByTestId('meter-import-file'),
      file('Monat;Energieträger;Verbrauch\n'),
    );
    const problems = await screen.findByTestId('meter-import-problems');
    expect(problems).toHaveTextContent('Zeile 3: kein gültiger Monat (z. B. 11.2026 oder 2026-11)');
    expect(problems).toHaveTextContent('Zeile 3: kein gültiger Verbrauch (0 bis 1.000.000.000 kWh)');
    const sent = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/meter-readings/import'));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ csv: 'Monat;Energieträger;Verbrauch\n' });

    answer = new Response(JSON.stringify({ imported: 2 }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    await userEvent.upload(screen.getByTestId('meter-import-file'), file('month,carrier,kwh\n'));
    expect(await screen.findByTestId('toast-meter-import')).toHaveTextContent('2 Zählerstände importiert.');
    expect(screen.queryByTestId('meter-import-problems')).toBeNull();
  });

  it('says so when the period has no readings yet', async () => {
    open('/reports?month=2026-11', {
      api: reportsApi({ company: testReport({ rooms: 0, rows: [], days: [], losses: [] }) }),
    });
    expect(await screen.findByTestId('report-empty')).toHaveTextContent(
      'Für diesen Zeitraum liegen noch keine Messwerte vor.',
    );
    expect(screen.queryByTestId('report-kpis')).toBeNull();
  });

  it("reaches a building without readings, and its meters, from the report's own building picker", async () => {
    const { fetchMock } = open('/reports?month=2026-11', {
      api: reportsApi({
        company: testReport({ rooms: 0, rows: [], days: [], losses: [] }),
        [BUILDING_ID]: testReport({ rooms: 0, rows: [], days: [], losses: [] }),
      }),
    });
    const picker = await screen.findByRole('combobox', { name: 'Bereich' });
    expect(picker).toHaveDisplayValue('Ganzes Unternehmen');
    await userEvent.selectOptions(picker, 'Hauptgebäude');
    expect(await screen.findByRole('heading', { name: 'Zähler und Zielwerte' })).toBeVisible();
    expect(screen.getByTestId('report-empty')).toHaveTextContent(
      'Für diesen Zeitraum liegen noch keine Messwerte vor.',
    );
    expect(reportCalls(fetchMock).at(-1)).toContain(`buildingId=${BUILDING_ID}`);
    await userEvent.selectOptions(picker, 'Ganzes Unternehmen');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Zähler und Zielwerte' })).toBeNull());
  });

  it('says when the report could not be loaded', async () => {
    open('/reports?month=2026-11', { api: () => undefined });
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'Der Bericht konnte nicht geladen werden.',
    );
  });
});
