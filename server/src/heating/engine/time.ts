/**
 * Time-zone helpers of the heating engine: local calendar days and local wall-clock minutes in
 * an IANA zone, mapped to UTC instants (epoch ms) with luxon. Every offset comes from luxon's
 * zone data (docs/architecture.md: "expanded with a tz-aware library"); this file only adds
 * calendar arithmetic on civil dates and memoises luxon's answers, because the engine asks the
 * same (zone, day, minute) questions for every unit (bench: 100,000 units).
 *
 * DST rules (docs/decisions/0004-heating-engine-semantics.md):
 * - a local time inside a spring-forward gap maps to the first valid instant after the gap
 *   (02:30 on 2026-03-29 in Europe/Berlin → 03:00 CEST);
 * - a local time inside a repeated autumn hour maps to its first occurrence
 *   (02:30 on 2026-10-25 in Europe/Berlin → 02:30 CEST = 00:30 UTC), so it fires exactly once.
 */
import { DateTime, Info } from 'luxon';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const MINUTES_PER_DAY = 1440;

/** Days since 1970-01-01 of a civil (calendar) date; no zone involved. */
export function dayNumber(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Civil year/month/day of a day number (inverse of {@link dayNumber}). */
export function civilDate(dayNum: number): { year: number; month: number; day: number } {
  const d = new Date(dayNum * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a day number; 1970-01-01 was a Thursday. */
export function isoWeekday(dayNum: number): number {
  return ((((dayNum + 3) % 7) + 7) % 7) + 1;
}

/** Month·100 + day (e.g. 1231 for 31 Dec) of a day number, for recurring MM-DD ranges. */
export function monthDayOf(dayNum: number): number {
  const { month, day } = civilDate(dayNum);
  return month * 100 + day;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Number of days in a month (1–12) of a year (Gregorian leap years). */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (MONTH_LENGTHS[month - 1] as number);
}

/** One local calendar day in a zone, with memoised instants of its wall-clock minutes. */
export interface LocalDay {
  readonly zone: string;
  readonly dayNum: number;
  /** ISO weekday 1–7. */
  readonly weekday: number;
  /** Month·100 + day. */
  readonly monthDay: number;
  /** Epoch ms per local minute of the day (NaN until first asked). */
  readonly minutes: Float64Array;
}

const daysByZone = new Map<string, Map<number, LocalDay>>();
/** Zone → UTC hour bucket → local days overlapping that hour (at most two in practice). */
const bucketsByZone = new Map<string, Map<number, LocalDay[]>>();

/** The memoised local day `dayNum` of `zone`. */
export function localDay(zone: string, dayNum: number): LocalDay {
  let days = daysByZone.get(zone);
  if (!days) {
    assertZone(zone);
    days = new Map();
    daysByZone.set(zone, days);
  }
  let day = days.get(dayNum);
  if (!day) {
    const minutes = new Float64Array(MINUTES_PER_DAY);
    minutes.fill(Number.NaN);
    day = { zone, dayNum, weekday: isoWeekday(dayNum), monthDay: monthDayOf(dayNum), minutes };
    days.set(dayNum, day);
  }
  return day;
}

/**
 * UTC instant (epoch ms) at which local wall-clock minute `minute` (0–1439) of `day` happens,
 * applying the DST rules above. Memoised per (zone, day, minute).
 */
export function minuteInstant(day: LocalDay, minute: number): number {
  const cached = day.minutes[minute] as number;
  if (!Number.isNaN(cached)) return cached;
  const instant = computeMinuteInstant(day, minute);
  day.minutes[minute] = instant;
  return instant;
}

/** First instant of a local day (its midnight, or the first valid minute after a gap). */
export function dayStart(day: LocalDay): number {
  return minuteInstant(day, 0);
}

function computeMinuteInstant(day: LocalDay, minute: number): number {
  const { year, month, day: dom } = civilDate(day.dayNum);
  // Walk forward until the wall-clock time exists: a time inside a gap fires at the first valid
  // minute after it (luxon alone would shift it by the gap's length, e.g. 02:30 → 03:30).
  for (let m = minute; m < MINUTES_PER_DAY; m++) {
    const hour = Math.floor(m / 60);
    const min = m % 60;
    const dt = DateTime.fromObject({ year, month, day: dom, hour, minute: min }, { zone: day.zone });
    if (dt.year === year && dt.month === month && dt.day === dom && dt.hour === hour && dt.minute === min) {
      // luxon resolves an ambiguous time to its later occurrence; the rule is the first one.
      return Math.min(...dt.getPossibleOffsets().map((candidate) => candidate.toMillis()));
    }
  }
  // The whole rest of the day does not exist (e.g. Pacific/Apia skipped 2011-12-30).
  return dayStart(localDay(day.zone, day.dayNum + 1));
}

/** The local day of `zone` containing instant `ms` (epoch ms). Memoised per UTC hour. */
export function localDayAt(zone: string, ms: number): LocalDay {
  let buckets = bucketsByZone.get(zone);
  if (!buckets) {
    assertZone(zone);
    buckets = new Map();
    bucketsByZone.set(zone, buckets);
  }
  const bucket = Math.floor(ms / HOUR_MS);
  let days = buckets.get(bucket);
  if (days) {
    for (const day of days) {
      if (dayStart(day) <= ms && ms < dayStart(localDay(zone, day.dayNum + 1))) return day;
    }
  } else {
    days = [];
    buckets.set(bucket, days);
  }
  const dt = DateTime.fromMillis(ms, { zone });
  const day = localDay(zone, dayNumber(dt.year, dt.month, dt.day));
  // luxon's date is the truth; the range check above only speeds up the common case.
  if (!days.includes(day)) days.push(day);
  return day;
}

/** @throws RangeError when `zone` is not an IANA zone luxon knows. */
function assertZone(zone: string): void {
  if (!Info.isValidIANAZone(zone)) throw new RangeError(`Unknown time zone: ${zone}`);
}
