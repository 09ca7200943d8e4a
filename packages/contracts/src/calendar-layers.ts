/**
 * Calendar layers under `GET /api/companies/{companyId}/calendar-layers?from=&to=[&buildingId=]`:
 * what the events calendar draws behind the one-time events, read-only, for every member.
 *
 * - `closure`: an entered closure (decision 0051); a recurring one as each of its occurrences
 *   overlapping the window, all with the closure's name and mode.
 * - `holiday`: a public holiday of a building (decision 0052) that treats them as closures (its
 *   holiday mode) or like Sundays (`mode` null: the Sunday switch points apply, nothing closes).
 * - `school_holiday`: a school holiday period of a building that uses them ("Weihnachtsferien
 *   (Bayern)"), in the building's holiday mode.
 * - `company_day`: an own day of a building, named as entered; in the holiday mode, or `mode`
 *   null in a building that treats holidays like Sundays.
 * - `booking`: a heating booking of a fresh booking feed (decision 0053), titled as in the
 *   calendar, with the feed's room as `unit`; its own times (the pre-heat lead is not included).
 *
 * Public and school holidays are named in the member's language. Holidays, school holidays and
 * own days are whole local days of the company's time zone. Layers overlap the window
 * `[from, to)`, at most CALENDAR_LAYERS_MAX_DAYS long, and are sorted by start; bookings are
 * capped at CALENDAR_LAYERS_MAX_BOOKINGS (`truncated`). `buildingId`
 * narrows them to one building: its calendar, the closures covering any of its units and the
 * bookings of its rooms. Instants are ISO-8601 UTC.
 */
import { z } from 'zod';
import { HeatingModeSchema } from './closures.ts';
import { CompanyParamsSchema } from './heating.ts';
import { type TimeRangeIssue, timeRangeIssue } from './time-range.ts';

/** Longest window one request may ask for: a month view's six weeks and then some. */
export const CALENDAR_LAYERS_MAX_DAYS = 62;
/** Most bookings one answer lists (the earliest); `truncated` says when more overlap the window. */
export const CALENDAR_LAYERS_MAX_BOOKINGS = 2000;

export const CALENDAR_LAYER_KINDS = [
  'closure',
  'holiday',
  'school_holiday',
  'company_day',
  'booking',
] as const;
export const CalendarLayerKindSchema = z.enum(CALENDAR_LAYER_KINDS);
export type CalendarLayerKind = z.infer<typeof CalendarLayerKindSchema>;

export const CalendarLayersParamsSchema = CompanyParamsSchema;

export const CalendarLayersQuerySchema = z.object({
  /** Start of the window (inclusive), an ISO instant with offset. */
  from: z.iso.datetime({ offset: true }),
  /** End of the window (exclusive), after `from` and at most CALENDAR_LAYERS_MAX_DAYS later. */
  to: z.iso.datetime({ offset: true }),
  /** Only the layers of this building of the company: its calendar, closures and bookings. */
  buildingId: z.uuid().optional(),
});
export type CalendarLayersQuery = z.input<typeof CalendarLayersQuerySchema>;

const Ref = z.object({ id: z.uuid(), name: z.string() });

export const CalendarLayerSchema = z.object({
  /** Unique within an answer and stable across requests (a closure's occurrence carries its start). */
  id: z.string(),
  kind: CalendarLayerKindSchema,
  /** Closure or own day as entered, holiday in the member's language, booking title. */
  name: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  /** The heating mode meanwhile; null for bookings and for days a building treats like Sundays. */
  mode: HeatingModeSchema.nullable(),
  /** The building of a holiday, school holiday or own day, of a booking's room, or the one building a closure names; else null. */
  building: Ref.nullable(),
  /** A booking's room (the feed's own room); else null. */
  unit: Ref.nullable(),
});
export type CalendarLayer = z.infer<typeof CalendarLayerSchema>;

export const CalendarLayerListSchema = z.object({
  results: z.array(CalendarLayerSchema),
  /** True when more than CALENDAR_LAYERS_MAX_BOOKINGS bookings overlap the window: the later ones are left out. */
  truncated: z.boolean(),
});
export type CalendarLayerList = z.infer<typeof CalendarLayerListSchema>;

export const CALENDAR_RANGE_END_NOT_AFTER_START = 'The end of the window must be after its start.';
export const CALENDAR_RANGE_TOO_LONG = `A window lasts at most ${CALENDAR_LAYERS_MAX_DAYS} days.`;

/** A window the endpoint refuses: the field (`to`), an English message and the problem code. */
export type CalendarRangeIssue = TimeRangeIssue;

/** Why `[from, to)` is no window the endpoint answers, or null. */
export const calendarRangeIssue = (from: string | Date, to: string | Date): CalendarRangeIssue | null =>
  timeRangeIssue(from, to, {
    maxDays: CALENDAR_LAYERS_MAX_DAYS,
    endNotAfterStart: {
      code: 'calendar_range_end_not_after_start',
      message: CALENDAR_RANGE_END_NOT_AFTER_START,
    },
    tooLong: { code: 'calendar_range_too_long', message: CALENDAR_RANGE_TOO_LONG },
  });
