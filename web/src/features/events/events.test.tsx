/**
 * Events screen (spec §2 "Events screen", §5, §8): the dialog's rules (end required in
 * preventing mode with the reason shown, end not before start, no units), server field errors
 * inline with the toast 'Error creating event', group mode, running events only shortened or
 * ended, the filters' query, the rooms searched on the server (a room beyond the first page found
 * by typing, an event's rooms named before any search), and the remembered list/calendar choice.
 *
 * The screen reads the time from a fixed clock (`NOW`, HEIZPLAN_TEST_NOW to run it at another
 * instant); every date typed or listed is derived from it, in the company's zone.
 */
import type { HeatingEvent } from '@heizplan/contracts/events';
import type { Group } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock, testNow } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit, unitSearchApi, unitSearches } from '../../test/units-fixtures.ts';

/** The instant the screen runs at: a Tuesday morning, unless HEIZPLAN_TEST_NOW says otherwise. */
const NOW = testNow('2026-11-24T09:00:00+01:00');
const ZONE = 'Europe/Berlin';

/** `hour`:00 on the company's day `days` after NOW's: as typed into the dialog, and as the UTC instant sent. */
function wallTime(days: number, hour: number) {
  const at = DateTime.fromJSDate(NOW).setZone(ZONE).startOf('day').plus({ days }).set({ hour });
  return { typed: at.toFormat("yyyy-MM-dd'T'HH:mm"), utc: at.toUTC().toISO() ?? '' };
}

const unit = testUnit({ name: 'Aula' });
const group: Group = {
  id: '00000000-0000-4000-9000-000000000001',
  name: 'Schule',
  unitCount: 3,
  groupPlansAvailable: true,
  blockingUnits: [],
  occupantMaxTemperature: null,
  occupantBand: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const testEvent = (over: Partial<HeatingEvent> = {}): HeatingEvent => ({
  id: '00000000-0000-4000-a000-000000000001',
  title: 'Elternabend',
  note: '',
  start: wallTime(4, 18).utc,
  end: wallTime(4, 21).utc,
  temperature: 22,
  preventRegular: false,
  groupMode: false,
  units: [{ id: unit.id, name: 'Aula' }],
  groups: [],
  status: 'upcoming',
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});

function open(
  events: HeatingEvent[] = [],
  more?: FetchHandler,
  lang: 'en' | 'de' = 'en',
  role: 'admin' | 'heating' | 'ems' = 'admin',
) {
  const api: FetchHandler = (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/units')
      return json(200, { results: [unit], count: 1, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/groups')
      return json(200, { results: [group], count: 1, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/events')
      return json(200, { results: events, count: events.length, page: 1, size: 10 });
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/events', { session, clock: fixedClock(NOW) }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, prefix: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith(prefix) && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );

async function newEventDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'New event' }));
  return screen.findByRole('dialog', { name: 'New event' });
}

/** Picks `option` in the dialog's multiple-choice field `label` (Units, Groups). */
async function choose(dialog: HTMLElement, label: string, option: string) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: label }));
  await userEvent.click(screen.getByRole('option', { name: option }));
}

/** Replaces what a date-time field of the dialog holds. */
async function retype(dialog: HTMLElement, label: string, value: string) {
  const field = within(dialog).getByLabelText(label);
  await userEvent.clear(field);
  if (value) await userEvent.type(field, value);
}

