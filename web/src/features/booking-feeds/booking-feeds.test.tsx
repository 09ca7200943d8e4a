/**
 * Booking calendars screen (decision 0053): the list in German with room, status badge, last
 * fetch and bookings found, a stale feed's error in the screen's language from its code (the
 * server's English only for a code the web does not know), every code worded in both languages;
 * the empty state explaining booking calendars; "fetch now" with its progress and outcome; a
 * feed's bookings with German dates and why one does not heat; deleting after a confirmation; a
 * member who only reads (ems) sees the list and the bookings, no control to change anything.
 */
import { BOOKING_FEED_ERROR_CODES, type Booking } from '@heizplan/contracts/booking-feeds';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { bookingFeedsApi, FEEDS_NOW, testFeed } from '../../test/booking-feeds-fixtures.ts';
import { fixedClock } from '../../test/clock.ts';
import { resources } from '../../test/locales.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { bookingPeriod, reasonsOf } from './components/bookings-dialog.tsx';

const feed = testFeed();
const stale = testFeed({
  id: '00000000-0000-4000-c000-000000000002',
  name: 'Turnhalle – Nextcloud',
  kind: 'caldav',
  unit: { id: '00000000-0000-4000-8000-00000000a003', name: 'Turnhalle' },
  linkedUnits: [],
  status: 'stale',
  lastError: 'The CalDAV server answered 401 Unauthorized.',
  lastErrorCode: 'feed_http_status',
  lastErrorParams: { status: 401, statusText: 'Unauthorized' },
  bookingCount: 0,
});

