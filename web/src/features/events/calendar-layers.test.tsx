/**
 * The events calendar's layers: in week view closures, holidays and bookings are bands behind the
 * events, named with their heating mode (German and English) and not opened like events; in month
 * view a day a closure covers whole is tinted and the date names it and counts the bookings; on the
 * events screen the layers of the visible range are fetched, listed in a legend and hidden by a
 * remembered switch, and a failing layers call leaves the events alone.
 */
import type { CalendarLayer } from '@heizplan/contracts/calendar-layers';
import type { HeatingEvent } from '@heizplan/contracts/events';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock, testNow } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import EventsCalendar from './components/events-calendar.tsx';

const school = { id: '00000000-0000-4000-b000-000000000001', name: 'Grundschule' };
const room = { id: '00000000-0000-4000-b000-000000000002', name: 'Besprechung 1.10' };

const layer = (over: Partial<CalendarLayer>): CalendarLayer => ({
  id: 'closure:1',
  kind: 'closure',
  name: 'Betriebsruhe',
  start: '2026-11-26T23:00:00.000Z',
  end: '2026-11-27T23:00:00.000Z',
  mode: 'frost',
  building: null,
  unit: null,
  ...over,
});

/** Week of Thursday 26 November 2026: a closure all Friday, a holiday like a Sunday on Wednesday, a booking on Thursday evening. */
const WEEK_LAYERS: CalendarLayer[] = [
  layer({}),
  layer({
    id: `holiday:${school.id}:2026-11-25`,
    kind: 'holiday',
    name: 'Buß- und Bettag',
    start: '2026-11-24T23:00:00.000Z',
    end: '2026-11-25T23:00:00.000Z',
    mode: null,
    building: school,
  }),
  layer({
    id: 'booking:1',
    kind: 'booking',
    name: 'Elternabend',
    start: '2026-11-26T17:00:00.000Z',
    end: '2026-11-26T19:00:00.000Z',
    mode: null,
    building: school,
    unit: room,
  }),
];

const thursday = new Date(2026, 10, 26, 12, 0);

async function renderCalendar(language: string, view: 'week' | 'month', onSelectEvent = vi.fn()) {
  await i18n.changeLanguage(language);
  render(
    <EventsCalendar
      events={[]}
      layers={WEEK_LAYERS}
      zone="Europe/Berlin"
      date={thursday}
      view={view}
      onNavigate={() => {}}
      onView={() => {}}
      onSelectEvent={onSelectEvent}
      label={() => ''}
    />,
  );
  return onSelectEvent;
}

const bands = () => [...document.querySelectorAll('.rbc-background-event')];
const bandTexts = () => bands().map((b) => b.querySelector('.rbc-event-content')?.textContent);

describe('calendar layers in the events calendar', () => {
  let language: string;
  beforeEach(() => {
    language = i18n.language;
    // react-big-calendar's build uses the classic JSX runtime; React warns about it in development only.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await i18n.changeLanguage(language);
  });

  it('draws closures, holidays and bookings behind the week, named in German, and does not open them', async () => {
    const onSelectEvent = await renderCalendar('de', 'week');
    expect(bandTexts()).toEqual(
      expect.arrayContaining([
        'Schließzeit: Betriebsruhe — Frostschutz',
        'Feiertag: Buß- und Bettag — wie ein Sonntag',
        'Buchung: Elternabend · Besprechung 1.10',
      ]),
    );
    const booking = bands().find((b) => b.textContent?.includes('Elternabend'));
    expect(booking).toHaveClass('hp-layer', 'hp-layer-booking');
    // 17:00 UTC is 18:00 in Berlin.
    expect(booking?.querySelector('.rbc-event-label')?.textContent).toMatch(/^18:00/);
    const closure = bands().find((b) => b.textContent?.includes('Betriebsruhe'));
    expect(closure).toHaveClass('hp-layer-calendar');
    if (closure) fireEvent.click(closure);
    if (booking) fireEvent.click(booking);
    expect(onSelectEvent).not.toHaveBeenCalled();
  });

  it('names them in English on English screens', async () => {
    await renderCalendar('en', 'week');
    expect(bandTexts()).toEqual(
      expect.arrayContaining([
        'Closure: Betriebsruhe — frost protection',
        'Public holiday: Buß- und Bettag — like a Sunday',
        'Booking: Elternabend · Besprechung 1.10',
      ]),
    );
  });

  it('tints a day the closure covers whole in the month and names it, counting the bookings', async () => {
    await renderCalendar('de', 'month');
    expect(bands()).toEqual([]);
    const days = [...document.querySelectorAll('.rbc-month-view .rbc-day-bg')];
    // The month shows Monday 26 October first: Wednesday 25 November (the holiday) is the 31st day,
    // Friday 27 November (the closure) the 33rd.
    expect(days.flatMap((d, i) => (d.classList.contains('hp-layer-day') ? [i] : []))).toEqual([30, 32]);
    const notes = screen.getAllByTestId('calendar-layer-note').map((n) => n.textContent);
    expect(notes).toEqual(['Buß- und Bettag', '1 Buchung', 'Betriebsruhe']);
    expect(screen.getAllByTestId('calendar-layer-note')[0]).toHaveAttribute(
      'title',
      'Feiertag: Buß- und Bettag — wie ein Sonntag',
    );
  });
});

