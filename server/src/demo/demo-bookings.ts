/**
 * The demo's room-booking calendar (decision 0053): the meeting room's bookings as an iCalendar
 * file the app serves itself (`GET /api/public/demo/bookings.ics`) and its booking feed fetches
 * like any room calendar — the app's own origin is always allowed, so no FEEDS_ALLOW_PRIVATE is
 * needed for it. Bookings are placed relative to `now` on local days in Berlin time, so every
 * fetch of a day finds the same ones: a weekly jour fixe (recurring, with a VTIMEZONE), a client
 * meeting and a workshop, a 15-minute call (too short to heat) and a cleaning slot marked "nicht
 * heizen". Pure.
 */
import { DateTime } from 'luxon';

const ZONE = 'Europe/Berlin';

/** The demo meeting room's feed (the room is DEMO_UNITS[DEMO_BOOKING_UNIT]). */
export const DEMO_BOOKING_FEED = {
  name: 'Raumbuchung Besprechung 1.10',
  kind: 'ics' as const,
  /** Path of the calendar on the app's own origin. */
  path: '/api/public/demo/bookings.ics',
  minDurationMinutes: 30,
  ignoreKeyword: 'nicht heizen',
  preheatMinutes: 30,
  temperature: 22,
};
/** Index into DEMO_UNITS of the booked meeting room. */
export const DEMO_BOOKING_UNIT = 3;

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const local = (d: DateTime) => d.toFormat("yyyyMMdd'T'HHmmss");
const utc = (d: DateTime) => d.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");

/** The demo meeting room's calendar at `now`, as iCalendar text (CRLF lines). */
export function demoBookingsIcs(now: Date): string {
  const today = DateTime.fromJSDate(now, { zone: ZONE }).startOf('day');
  const stamp = utc(DateTime.fromJSDate(now));
  const at = (days: number, hour: number, minute = 0) => today.plus({ days }).set({ hour, minute });
  const single = (uid: string, title: string, start: DateTime, minutes: number) => [
    'BEGIN:VEVENT',
    `UID:${uid}-${start.toFormat('yyyyMMdd')}@demo.heizplan`,
    `DTSTAMP:${stamp}`,
    `DTSTART:${utc(start)}`,
    `DTEND:${utc(start.plus({ minutes }))}`,
    `SUMMARY:${title}`,
    'END:VEVENT',
  ];
  // Every Tuesday 09:00–10:00, from the Tuesday of four weeks ago.
  const firstTuesday = today.minus({ weeks: 4 }).set({ weekday: 2 }).set({ hour: 9 });
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Heizplan//Demo Raumbuchung//DE',
    'CALSCALE:GREGORIAN',
    'X-WR-CALNAME:Besprechung 1.10',
    ...VTIMEZONE,
    'BEGIN:VEVENT',
    'UID:jour-fixe@demo.heizplan',
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=${ZONE}:${local(firstTuesday)}`,
    `DTEND;TZID=${ZONE}:${local(firstTuesday.plus({ hours: 1 }))}`,
    'RRULE:FREQ=WEEKLY;BYDAY=TU',
    'SUMMARY:Jour fixe Haustechnik',
    'END:VEVENT',
    ...single('kundentermin', 'Kundentermin Stadtwerke', at(1, 14), 120),
    ...single('workshop', 'Workshop Heizperiode', at(2, 10), 150),
    ...single('abstimmung', 'Kurze Abstimmung', at(3, 16), 15),
    ...single('reinigung', 'Grundreinigung – nicht heizen', at(4, 8), 90),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