function open(
  feeds = [feed, stale],
  more?: FetchHandler,
  lang: 'en' | 'de' = 'en',
  role: 'admin' | 'heating' | 'ems' = 'admin',
) {
  const base = bookingFeedsApi(feeds, [], role);
  const api: FetchHandler = (method, url, init) => more?.(method, url, init) ?? base(method, url, init);
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/booking-feeds', { session, clock: fixedClock(FEEDS_NOW) }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) => String(u) === path && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );

/** Parents' evening Friday 19:00–21:00 in Berlin; a 10-minute check; a booking marked "nicht heizen". */
const bookings: Booking[] = [
  {
    id: 'b1',
    title: 'Elternabend',
    start: '2026-11-27T18:00:00.000Z',
    end: '2026-11-27T20:00:00.000Z',
    heats: true,
  },
  {
    id: 'b2',
    title: 'Kurzer Check',
    start: '2026-11-28T08:00:00.000Z',
    end: '2026-11-28T08:10:00.000Z',
    heats: false,
  },
  {
    id: 'b3',
    title: 'Lager – nicht heizen',
    start: '2026-11-29T09:00:00.000Z',
    end: '2026-11-29T12:00:00.000Z',
    heats: false,
  },
];

describe('booking calendars screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists the feeds in German: room with linked rooms, status, last fetch, bookings found, a stale one’s error', async () => {
    open([feed, stale], undefined, 'de');
    await setLanguage('de');
    const table = await screen.findByTestId('booking-feeds-table');
    expect(within(table).getByTestId(`booking-feed-name-${feed.id}`)).toHaveTextContent('Aula – Outlook');
    expect(within(table).getByTestId(`booking-feed-room-${feed.id}`)).toHaveTextContent('Aulamit Flur EG');
    expect(within(table).getByTestId(`booking-feed-status-${feed.id}`)).toHaveTextContent('Aktuell');
    expect(within(table).getByTestId(`booking-feed-sync-${feed.id}`)).toHaveTextContent(
      'vor 5 Min.12 Buchungen, die heizen',
    );
    expect(within(table).getByTestId(`booking-feed-status-${stale.id}`)).toHaveTextContent('Veraltet');
    expect(within(table).getByTestId(`booking-feed-error-${stale.id}`)).toHaveTextContent(
      'Fehler: Der Server antwortete mit HTTP 401 Unauthorized.',
    );
    expect(table).not.toHaveTextContent(stale.lastError ?? '');
    expect(within(table).getByText('CalDAV')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Buchungskalender' })[0]).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('words a stale feed’s error in English on an English screen, numbers the screen’s way in either', async () => {
    const slow = testFeed({
      id: '00000000-0000-4000-c000-000000000003',
      name: 'Saal – Google',
      status: 'stale',
      lastError: 'The calendar has more than 5000 bookings between 8 days ago and 400 days ahead.',
      lastErrorCode: 'feed_too_many_bookings',
      lastErrorParams: { max: 5000 },
    });
    open([stale, slow]);
    const table = await screen.findByTestId('booking-feeds-table');
    expect(within(table).getByTestId(`booking-feed-error-${stale.id}`)).toHaveTextContent(
      'Error: The server answered HTTP 401 Unauthorized.',
    );
    expect(within(table).getByTestId(`booking-feed-error-${slow.id}`)).toHaveTextContent(
      'more than 5,000 bookings',
    );
    await setLanguage('de');
    await waitFor(() =>
      expect(within(table).getByTestId(`booking-feed-error-${slow.id}`)).toHaveTextContent(
        'mehr als 5.000 Buchungen',
      ),
    );
  });

  it('shows the server’s sentence for an error without a code it knows (recorded before codes)', async () => {
    const old = testFeed({
      status: 'stale',
      lastError: 'The server answered HTTP 410 Gone',
      lastErrorCode: null,
      lastErrorParams: null,
    });
    const newer = testFeed({
      id: '00000000-0000-4000-c000-000000000004',
      status: 'stale',
      lastError: 'Something new went wrong.',
      lastErrorCode: 'feed_something_new',
      lastErrorParams: {},
    });
    open([old, newer], undefined, 'de');
    await setLanguage('de');
    const table = await screen.findByTestId('booking-feeds-table');
    expect(within(table).getByTestId(`booking-feed-error-${old.id}`)).toHaveTextContent(
      'Fehler: The server answered HTTP 410 Gone',
    );
    expect(within(table).getByTestId(`booking-feed-error-${newer.id}`)).toHaveTextContent(
      'Fehler: Something new went wrong.',
    );
  });

  it.each(['de', 'en'])(
    'words every error code of a feed in %s, with the same values as the other language',
    (lng) => {
      const texts = (l: string) => (resources[l]?.['booking-feeds']?.errors ?? {}) as Record<string, unknown>;
      const params = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      for (const code of BOOKING_FEED_ERROR_CODES) {
        expect(typeof texts(lng)[code], code).toBe('string');
        expect(params(texts(lng)[code]), code).toEqual(params(texts(lng === 'de' ? 'en' : 'de')[code]));
      }
    },
  );

  it('explains what a booking calendar is when there is none', async () => {
    open([]);
    const empty = await screen.findByTestId('booking-feeds-empty');
    expect(empty).toHaveTextContent('A booking calendar is the calendar of a room');
    expect(empty).toHaveTextContent('Microsoft 365');
    expect(empty).toHaveTextContent('Nextcloud');
    expect(within(empty).getByTestId('booking-feeds-empty-new')).toBeEnabled();
  });

  it('fetches a feed now, showing its progress, then the outcome', async () => {
    let answer: (response: Response) => void = () => {};
    const { fetchMock } = open([feed, stale], (method, url) =>
      method === 'POST' && url === `/api/companies/c1/booking-feeds/${feed.id}/sync`
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : method === 'POST' && url === `/api/companies/c1/booking-feeds/${stale.id}/sync`
          ? json(200, {
              ...stale,
              lastError: 'The CalDAV server answered 404 Not Found.',
              lastErrorParams: { status: 404, statusText: 'Not Found' },
            })
          : undefined,
    );
    const button = await screen.findByTestId(`booking-feed-sync-now-${feed.id}`);
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
    expect(button).toHaveTextContent('Fetching …');
    answer(json(200, { ...feed, bookingCount: 14 }));
    expect(await screen.findByTestId('toast-booking-feed-synced')).toHaveTextContent(
      '"Aula – Outlook" fetched14 bookings that heat',
    );
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
    expect(calls(fetchMock, 'POST', `/api/companies/c1/booking-feeds/${feed.id}/sync`)).toHaveLength(1);

    await userEvent.click(screen.getByTestId(`booking-feed-sync-now-${stale.id}`));
    expect(await screen.findByTestId('toast-booking-feed-sync-failed')).toHaveTextContent(
      '"Turnhalle – Nextcloud" could not be fetched',
    );
  });

  it('shows a feed’s bookings with German dates and why one does not heat', async () => {
    open(
      [feed],
      (method, url) =>
        method === 'GET' && url === `/api/companies/c1/booking-feeds/${feed.id}/bookings`
          ? json(200, { results: bookings })
          : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Buchungen von Aula – Outlook anzeigen' }),
    );
    const dialog = await screen.findByTestId('bookings-dialog');
    expect(await within(dialog).findByTestId('booking-b1')).toHaveTextContent(
      'ElternabendFr., 27.11.2026, 19:00–21:00Heizt',
    );
    expect(within(dialog).getByTestId('booking-heats-b2')).toHaveTextContent(
      'Heizt nicht: kürzer als 15 Minuten',
    );
    expect(within(dialog).getByTestId('booking-heats-b3')).toHaveTextContent(
      'Heizt nicht: Titel enthält „nicht heizen“',
    );
  });

  it('words a booking over midnight with both days, and finds every reason', () => {
    const late: Booking = {
      ...bookings[0]!,
      start: '2026-11-27T21:00:00.000Z',
      end: '2026-11-28T01:00:00.000Z',
    };
    expect(bookingPeriod(late, 'de', 'Europe/Berlin')).toBe(
      'Fr., 27.11.2026, 22:00 – Sa., 28.11.2026, 02:00',
    );
    const both: Booking = { ...bookings[1]!, title: 'NICHT HEIZEN' };
    expect(reasonsOf(both, feed)).toEqual(['keyword', 'tooShort']);
    expect(reasonsOf(bookings[0]!, feed)).toEqual([]);
  });

  it('deletes a feed after confirming', async () => {
    const { fetchMock } = open([feed], (method, url) =>
      method === 'DELETE' && url === `/api/companies/c1/booking-feeds/${feed.id}` ? json(204) : undefined,
    );
    await userEvent.click(await screen.findByTestId(`booking-feed-delete-${feed.id}`));
    const confirm = await screen.findByTestId('booking-feed-delete-dialog');
    expect(confirm).toHaveTextContent('The booking calendar "Aula – Outlook" will be deleted.');
    expect(calls(fetchMock, 'DELETE', `/api/companies/c1/booking-feeds/${feed.id}`)).toHaveLength(0);
    await userEvent.click(within(confirm).getByTestId('booking-feed-delete-dialog-confirm'));
    expect(await screen.findByTestId('toast-booking-feed-deleted')).toHaveTextContent(
      'Booking calendar deleted',
    );
    expect(calls(fetchMock, 'DELETE', `/api/companies/c1/booking-feeds/${feed.id}`)).toHaveLength(1);
  });

  it('shows a member who only reads (ems) the list and the bookings, no control to change anything', async () => {
    open([feed, stale], undefined, 'en', 'ems');
    const table = await screen.findByTestId('booking-feeds-table');
    expect(within(table).getByText('Aula – Outlook')).toBeInTheDocument();
    expect(screen.queryByTestId('booking-feed-new')).toBeNull();
    expect(within(table).getByTestId(`booking-feed-bookings-${feed.id}`)).toBeInTheDocument();
    for (const action of ['edit', 'sync-now', 'delete'])
      expect(within(table).queryByTestId(`booking-feed-${action}-${feed.id}`)).toBeNull();
  });

  it('shows a member who only reads (ems) an empty list without a create button', async () => {
    open([], undefined, 'en', 'ems');
    const empty = await screen.findByTestId('booking-feeds-empty');
    expect(within(empty).queryByTestId('booking-feeds-empty-new')).toBeNull();
    expect(within(empty).getByTestId('booking-feeds-read-only')).toHaveTextContent(
      'Your role may only view booking calendars.',
    );
  });
});
