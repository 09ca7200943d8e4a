/**
 * The units table's deviation warning waits as long as the company's "far from setpoint" alert
 * rule: it fired every morning a few minutes after the switch point while the alert waited
 * 240 minutes. Meanwhile a hint says the room is still heating up. On a phone, − and + stay on
 * screen.
 */
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alert-defaults';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviationState } from '../../features/units/setpoint.ts';
import { fixedClock, testNow } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';

/**
 * The screen's clock: 06:05 in Berlin, minutes after a morning switch point; HEIZPLAN_TEST_NOW
 * runs the file at another instant (shortly after midnight, on a DST change morning).
 */
const NOW = testNow('2026-11-26T06:05:00+01:00');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

function open(api: FetchHandler, lang: 'de' | 'en' = 'en') {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/units', { session, clock: fixedClock(NOW) }), fetchMock };
}

/** Answers the alert settings with `farFromSetpointMinutes`. */
const alertRule =
  (minutes: number): FetchHandler =>
  (method, url) =>
    method === 'GET' && url === '/api/companies/c1/alert-settings'
      ? json(200, { ...DEFAULT_ALERT_SETTINGS, farFromSetpointMinutes: minutes })
      : undefined;

describe('deviation state', () => {
  const unit = { setpoint: 21, room: 17, setpointSince: '2026-11-26T05:00:00.000Z', paused: false };
  const at = (iso: string) => Date.parse(iso);

  it('waits the alert rule’s minutes after the switch point before warning', () => {
    expect(deviationState(unit, 240, at('2026-11-26T05:10:00.000Z'))).toBe('settling');
    expect(deviationState(unit, 240, at('2026-11-26T08:59:00.000Z'))).toBe('settling');
    expect(deviationState(unit, 240, at('2026-11-26T09:00:00.000Z'))).toBe('warning');
    expect(deviationState(unit, 0, at('2026-11-26T05:00:00.000Z'))).toBe('warning');
  });

  it('warns at once without a switch point, never within 2 °C or while paused', () => {
    const now = at('2026-11-26T05:10:00.000Z');
    expect(deviationState({ ...unit, setpointSince: null }, 240, now)).toBe('warning');
    expect(deviationState({ ...unit, room: 19 }, 240, now)).toBe('none');
    expect(deviationState({ ...unit, paused: true, setpointSince: null }, 240, now)).toBe('none');
  });
});