describe('calendar layers on the events screen', { timeout: 20_000 }, () => {
  /** The screen's clock; HEIZPLAN_TEST_NOW runs it at another instant (a night, a DST change). */
  const now = testNow('2026-11-24T09:00:00+01:00');
  /** Layers and the event lie on the company's day of `now`: inside the week shown. */
  const today = DateTime.fromJSDate(now).setZone('Europe/Berlin').startOf('day');
  const at = (hour: number) => today.set({ hour }).toUTC().toISO() ?? '';
  const todays: CalendarLayer[] = [
    layer({
      id: 'booking:2',
      kind: 'booking',
      name: 'Chorprobe',
      start: at(10),
      end: at(12),
      mode: null,
      unit: room,
    }),
    layer({
      id: 'closure:2',
      name: 'Wartung',
      start: at(14),
      end: at(16),
      mode: 'economy',
    }),
  ];
  const event: HeatingEvent = {
    id: '00000000-0000-4000-a000-000000000001',
    title: 'Elternsprechtag',
    note: '',
    start: at(17),
    end: at(19),
    temperature: 21,
    preventRegular: false,
    groupMode: false,
    units: [room],
    groups: [],
    status: 'upcoming',
    createdAt: '2026-11-20T10:00:00.000Z',
    createdBy: null,
  };

  function open(layersAnswer: () => Response) {
    const api: FetchHandler = (method, url) => {
      const path = url.split('?')[0];
      if (method !== 'GET') return undefined;
      if (path === '/api/companies/c1/') return json(200, testCompany());
      if (path === '/api/companies/c1/units' || path === '/api/companies/c1/groups')
        return json(200, { results: [], count: 0, page: 1, size: 200 });
      if (path === '/api/companies/c1/events')
        return json(200, { results: [event], count: 1, page: 1, size: 200 });
      if (path === '/api/companies/c1/calendar-layers') return layersAnswer();
      return undefined;
    };
    const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'de' }), extra: api });
    renderRoutes(routes, '/events', { session, clock: fixedClock(now) });
    return fetchMock;
  }

  beforeEach(async () => {
    localStorage.clear();
    localStorage.setItem('heizplan.events.view', 'calendar');
    localStorage.setItem('heizplan.events.calendarView', 'week');
    await setLanguage('de');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('fetches the visible week’s layers, lists their kinds and hides them with a remembered switch', async () => {
    const fetchMock = open(() => json(200, { results: todays, truncated: false }));
    expect(await screen.findByText('Buchung: Chorprobe · Besprechung 1.10')).toBeInTheDocument();
    expect(screen.getByText('Schließzeit: Wartung — Absenkbetrieb')).toBeInTheDocument();
    const url = String(fetchMock.mock.calls.find(([u]) => String(u).includes('/calendar-layers'))?.[0]);
    const params = new URL(url, 'http://localhost').searchParams;
    // Monday to Monday of the company's week, a DST change's 167 or 169 hours included.
    const monday = today.startOf('week');
    expect(params.get('from')).toBe(monday.toUTC().toISO());
    expect(params.get('to')).toBe(monday.plus({ weeks: 1 }).toUTC().toISO());
    const kinds = screen.getByTestId('calendar-layers-kinds');
    expect(
      within(kinds)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Schließzeit', 'Buchung']);

    const toggle = screen.getByRole('checkbox', { name: 'Kalenderebenen anzeigen' });
    expect(toggle).toBeChecked();
    // A plain click: react-big-calendar's slot selection reads every mousedown on the page, with
    // layout jsdom does not have.
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.queryByText('Buchung: Chorprobe · Besprechung 1.10')).toBeNull());
    expect(screen.queryByTestId('calendar-layers-kinds')).toBeNull();
    expect(localStorage.getItem('heizplan.events.calendarLayers')).toBe('hidden');
    expect(screen.getByText(/Elternsprechtag/)).toBeInTheDocument();
  });

  it('shows the events when the layers cannot be loaded, and says so under the calendar', async () => {
    open(() => json(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 }));
    expect(await screen.findByTestId('calendar-layers-error')).toHaveTextContent(
      'Die Kalenderebenen konnten nicht geladen werden.',
    );
    expect(screen.getByText(/Elternsprechtag/)).toBeInTheDocument();
    expect(document.querySelectorAll('.rbc-background-event')).toHaveLength(0);
  });
});
