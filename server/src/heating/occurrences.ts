/**
 * Occurrences of a recurring closure (decision 0051, "Recurrence and buildings"). The RRULE is
 * expanded by the `rrule` package in "floating" time: the start's wall-clock fields in the
 * company's IANA zone are handed to it as if they were UTC, with no TZID, and each occurrence's
 * fields are turned back into an instant in that zone with luxon. So every occurrence keeps the
 * first one's local times and local duration across daylight saving: a Friday 18:00 → Monday
 * 06:00 closure stays 18:00 → 06:00 in March and October. A local time that does not exist on a
 * day (02:30 when the clocks go forward) moves forward by the gap; an ambiguous one takes the
 * earlier offset (luxon's rules).
 *
 * - `UNTIL` is compared as a local wall-clock time in the company's zone (floating), whether it
 *   ends in `Z` or not: `UNTIL=20270331T235959Z` lets an occurrence start until 31 March 23:59:59
 *   in Berlin.
 * - The closure's `start` always counts as the first occurrence (RFC 5545: "The DTSTART property
 *   value always counts as the first occurrence"), also when the rule would not produce it
 *   (`BYDAY=SA,SU` and a Friday start); `COUNT` includes it.
 * - A window's expansion stops after MAX_OCCURRENCES occurrences.
 */

import { DateTime } from 'luxon';
import rrule from 'rrule';

const { RRule } = rrule;
type Rule = InstanceType<typeof RRule>;

/** Most occurrences of one closure in one window (a daily closure over 400 days has 400). */
export const MAX_OCCURRENCES = 1000;
/** Occurrences counted to find the last one of a bounded rule; beyond, it counts as endless. */
const LAST_SCAN = 20_000;
const DAY_MS = 86_400_000;

export interface RecurringClosure {
  start: Date;
  end: Date;
  /** RRULE value without `RRULE:`; null: the closure happens once. */
  recurrence: string | null;
}

export interface Occurrence {
  start: Date;
  end: Date;
}

