/**
 * Reading room calendars (decision 0053): one fixture per thing calendars do to a booking —
 * recurrence, excluded and moved occurrences, cancellations, all-day events, a daylight-saving
 * week, Outlook's Windows zone names — and the feed's rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookingHeats, MAX_BOOKINGS, parseBookings, stableUuid } from './ics.ts';

const FEED = '6f4ad0a8-8a38-4a8e-9b3a-3d7f1c2b0a11';
const ZONE = 'Europe/Berlin';
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
/** The bookings of a fixture within 2026-01-01 … 2027-01-01, as `start–end title` in UTC. */
function read(name: string, from = '2026-01-01T00:00:00Z', to = '2027-01-01T00:00:00Z') {
  return parseBookings(FEED, [fixture(name)], ZONE, new Date(from), new Date(to));
}
const brief = (b: { start: Date; end: Date; title: string }) =>
  `${b.start.toISOString().slice(0, 16)}–${b.end.toISOString().slice(11, 16)} ${b.title}`;

describe('parseBookings', () => {
  it('expands a weekly RRULE with two days per week into its occurrences (COUNT)', () => {
    expect(read('rrule.ics').map(brief)).toEqual([
      '2026-11-02T08:00–09:00 Teamrunde',
      '2026-11-04T08:00–09:00 Teamrunde',
      '2026-11-09T08:00–09:00 Teamrunde',
      '2026-11-11T08:00–09:00 Teamrunde',
    ]);
  });

  it('leaves out the occurrences an EXDATE excludes', () => {
    expect(read('exdate.ics').map(brief)).toEqual([
      '2026-11-02T08:00–09:00 Sprechstunde',
      '2026-11-16T08:00–09:00 Sprechstunde',
    ]);
  });

  it('moves an occurrence a RECURRENCE-ID override moves, keeping its id across syncs', () => {
    const bookings = read('recurrence-id.ics');
    expect(bookings.map(brief)).toEqual([
      '2026-11-02T08:00–09:00 Elternsprechtag',
      '2026-11-10T13:00–14:30 Elternsprechtag (verschoben)',
      '2026-11-16T08:00–09:00 Elternsprechtag',
    ]);
    const moved = bookings[1];
    expect(moved?.recurrenceId).toBe('2026-11-09T08:00:00.000Z');
    expect(moved?.id).toBe(stableUuid(FEED, 'moved@test', '2026-11-09T08:00:00.000Z'));
    // The same calendar read again gives the same ids; another feed's are others.
    expect(read('recurrence-id.ics').map((b) => b.id)).toEqual(bookings.map((b) => b.id));
    expect(
      parseBookings('other', [fixture('recurrence-id.ics')], ZONE, new Date(0), new Date(2e12))[0]?.id,
    ).not.toBe(bookings[0]?.id);
  });

  it('drops a cancelled event and a cancelled occurrence of a series', () => {
    expect(read('cancelled.ics').map(brief)).toEqual([
      '2026-11-02T15:00–16:00 Chorprobe',
      '2026-11-04T15:00–16:00 Chorprobe',
    ]);
  });

  it("covers whole local days in the company's zone for all-day events (one day without DTEND)", () => {
    expect(read('all-day.ics').map(brief)).toEqual([
      // Berlin is UTC+2 in July and UTC+1 in November.
      '2026-07-09T22:00–22:00 Sommerfest',
      '2026-11-04T23:00–23:00 Hausmesse',
    ]);
    const [summer, fair] = read('all-day.ics');
    expect(summer?.end.toISOString()).toBe('2026-07-10T22:00:00.000Z');
    expect(fair?.end.toISOString()).toBe('2026-11-06T23:00:00.000Z');
    // Another company zone, other instants.
    const [, fairInLondon] = parseBookings(
      FEED,
      [fixture('all-day.ics')],
      'Europe/London',
      new Date('2026-01-01T00:00:00Z'),
      new Date('2027-01-01T00:00:00Z'),
    );
    expect(fairInLondon?.start.toISOString()).toBe('2026-11-05T00:00:00.000Z');
  });

  it('keeps the local time of a daily series across the end of daylight-saving time, and a night spanning it', () => {
    expect(read('dst-week.ics').map(brief)).toEqual([
      '2026-10-23T06:00–07:00 Frühbesprechung',
      '2026-10-24T06:00–07:00 Frühbesprechung',
      '2026-10-24T20:00–03:00 Nachtschicht',
      // From Sunday 25 October Berlin is UTC+1: 08:00 local is 07:00 UTC.
      '2026-10-25T07:00–08:00 Frühbesprechung',
      '2026-10-26T07:00–08:00 Frühbesprechung',
      '2026-10-27T07:00–08:00 Frühbesprechung',
    ]);
    const night = read('dst-week.ics').find((b) => b.title === 'Nachtschicht');
    // 22:00 to 04:00 local is seven hours on the night the clocks go back.
    expect(((night?.end.getTime() ?? 0) - (night?.start.getTime() ?? 0)) / 3_600_000).toBe(7);
  });

  it("reads Outlook's Windows zone names (W. Europe Standard Time) in winter and summer, also without their VTIMEZONE", () => {
    expect(read('windows-tzid.ics').map(brief)).toEqual([
      '2026-06-05T12:00–13:00 Sommer-Workshop',
      '2026-11-05T13:00–15:00 Workshop Energie',
      // Romance Standard Time (Paris, Brussels) is named but not defined in the file.
      '2026-11-12T08:00–09:00 Ohne VTIMEZONE',
    ]);
  });

  it("places a floating time (no zone) at that wall-clock time in the company's zone", () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:floating@test',
      'DTSTAMP:20261001T000000Z',
      'DTSTART:20261105T100000',
      'DTEND:20261105T113000',
      'SUMMARY:Lokal',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [booking] = parseBookings(FEED, [ics], ZONE, new Date('2026-11-01Z'), new Date('2026-12-01Z'));
    expect(booking && brief(booking)).toBe('2026-11-05T09:00–10:30 Lokal');
  });

  it('keeps only bookings overlapping the window, one running at its start included', () => {
    const bookings = read('dst-week.ics', '2026-10-25T00:00:00Z', '2026-10-26T00:00:00Z');
    expect(bookings.map((b) => b.title)).toEqual(['Nachtschicht', 'Frühbesprechung']);
  });

  it('refuses an answer that is no iCalendar data (a login page) and a calendar with too many bookings', () => {
    const page = '<!doctype html><title>Anmelden</title>';
    expect(() => parseBookings(FEED, [page], ZONE, new Date(0), new Date(2e12))).toThrow(
      expect.objectContaining({ name: 'FeedParseError', code: 'feed_not_icalendar', params: {} }),
    );
    const flood = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:flood@test',
      'DTSTAMP:20261001T000000Z',
      'DTSTART:20260101T080000Z',
      'DTEND:20260101T083000Z',
      `RRULE:FREQ=HOURLY;COUNT=${MAX_BOOKINGS + 10}`,
      'SUMMARY:Dauerbelegung',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    expect(() =>
      parseBookings(FEED, [flood], ZONE, new Date('2026-01-01Z'), new Date('2027-01-01Z')),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`more than ${MAX_BOOKINGS} bookings`),
        code: 'feed_too_many_bookings',
        params: { max: MAX_BOOKINGS },
      }),
    );
  });
});

describe('bookingHeats', () => {
  const booking = (title: string, minutes: number) => ({
    title,
    start: new Date('2026-11-05T09:00:00Z'),
    end: new Date(Date.parse('2026-11-05T09:00:00Z') + minutes * 60_000),
  });
  const rules = { minDurationMinutes: 30, ignoreKeyword: 'nicht heizen' };

  it('leaves out bookings shorter than the minimum and those with the keyword in any case', () => {
    expect(bookingHeats(booking('Workshop', 30), rules)).toBe(true);
    expect(bookingHeats(booking('Kurz', 29), rules)).toBe(false);
    expect(bookingHeats(booking('Reinigung – NICHT HEIZEN', 120), rules)).toBe(false);
    expect(bookingHeats(booking('Reinigung – nicht heizen', 120), { ...rules, ignoreKeyword: '' })).toBe(
      true,
    );
  });
});
