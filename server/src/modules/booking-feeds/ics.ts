/**
 * Bookings from iCalendar text (RFC 5545) with node-ical (decision 0053): events are expanded
 * into their occurrences within a window (RRULE with EXDATE and RECURRENCE-ID overrides, Windows
 * time-zone names such as `W. Europe Standard Time`, daylight-saving changes by the events' own
 * zones); cancelled events and occurrences are dropped; all-day events cover whole local days in
 * the company's zone (00:00 to 00:00), as do floating times (no zone) their wall-clock time there.
 * Pure apart from node-ical; no clock (the caller gives the window).
 */
import { createHash } from 'node:crypto';
import type { BookingFeedErrorCode } from '@heizplan/contracts/booking-feeds';
import { DateTime } from 'luxon';
import ical, { type EventInstance, type VEvent } from 'node-ical';

/** Bookings are kept from this long ago … */
export const BOOKINGS_BACK_MS = 8 * 86_400_000;
/** … to this far ahead. */
export const BOOKINGS_AHEAD_MS = 400 * 86_400_000;
/** Most bookings a feed may have in the window; more fail the sync. */
export const MAX_BOOKINGS = 5000;
const TITLE_MAX = 500;

/**
 * Why a calendar could not be read: in English for the feed's status, and as a code with params
 * for the web, which words it in the user's language.
 */
export class FeedParseError extends Error {
  constructor(
    message: string,
    public readonly code: BookingFeedErrorCode,
    public readonly params: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'FeedParseError';
  }
}

/** One occurrence of a calendar event. Instants UTC. */
export interface ParsedBooking {
  /** Derived from the feed, the UID and the occurrence: the same on every sync. */
  id: string;
  uid: string;
  /** The occurrence's original start (ISO instant, or `YYYY-MM-DD` all day) of a recurring event; '' otherwise. */
  recurrenceId: string;
  title: string;
  start: Date;
  /** Exclusive. */
  end: Date;
}

/** A feed's rules for which bookings heat (decision 0053). */
export interface BookingRules {
  /** Bookings shorter than this (minutes) do not heat. */
  minDurationMinutes: number;
  /** Bookings whose title contains this, ignoring case, do not heat; '' for none. */
  ignoreKeyword: string;
}

/** True when a booking heats under the feed's rules (not too short, no ignore keyword in its title). */
export function bookingHeats(booking: Pick<ParsedBooking, 'title' | 'start' | 'end'>, rules: BookingRules) {
  const minutes = (booking.end.getTime() - booking.start.getTime()) / 60_000;
  if (minutes < rules.minDurationMinutes) return false;
  const keyword = rules.ignoreKeyword.trim().toLowerCase();
  return keyword === '' || !booking.title.toLowerCase().includes(keyword);
}

/** A UUID (version 8, RFC 9562) from SHA-256 of the parts: stable ids without a lookup. */
export function stableUuid(...parts: string[]): string {
  const hash = createHash('sha256').update(parts.join('\n')).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x80;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A text property (node-ical gives `{ params, val }` when it has parameters such as LANGUAGE). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'val' in value) return String((value as { val: unknown }).val);
  return '';
}

type Zoned = Date & { tz?: string; dateOnly?: boolean };

/**
 * The instant of a local time node-ical built in the process's zone (all-day dates, floating
 * times), taken as the same wall-clock time in `zone`.
 */
function inZone(date: Zoned, zone: string, dateOnly: boolean): Date {
  return DateTime.fromObject(
    {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: dateOnly ? 0 : date.getHours(),
      minute: dateOnly ? 0 : date.getMinutes(),
      second: dateOnly ? 0 : date.getSeconds(),
    },
    { zone },
  ).toJSDate();
}

const localDateKey = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The occurrence's key among its event's occurrences: its original start. */
function recurrenceKey(instance: EventInstance): string {
  if (!instance.isRecurring) return '';
  const original = (instance.isOverride ? instance.event.recurrenceid : instance.start) as Zoned | undefined;
  if (!original) return '';
  return instance.isFullDay || original.dateOnly ? localDateKey(original) : original.toISOString();
}

/** UTC start and end of an occurrence; all-day and floating ones are placed in `zone`. */
function timesOf(instance: EventInstance, zone: string): { start: Date; end: Date } {
  const start = instance.start as Zoned;
  const end = instance.end as Zoned;
  if (instance.isFullDay) return { start: inZone(start, zone, true), end: inZone(end, zone, true) };
  // node-ical marks times with a zone (TZID or UTC) with `tz`; a floating time has none.
  if (!start.tz) return { start: inZone(start, zone, false), end: inZone(end, zone, false) };
  return { start: new Date(start.getTime()), end: new Date(end.getTime()) };
}

const isCancelled = (event: { status?: string }) => event.status?.toUpperCase() === 'CANCELLED';

/**
 * The bookings of `documents` (iCalendar texts: one ICS file, or a CalDAV collection's objects)
 * overlapping `[from, to)`, by start. Occurrences are placed by their events' zones; all-day and
 * floating ones in `timeZone` (the company's IANA zone). Of two occurrences with the same id (the
 * same event twice) the first counts; an occurrence without duration is dropped.
 * @throws FeedParseError a text that is no iCalendar data, an event whose recurrence cannot be
 * expanded, or more than MAX_BOOKINGS bookings in the window.
 */
export function parseBookings(
  feedId: string,
  documents: string[],
  timeZone: string,
  from: Date,
  to: Date,
): ParsedBooking[] {
  const byId = new Map<string, ParsedBooking>();
  for (const raw of documents) {
    const text = raw.replace(/^\uFEFF/, '');
    if (!/^\s*BEGIN:VCALENDAR/i.test(text))
      throw new FeedParseError(
        'The answer is no iCalendar data (it does not begin with BEGIN:VCALENDAR).',
        'feed_not_icalendar',
      );
    let calendar: ReturnType<typeof ical.sync.parseICS>;
    try {
      calendar = ical.sync.parseICS(text);
    } catch (err) {
      const reason = (err as Error).message;
      throw new FeedParseError(`The iCalendar data cannot be read: ${reason}`, 'feed_unreadable', { reason });
    }
    for (const component of Object.values(calendar)) {
      if (component?.type !== 'VEVENT') continue;
      const event = component as VEvent;
      if (!event.start || isCancelled(event)) continue;
      const uid = event.uid ?? '';
      let instances: EventInstance[];
      try {
        instances = ical.expandRecurringEvent(event, { from, to, expandOngoing: true });
      } catch (err) {
        const reason = (err as Error).message;
        throw new FeedParseError(
          `The recurrence of event ${uid || '(without UID)'} cannot be expanded: ${reason}`,
          'feed_recurrence',
          { uid, reason },
        );
      }
      for (const instance of instances) {
        if (isCancelled(instance.event)) continue;
        const { start, end } = timesOf(instance, timeZone);
        if (!(start < end) || end <= from || start >= to) continue;
        const recurrenceId = recurrenceKey(instance);
        const id = stableUuid(feedId, uid, recurrenceId);
        if (byId.has(id)) continue;
        const title = textOf(instance.summary ?? event.summary)
          .trim()
          .slice(0, TITLE_MAX);
        byId.set(id, { id, uid, recurrenceId, title, start, end });
        if (byId.size > MAX_BOOKINGS)
          throw new FeedParseError(
            `The calendar has more than ${MAX_BOOKINGS} bookings between 8 days ago and 400 days ahead; Heizplan reads at most ${MAX_BOOKINGS} per feed.`,
            'feed_too_many_bookings',
            { max: MAX_BOOKINGS },
          );
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
}
