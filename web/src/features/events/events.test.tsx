/**
 * Events screen (spec §2 "Events screen", §5, §8): the dialog's rules (end required in
 * preventing mode with the reason shown, end not before start, no units), server field errors
 * inline with the toast 'Error creating event', group mode, running events only shortened or
 * ended, the filters' query, and the remembered list/calendar choice.
 */
import type { HeatingEvent } from '@heizplan/contracts/events';
import type { Group } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit } from '../../test/units-fixtures.ts';

const unit = testUnit({ name: 'Aula' });
const group: Group = {
  id: '00000000-0000-4000-9000-000000000001',
  name: 'Schule',
  unitCount: 3,
  groupPlansAvailable: true,
  blockingUnits: [],
  createdAt: '2026-11-01T10:00:00.000Z',
};
const testEvent = (over: Partial<HeatingEvent> = {}): HeatingEvent => ({
  id: '00000000-0000-4000-a000-000000000001',
  title: 'Elternabend',
  note: '',
  start: '2026-11-28T17:00:00.000Z',
  end: '2026-11-28T20:00:00.000Z',
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
  return { ...renderRoutes(routes, '/events', { session }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, prefix: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith(prefix) && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );

async function newEventDialog() {
  await userEvent.click(await screen.findByTestId('event-new'));
  return screen.findByTestId('event-dialog');
}

async function pickUnit() {
  await userEvent.click(screen.getByTestId('event-units'));
  await userEvent.click(screen.getByTestId(`event-unit-${unit.id}`));
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
    const table = await screen.findByTestId('events-table');
    expect(within(table).getByText('Elternabend · 22.0 °C')).toBeInTheDocument();
    expect(within(table).getByText('Aula · 22.0 °C')).toBeInTheDocument();
    // 17:00 UTC is 18:00 in Berlin.
    expect(within(table).getAllByText(/6:00\sPM/).length).toBeGreaterThan(0);
    expect(within(table).getByText('open-ended')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('events-filter-past'));
    await userEvent.click(screen.getByTestId('events-filter-open-ended'));
    await userEvent.click(screen.getByTestId('events-filter-unit'));
    await userEvent.click(screen.getByTestId(`events-filter-event-unit-${unit.id}`));
    await waitFor(() => {
      const last = String(calls(fetchMock, 'GET', '/api/companies/c1/events').at(-1)?.[0]);
      expect(last).toContain('includePast=true');
      expect(last).toContain('hideOpenEnded=true');
      expect(last).toContain(`unitId=${unit.id}`);
    });
    await userEvent.click(screen.getByTestId('events-filter-unit'));
    await userEvent.click(screen.getByTestId('events-filter-all-units'));
    expect(screen.getByTestId('events-filter-unit')).toHaveValue('All units');
  });

  it('preventing mode makes the end required, shows the reason and sends nothing without an end', async () => {
    const { fetchMock } = open();
    const dialog = await newEventDialog();
    await pickUnit();
    await userEvent.clear(within(dialog).getByTestId('event-end'));
    expect(screen.queryByTestId('event-prevent-reason')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('event-prevent-regular'));
    expect(screen.getByTestId('event-prevent-reason')).toHaveTextContent(
      'While this event runs, the switch points of the heating plans are ignored.',
    );
    expect(within(dialog).getByText('End (required)')).toBeInTheDocument();
    expect(within(dialog).getByTestId('event-end')).toBeRequired();
    await userEvent.click(within(dialog).getByTestId('event-save'));
    expect(await screen.findByTestId('event-end-field-error')).toHaveTextContent(
      'An end time is required when regular events are prevented.',
    );
    expect(calls(fetchMock, 'POST', '/api/companies/c1/events')).toHaveLength(0);
  });

  it('refuses an end before the start and an event without units, inline', async () => {
    const { fetchMock } = open();
    const dialog = await newEventDialog();
    const start = within(dialog).getByTestId('event-start') as HTMLInputElement;
    await userEvent.clear(within(dialog).getByTestId('event-end'));
    await userEvent.type(within(dialog).getByTestId('event-end'), '2020-01-01T10:00');
    expect(start.value).not.toBe('');
    await userEvent.click(within(dialog).getByTestId('event-save'));
    expect(await screen.findByTestId('event-end-field-error')).toHaveTextContent(
      'The end date must not be before the start date.',
    );
    expect(await screen.findByTestId('event-units-field-error')).toHaveTextContent('No units selected');
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
    const dialog = await newEventDialog();
    await pickUnit();
    await userEvent.click(within(dialog).getByTestId('event-save'));
    expect(await screen.findByTestId('event-temperature-field-error')).toHaveTextContent(
      'Der Wert überschreitet den von Ihrer Firma festgelegten Temperaturbereich. Höchstens 28 °C.',
    );
    expect(await screen.findByTestId('toast-event-error')).toHaveTextContent(
      'Fehler beim Erstellen des Termins',
    );
    expect(screen.getByTestId('event-dialog')).toBeInTheDocument();
  });

  it('creates a group-mode event in the company time zone', async () => {
    const { fetchMock } = open([], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/events'
        ? json(201, testEvent({ groupMode: true, units: [], groups: [{ id: group.id, name: 'Schule' }] }))
        : undefined,
    );
    const dialog = await newEventDialog();
    await userEvent.click(within(dialog).getByTestId('event-group-mode'));
    expect(within(dialog).queryByTestId('event-units')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('event-groups'));
    await userEvent.click(screen.getByTestId(`event-group-${group.id}`));
    const start = within(dialog).getByTestId('event-start');
    const end = within(dialog).getByTestId('event-end');
    await userEvent.clear(start);
    await userEvent.type(start, '2026-11-28T08:00');
    await userEvent.clear(end);
    await userEvent.type(end, '2026-11-28T14:00');
    await userEvent.click(within(dialog).getByTestId('event-prevent-regular'));
    await userEvent.click(within(dialog).getByTestId('event-save'));
    expect(await screen.findByTestId('toast-event-saved')).toHaveTextContent('Event created');
    const [, init] = calls(fetchMock, 'POST', '/api/companies/c1/events')[0] ?? [];
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      title: '',
      note: '',
      start: '2026-11-28T07:00:00.000Z',
      end: '2026-11-28T13:00:00.000Z',
      temperature: 21,
      preventRegular: true,
      groupMode: true,
      units: [],
      groups: [group.id],
    });
    await waitFor(() => expect(screen.queryByTestId('event-dialog')).toBeNull());
  });

  it('a running event can only be shortened or ended now; a past one is read-only', async () => {
    const running = testEvent({ status: 'running' });
    const past = testEvent({ id: '00000000-0000-4000-a000-000000000002', title: 'Vorbei', status: 'past' });
    const { fetchMock } = open([running, past], (method, url) =>
      method === 'POST' && url === `/api/companies/c1/events/${running.id}/end`
        ? json(200, { ...running, status: 'past' })
        : undefined,
    );
    await userEvent.click(await screen.findByTestId(`event-open-${running.id}`));
    let dialog = await screen.findByTestId('event-dialog');
    expect(within(dialog).getByTestId('event-running')).toBeInTheDocument();
    expect(within(dialog).getByTestId('event-created')).toHaveTextContent(
      'Created by Ada Lovelace on Nov 20, 2026',
    );
    expect(within(dialog).getByTestId('event-start')).toBeDisabled();
    expect(within(dialog).getByTestId('event-temperature')).toBeDisabled();
    expect(within(dialog).getByTestId('event-end')).toBeEnabled();
    await userEvent.click(within(dialog).getByTestId('event-end-now'));
    expect(await screen.findByTestId('toast-event-saved')).toHaveTextContent('Event ended');
    expect(calls(fetchMock, 'POST', `/api/companies/c1/events/${running.id}/end`)).toHaveLength(1);

    await waitFor(() => expect(screen.queryByTestId('event-dialog')).toBeNull());
    await userEvent.click(screen.getByTestId(`event-open-${past.id}`));
    dialog = await screen.findByTestId('event-dialog');
    expect(within(dialog).getByTestId('event-read-only')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('event-save')).toBeNull();
    expect(within(dialog).getByTestId('event-end')).toBeDisabled();
  });

  it.each(['upcoming', 'running'] as const)(
    'shows a member who only reads an %s event as "Event", every field disabled, nothing to save, delete or end',
    async (status) => {
      open([testEvent({ status })], undefined, 'en', 'ems');
      await userEvent.click(await screen.findByTestId(`event-open-${testEvent().id}`));
      const dialog = await screen.findByTestId('event-dialog');
      expect(within(dialog).getByRole('heading', { level: 2 })).toHaveTextContent(/^Event$/);
      expect(within(dialog).getByTestId('event-read-only')).toBeInTheDocument();
      for (const field of dialog.querySelectorAll('input, select, textarea')) expect(field).toBeDisabled();
      for (const action of ['event-save', 'event-delete', 'event-end-now', 'event-running'])
        expect(within(dialog).queryByTestId(action)).toBeNull();
      expect(within(dialog).getByTestId('event-cancel')).toHaveTextContent('Close');
    },
  );

  it('remembers the calendar view', async () => {
    // react-big-calendar's build uses the classic JSX runtime; React warns about it in development only.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = open([testEvent()]);
    await userEvent.click(await screen.findByTestId('events-view-calendar'));
    expect(await screen.findByTestId('events-calendar')).toBeInTheDocument();
    expect(localStorage.getItem('heizplan.events.view')).toBe('calendar');
    first.unmount();
    vi.unstubAllGlobals();
    open([testEvent()]);
    expect(await screen.findByTestId('events-calendar')).toBeInTheDocument();
    expect(screen.queryByTestId('events-table')).toBeNull();
    expect(warn.mock.calls.every(([message]) => String(message).includes('outdated JSX transform'))).toBe(
      true,
    );
  });
});