describe('events screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists events in the company time zone and sends the filters to the server', async () => {
    const { fetchMock } = open([
      testEvent(),
      testEvent({ id: '00000000-0000-4000-a000-000000000002', end: null, title: '' }),
    ]);
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Elternabend · 22.0 °C')).toBeInTheDocument();
    expect(within(table).getByText('Aula · 22.0 °C')).toBeInTheDocument();
    // Typed as 18:00 in Berlin, sent as UTC, shown as 18:00 again.
    expect(within(table).getAllByText(/6:00\sPM/).length).toBeGreaterThan(0);
    expect(within(table).getByText('open-ended')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Show past events' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Hide open-ended events' }));
    const unitFilter = screen.getByRole('combobox', { name: 'Unit' });
    await userEvent.click(unitFilter);
    await userEvent.click(screen.getByRole('option', { name: 'Aula' }));
    await waitFor(() => {
      const last = String(calls(fetchMock, 'GET', '/api/companies/c1/events').at(-1)?.[0]);
      expect(last).toContain('includePast=true');
      expect(last).toContain('hideOpenEnded=true');
      expect(last).toContain(`unitId=${unit.id}`);
    });
    await userEvent.click(unitFilter);
    await userEvent.click(screen.getByRole('option', { name: 'All units' }));
    expect(unitFilter).toHaveValue('All units');
  });

  it("finds rooms beyond the first page by typing and names an event's rooms before searching", async () => {
    // 70 rooms: one search page (50) does not hold them all.
    const rooms = Array.from({ length: 70 }, (_, i) =>
      testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }),
    );
    const own = rooms[65]!;
    const filtered = rooms[69]!;
    const extra = rooms[67]!;
    const { fetchMock } = open(
      [testEvent({ title: 'Chor', units: [{ id: own.id, name: own.name }] })],
      unitSearchApi(rooms),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Chor · 22.0 °C' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit event' });
    expect(within(dialog).getByTestId(`event-units-chip-${own.id}`)).toHaveTextContent('Zimmer 66');
    expect(unitSearches(fetchMock)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const unitFilter = screen.getByRole('combobox', { name: 'Unit' });
    await userEvent.type(unitFilter, 'Zimmer 70');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 70' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 70');
    await waitFor(() =>
      expect(String(calls(fetchMock, 'GET', '/api/companies/c1/events').at(-1)?.[0])).toContain(
        `unitId=${filtered.id}`,
      ),
    );
    // A new event starts with the filtered room, named although its first search does not hold it.
    dialog = await newEventDialog();
    expect(await within(dialog).findByTestId(`event-units-chip-${filtered.id}`)).toHaveTextContent(
      'Zimmer 70',
    );
    const units = within(dialog).getByRole('combobox', { name: 'Units' });
    await userEvent.type(units, 'Zimmer 68');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 68' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 68');
    expect(within(dialog).getByTestId(`event-units-chip-${extra.id}`)).toHaveTextContent('Zimmer 68');
  });

  it('preventing mode makes the end required, shows the reason and sends nothing without an end', async () => {
    const { fetchMock } = open();
    const dialog = await newEventDialog();
    await choose(dialog, 'Units', 'Aula');
    await retype(dialog, 'End', '');
    const reason = 'While this event runs, the switch points of the heating plans are ignored.';
    expect(within(dialog).queryByText(reason, { exact: false })).toBeNull();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Prevent regular events' }));
    expect(within(dialog).getByText(reason, { exact: false })).toBeInTheDocument();
    const end = within(dialog).getByLabelText('End (required)');
    expect(end).toBeRequired();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create event' }));
    await waitFor(() =>
      expect(end).toHaveAccessibleDescription('An end time is required when regular events are prevented.'),
    );
    expect(end).toBeInvalid();
    expect(calls(fetchMock, 'POST', '/api/companies/c1/events')).toHaveLength(0);
  });

  it('refuses an end before the start and an event without units, inline', async () => {
    const { fetchMock } = open();
    const dialog = await newEventDialog();
    // The dialog proposes the full hour after now, in the company's zone.
    expect(within(dialog).getByLabelText('Start')).toHaveValue(wallTimeAfter(NOW));
    await retype(dialog, 'End', '2020-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create event' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('End')).toHaveAccessibleDescription(
        expect.stringContaining('The end date must not be before the start date.'),
      ),
    );
    expect(await within(dialog).findByText('No units selected')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/companies/c1/events')).toHaveLength(0);
  });

  it('refuses an end in the past', async () => {
    const { fetchMock } = open();
    const dialog = await newEventDialog();
    await choose(dialog, 'Units', 'Aula');
    await retype(dialog, 'Start', wallTime(-1, 8).typed);
    await retype(dialog, 'End', wallTime(-1, 10).typed);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create event' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('End')).toHaveAccessibleDescription(
        expect.stringContaining('The end date must not be in the past.'),
      ),
    );
    expect(calls(fetchMock, 'POST', '/api/companies/c1/events')).toHaveLength(0);
  });

  it("shows the server's field error under its field, translated, and the toast 'Error creating event'", async () => {
    const message = 'Value exceeds temperature range set by your company.';
    open(
      [],
      (method, url) =>
        method === 'POST' && url === '/api/companies/c1/events'
          ? problem(
              400,
              'Bad Request',
              message,
              [{ field: 'temperature', message, code: 'out_of_range', params: { min: 5, max: 28 } }],
              'out_of_range',
            )
          : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Neuer Termin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuer Termin' });
    await choose(dialog, 'Räume', 'Aula');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Termin anlegen' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Temperatur (°C)')).toHaveAccessibleDescription(
        expect.stringContaining(
          'Der Wert überschreitet den von Ihrer Firma festgelegten Temperaturbereich. Höchstens 28 °C.',
        ),
      ),
    );
    expect(await screen.findByText('Fehler beim Erstellen des Termins')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Neuer Termin' })).toBeInTheDocument();
  });

  it('creates a group-mode event in the company time zone', async () => {
    const { fetchMock } = open([], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/events'
        ? json(201, testEvent({ groupMode: true, units: [], groups: [{ id: group.id, name: 'Schule' }] }))
        : undefined,
    );
    const dialog = await newEventDialog();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Group mode' }));
    expect(within(dialog).queryByRole('combobox', { name: 'Units' })).toBeNull();
    await choose(dialog, 'Groups', 'Schule');
    // Four days on, 08:00–14:00 on the company's clock.
    const start = wallTime(4, 8);
    const end = wallTime(4, 14);
    await retype(dialog, 'Start', start.typed);
    await retype(dialog, 'End', end.typed);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Prevent regular events' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create event' }));
    expect(await screen.findByText('Event created')).toBeInTheDocument();
    const [, init] = calls(fetchMock, 'POST', '/api/companies/c1/events')[0] ?? [];
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      title: '',
      note: '',
      start: start.utc,
      end: end.utc,
      temperature: 21,
      preventRegular: true,
      groupMode: true,
      units: [],
      groups: [group.id],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a running event can only be shortened or ended now; a past one is read-only', async () => {
    const hour = 3_600_000;
    const running = testEvent({
      status: 'running',
      start: new Date(NOW.getTime() - hour).toISOString(),
      end: new Date(NOW.getTime() + 2 * hour).toISOString(),
    });
    const past = testEvent({
      id: '00000000-0000-4000-a000-000000000002',
      title: 'Vorbei',
      status: 'past',
      start: wallTime(-3, 8).utc,
      end: wallTime(-3, 10).utc,
    });
    const { fetchMock } = open([running, past], (method, url) =>
      method === 'POST' && url === `/api/companies/c1/events/${running.id}/end`
        ? json(200, { ...running, status: 'past' })
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Elternabend · 22.0 °C' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit event' });
    expect(
      within(dialog).getByText('This event is running: it can only be shortened or ended now.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Created by Ada Lovelace on Nov 20, 2026', { exact: false }),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Start')).toBeDisabled();
    expect(within(dialog).getByLabelText('Temperature (°C)')).toBeDisabled();
    expect(within(dialog).getByLabelText('End')).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'End now' }));
    expect(await screen.findByText('Event ended')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST', `/api/companies/c1/events/${running.id}/end`)).toHaveLength(1);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Vorbei · 22.0 °C' }));
    dialog = await screen.findByRole('dialog', { name: 'Event' });
    expect(within(dialog).getByText('This event is over and can no longer be changed.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(dialog).getByLabelText('End')).toBeDisabled();
  });

  it.each(['upcoming', 'running'] as const)(
    'shows a member who only reads an %s event as "Event", every field disabled, nothing to save, delete or end',
    async (status) => {
      open([testEvent({ status })], undefined, 'en', 'ems');
      await userEvent.click(await screen.findByRole('button', { name: 'Elternabend · 22.0 °C' }));
      const dialog = await screen.findByRole('dialog', { name: 'Event' });
      expect(within(dialog).getByRole('heading', { level: 2 })).toHaveTextContent(/^Event$/);
      expect(within(dialog).getByText('Your role may only view events.')).toBeInTheDocument();
      for (const field of dialog.querySelectorAll('input, select, textarea')) expect(field).toBeDisabled();
      for (const action of ['Save', 'Delete', 'End now'])
        expect(within(dialog).queryByRole('button', { name: action })).toBeNull();
      expect(within(dialog).queryByText(/This event is running/)).toBeNull();
      // The footer's one way out reads "Close", like the dialog's corner button.
      expect(within(dialog).getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
      expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
    },
  );

  it('remembers the calendar view', async () => {
    // react-big-calendar's build uses the classic JSX runtime; React warns about it in development only.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = open([testEvent()]);
    expect(await screen.findByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Calendar' }));
    expect(await screen.findByTestId('events-calendar')).toBeInTheDocument();
    expect(localStorage.getItem('heizplan.events.view')).toBe('calendar');
    first.unmount();
    vi.unstubAllGlobals();
    open([testEvent()]);
    expect(await screen.findByTestId('events-calendar')).toBeInTheDocument();
    // The list's columns are gone.
    expect(screen.queryByRole('columnheader', { name: 'Status' })).toBeNull();
    expect(warn.mock.calls.every(([message]) => String(message).includes('outdated JSX transform'))).toBe(
      true,
    );
  });
});

/** The dialog's proposed start for `now`: the next full hour on the company's clock. */
function wallTimeAfter(now: Date) {
  return DateTime.fromJSDate(now)
    .setZone(ZONE)
    .startOf('hour')
    .plus({ hours: 1 })
    .toFormat("yyyy-MM-dd'T'HH:mm");
}