describe('units screen', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('exports the rooms of the current search as a CSV for Excel, in German', async () => {
    await setLanguage('de');
    const { fetchMock } = open(
      heatingApi([testUnit({ name: 'Klasse 5a' })], (_method, url) =>
        url.startsWith('/api/companies/c1/units/export')
          ? new Response('Name\n', { status: 200, headers: { 'content-type': 'text/csv' } })
          : undefined,
      ),
      'de',
    );
    await screen.findByText('Klasse 5a');
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:units');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const button = screen.getByTestId('units-export-excel');
    expect(button).toHaveTextContent('CSV für Excel');
    expect(screen.getByTestId('units-export-xlsx')).toHaveTextContent('Excel-Datei (XLSX)');
    await userEvent.click(button);
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const asked = fetchMock.mock.calls
      .map(([url]) => String(url))
      .find((url) => url.includes('/units/export'));
    const query = new URL(asked ?? '', 'http://app').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      sort: 'name',
      order: 'asc',
      format: 'excel',
      lang: 'de',
    });
    expect(query.has('page')).toBe(false);
  });

  it('shows no warning while the room heats up after a switch point, and says why', async () => {
    await setLanguage('en');
    const morning = testUnit({
      name: 'Morning',
      setpoint: 21,
      roomTemperature: 17,
      setpointSince: minutesAgo(20),
    });
    open(heatingApi([morning]));
    await screen.findByText('Morning');
    expect(screen.queryByTestId(`deviation-warning-${morning.id}`)).toBeNull();
    const hint = screen.getByTestId(`deviation-settling-${morning.id}`);
    expect(hint).toHaveAccessibleName('Note: the room is still heating up');
    await userEvent.hover(hint);
    const tip = await screen.findByRole('tooltip', {}, { timeout: 2000 });
    expect(tip).toHaveTextContent('The room is still heating up after the switch point at');
    expect(tip).toHaveTextContent('still more than 2 °C off the setpoint after 240 minutes, a warning shows');
  });

  it('warns once the company’s alert minutes have passed, and tells since when', async () => {
    await setLanguage('de');
    const since = minutesAgo(30);
    const cold = testUnit({ name: 'Kalt', setpoint: 21, roomTemperature: 17, setpointSince: since });
    open(heatingApi([cold], alertRule(20)), 'de');
    const warning = await screen.findByTestId(`deviation-warning-${cold.id}`);
    await userEvent.hover(warning);
    const tip = await screen.findByRole('tooltip', {}, { timeout: 2000 });
    expect(tip).toHaveTextContent('Die Raumtemperatur weicht um mehr als 2 °C von der Solltemperatur ab.');
    // The time of the switch point; shortly after midnight (Berlin) yesterday's date too.
    const berlin = (iso: string | Date) =>
      (typeof iso === 'string' ? DateTime.fromISO(iso) : DateTime.fromJSDate(iso)).setZone('Europe/Berlin');
    const sameDay = berlin(since).hasSame(berlin(NOW), 'day');
    const when = berlin(since).toFormat(sameDay ? 'HH:mm' : 'dd.MM.yyyy, HH:mm');
    expect(tip).toHaveTextContent(`Die Solltemperatur gilt seit ${when} – länger als die 20 Minuten`);
  });

  it('keeps name, setpoint with the room temperature, and − + on a phone', async () => {
    await setLanguage('de');
    const unit = testUnit({ name: 'Aula', setpoint: 21, roomTemperature: 20.5 });
    open(heatingApi([unit]), 'de');
    await screen.findByText('Aula');
    // Tailwind's `hidden` with a breakpoint leaves a column out below that width.
    const onPhone = [...document.querySelectorAll('[data-testid^="units-table-header-"]')]
      .filter((header) => !header.classList.contains('hidden'))
      .map((header) => header.getAttribute('data-testid')?.replace('units-table-header-', ''));
    expect(onPhone).toEqual(['name', 'setpoint', 'controls']);
    const phoneRoom = screen.getByTestId(`unit-room-phone-${unit.id}`);
    expect(phoneRoom).toHaveTextContent('Ist 20,5 °C');
    expect(phoneRoom).toHaveClass('sm:hidden');
    const controls = screen.getByTestId(`unit-lower-${unit.id}`).closest('td');
    expect(within(controls!).getByTestId(`unit-raise-${unit.id}`)).toBeInTheDocument();
    // − + / pause graph, two by two, so the column stays narrow.
    expect(controls?.firstElementChild).toHaveClass('grid-cols-2');
  });

  it.each([
    {
      lang: 'de' as const,
      step: 'Ventil erhält 24,0 °C (Gerät stellt nur ganze Grad ein)',
      range: '2 Ventile erhalten 35,0 °C (außerhalb des Gerätebereichs 5–35 °C)',
    },
    {
      lang: 'en' as const,
      step: 'Valve gets 24.0 °C (device sets whole degrees only)',
      range: '2 valves get 35.0 °C (outside the device range of 5–35 °C)',
    },
  ])(
    'says under the setpoint what valves get where their model adjusts it ($lang)',
    async ({ lang, step, range }) => {
      await setLanguage(lang);
      const rounded = testUnit({
        name: 'Ganzgrad',
        setpoint: 23.5,
        downlinks: {
          pending: 0,
          failed: 0,
          delivered: [{ setpoint: 24, reason: 'step', step: 1, devices: 1 }],
        },
      });
      const clamped = testUnit({
        name: 'Tropenhaus',
        setpoint: 36,
        downlinks: {
          pending: 1,
          failed: 0,
          delivered: [{ setpoint: 35, reason: 'range', min: 5, max: 35, devices: 2 }],
        },
      });
      const plain = testUnit({ name: 'Flur' });
      open(heatingApi([rounded, clamped, plain]), lang);
      const note = await screen.findByTestId(`unit-delivered-${rounded.id}`);
      expect(note).toHaveTextContent(step);
      expect(screen.getByTestId(`unit-setpoint-${rounded.id}`)).toContainElement(note);
      expect(screen.getByTestId(`unit-delivered-${clamped.id}`)).toHaveTextContent(range);
      expect(screen.queryByTestId(`unit-delivered-${plain.id}`)).toBeNull();
    },
  );
});
