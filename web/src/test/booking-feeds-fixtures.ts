/** Test data of booking feeds (decision 0053) for the booking calendars screen's component tests. */
import type { BookingFeed } from '@heizplan/contracts/booking-feeds';
import type { Unit } from '@heizplan/contracts/heating';
import { type FetchHandler, json, testCompany } from './signed-in.ts';

/** The instant the booking calendars screen runs at in its tests (render it with `fixedClock(FEEDS_NOW)`). */
export const FEEDS_NOW = new Date('2026-11-24T09:00:00Z');
const fiveMinutesBefore = new Date(FEEDS_NOW.getTime() - 5 * 60_000).toISOString();

/** The hall's Outlook calendar, fetched five minutes before `FEEDS_NOW` with 12 bookings that heat. */
export const testFeed = (over: Partial<BookingFeed> = {}): BookingFeed => ({
  id: '00000000-0000-4000-c000-000000000001',
  name: 'Aula – Outlook',
  kind: 'ics',
  unit: { id: '00000000-0000-4000-8000-00000000a001', name: 'Aula' },
  linkedUnits: [{ id: '00000000-0000-4000-8000-00000000a002', name: 'Flur EG' }],
  url: 'https://outlook.office365.com/owa/calendar/abc/reachcalendar.ics',
  username: '',
  hasPassword: false,
  minDurationMinutes: 15,
  ignoreKeyword: 'nicht heizen',
  preheatMinutes: 30,
  temperature: null,
  status: 'ok',
  lastSyncAt: fiveMinutesBefore,
  lastSuccessAt: fiveMinutesBefore,
  lastError: null,
  lastErrorCode: null,
  lastErrorParams: null,
  bookingCount: 12,
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});

/**
 * Answers the company (with `role`), the units search (`q` matched in the names, like the
 * server) and the booking feeds list with `feeds`.
 */
export const bookingFeedsApi =
  (feeds: BookingFeed[], units: Unit[], role: 'admin' | 'heating' | 'ems' = 'admin'): FetchHandler =>
  (method, url) => {
    const [path, search] = url.split('?') as [string, string | undefined];
    const params = new URLSearchParams(search);
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/units') {
      const q = params.get('q')?.toLowerCase();
      const found = q ? units.filter((u) => u.name.toLowerCase().includes(q)) : units;
      const size = Number(params.get('size') ?? 50);
      return json(200, { results: found.slice(0, size), count: found.length, page: 1, size });
    }
    if (method === 'GET' && path === '/api/companies/c1/booking-feeds')
      return json(200, { results: feeds, count: feeds.length, page: 1, size: 10 });
    return undefined;
  };