/** The wall-clock fields of `at` in `zone` to the second, as a UTC Date ("floating"). */
function floating(at: Date, zone: string): Date {
  const local = DateTime.fromJSDate(at, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

/** The instant the floating `fields` name in `zone`. */
function instant(fields: Date, zone: string): Date {
  return DateTime.fromObject(
    {
      year: fields.getUTCFullYear(),
      month: fields.getUTCMonth() + 1,
      day: fields.getUTCDate(),
      hour: fields.getUTCHours(),
      minute: fields.getUTCMinutes(),
      second: fields.getUTCSeconds(),
    },
    { zone },
  ).toJSDate();
}

/**
 * The rule's options for `rrule`, or why it cannot be read. The contracts' `recurrenceProblem`
 * checks the syntax first; this catches what only the package notices.
 */
function ruleOptions(recurrence: string): ReturnType<typeof RRule.parseString> {
  return RRule.parseString(recurrence.trim().toUpperCase());
}

/** Why `rrule` cannot expand `recurrence`, or null. */
export function recurrenceParseProblem(recurrence: string): string | null {
  try {
    const options = ruleOptions(recurrence);
    if (options.dtstart || options.tzid) return 'A recurrence has no DTSTART or TZID.';
    if (options.freq === undefined || options.freq > RRule.DAILY)
      return 'A recurrence needs FREQ DAILY, WEEKLY, MONTHLY or YEARLY.';
    new RRule({ ...options, dtstart: new Date(0) }).after(new Date(0), true);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'The recurrence cannot be read.';
  }
}

/**
 * The expansion of one closure: its first occurrence (start/end), the local duration, and the
 * rule for the occurrences after the first.
 */
class Expansion {
  private readonly first: Date;
  private readonly duration: number;
  /** The occurrences after the first (floating starts); null when there are none. */
  private readonly rest: Rule | null;
  /** The rule stops (UNTIL or COUNT). */
  readonly bounded: boolean;

  constructor(
    private readonly closure: RecurringClosure & { recurrence: string },
    private readonly zone: string,
  ) {
    this.first = floating(closure.start, zone);
    this.duration = floating(closure.end, zone).getTime() - this.first.getTime();
    const options = ruleOptions(closure.recurrence);
    this.bounded = Boolean(options.until) || Boolean(options.count);
    const rule = new RRule({ ...options, dtstart: this.first });
    // The start counts as the first occurrence, also when the rule would skip it; then it is
    // one of COUNT, and the rule gives one less.
    const synced = rule.after(this.first, true)?.getTime() === this.first.getTime();
    if (synced || !options.count) this.rest = rule;
    else
      this.rest =
        options.count > 1 ? new RRule({ ...options, count: options.count - 1, dtstart: this.first }) : null;
  }

  /** The occurrence starting at the floating `at` (to the second; the first's milliseconds added back). */
  private occurrence(at: Date): Occurrence {
    if (at.getTime() === this.first.getTime()) return { start: this.closure.start, end: this.closure.end };
    const ms = (d: Date) => d.getTime() % 1000;
    return {
      start: new Date(instant(at, this.zone).getTime() + ms(this.closure.start)),
      end: new Date(
        instant(new Date(at.getTime() + this.duration), this.zone).getTime() + ms(this.closure.end),
      ),
    };
  }

  /** Floating starts after the first within [from, to] (floating), at most `max`. */
  private starts(from: Date, to: Date, max: number): Date[] {
    if (!this.rest) return [];
    return this.rest
      .between(from, to, true, (_date, i) => i < max)
      .filter((d) => d.getTime() !== this.first.getTime());
  }

  /** Occurrences overlapping [from, until), by start, at most `max`. */
  within(from: Date, until: Date, max: number): Occurrence[] {
    const result: Occurrence[] = [];
    if (this.closure.start < until && this.closure.end > from) result.push(this.occurrence(this.first));
    if (result.length >= max || until <= this.closure.start) return result;
    // A day to spare on each side for the zone's offset; the instants are checked exactly below.
    const lower = new Date(
      Math.max(floating(from, this.zone).getTime() - this.duration - DAY_MS, this.first.getTime()),
    );
    const upper = new Date(floating(until, this.zone).getTime() + DAY_MS);
    // The margin holds at most one occurrence a day (no rule recurs more often) that is not counted.
    const margin = Math.ceil(this.duration / DAY_MS) + 4;
    for (const at of this.starts(lower, upper, max + margin)) {
      const o = this.occurrence(at);
      if (o.start < until && o.end > from) result.push(o);
      if (result.length >= max) break;
    }
    return result;
  }

  /** The occurrence running at `at` or the next one after it; null when none ends after `at`. */
  currentOrNext(at: Date): Occurrence | null {
    if (this.closure.end > at) return { start: this.closure.start, end: this.closure.end };
    if (!this.rest) return null;
    let from = new Date(floating(at, this.zone).getTime() - this.duration - DAY_MS);
    // Past the day to spare, the first occurrence found is the one; a few steps at most.
    for (let step = 0; step < 10; step++) {
      const next = this.rest.after(from, false);
      if (!next) return null;
      if (next.getTime() !== this.first.getTime()) {
        const o = this.occurrence(next);
        if (o.end > at) return o;
      }
      from = next;
    }
    return null;
  }

  /** End of the last occurrence; null when the rule has no end or it is too far to count. */
  lastEnd(): Date | null {
    if (!this.bounded) return null;
    if (!this.rest) return this.closure.end;
    const starts = this.rest.all((_date, i) => i < LAST_SCAN);
    if (starts.length >= LAST_SCAN) return null;
    const last = starts.at(-1);
    if (!last || last.getTime() <= this.first.getTime()) return this.closure.end;
    return this.occurrence(last).end;
  }
}

const expansion = (closure: RecurringClosure, zone: string) =>
  closure.recurrence ? new Expansion({ ...closure, recurrence: closure.recurrence }, zone) : null;

/**
 * The closure's occurrences overlapping [from, until) in `zone`, by start, at most `max`
 * (MAX_OCCURRENCES): a closure that does not recur is its one occurrence.
 */
export function occurrencesWithin(
  closure: RecurringClosure,
  zone: string,
  from: Date,
  until: Date,
  max = MAX_OCCURRENCES,
): Occurrence[] {
  const rule = expansion(closure, zone);
  if (rule) return rule.within(from, until, max);
  return closure.start < until && closure.end > from ? [{ start: closure.start, end: closure.end }] : [];
}

/** The occurrence running at `at` or the next one; null when the last one ended by `at`. */
export function currentOrNextOccurrence(
  closure: RecurringClosure,
  zone: string,
  at: Date,
): Occurrence | null {
  const rule = expansion(closure, zone);
  if (rule) return rule.currentOrNext(at);
  return closure.end > at ? { start: closure.start, end: closure.end } : null;
}

/**
 * End of the closure's last occurrence in `zone` — its `end` when it does not recur; null when
 * the recurrence has no UNTIL or COUNT, or more than 20,000 occurrences.
 */
export function lastOccurrenceEnd(closure: RecurringClosure, zone: string): Date | null {
  const rule = expansion(closure, zone);
  return rule ? rule.lastEnd() : closure.end;
}
