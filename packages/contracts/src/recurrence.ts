/**
 * The recurrence of a closure (decision 0051, "Recurrence and buildings"): an RFC 5545 RRULE
 * value without the `RRULE:` prefix, e.g. `FREQ=WEEKLY;BYDAY=SA,SU`,
 * `FREQ=YEARLY;UNTIL=20301231T235959Z` or `FREQ=WEEKLY;INTERVAL=2;COUNT=10`.
 *
 * The check here is the syntax both sides share (the web's dialog, the server's service before
 * the `rrule` package expands it): known rule parts with values in their RFC 5545 ranges, each
 * at most once; `FREQ` given and at least `DAILY` (a closure recurring by the hour would be a
 * heating plan), so neither `BYHOUR`, `BYMINUTE` nor `BYSECOND` (the time of day is the
 * closure's start); no `DTSTART` (the closure's start is the first occurrence); not both `UNTIL`
 * and `COUNT`; at most RECURRENCE_MAX_LENGTH characters. Names and values are case-insensitive
 * as in RFC 5545.
 */

export const RECURRENCE_MAX_LENGTH = 500;

/** The frequencies a closure may recur with. */
export const RECURRENCE_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

/** RFC 5545 weekday codes, Monday first. */
export const RECURRENCE_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type RecurrenceWeekday = (typeof RECURRENCE_WEEKDAYS)[number];

/** An RRULE's parts by upper-case name, values upper-cased. */
export type RecurrenceParts = Partial<Record<RecurrencePart, string>>;

const PARTS = [
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
] as const;
type RecurrencePart = (typeof PARTS)[number];

const isPart = (name: string): name is RecurrencePart => (PARTS as readonly string[]).includes(name);

/** Comma-separated integers each within ±[min, max] (`signed`) or [min, max]. */
function intList(value: string, min: number, max: number, signed: boolean): boolean {
  return value.split(',').every((item) => {
    const match = (signed ? /^[+-]?\d{1,3}$/ : /^\d{1,3}$/).exec(item);
    if (!match) return false;
    const n = Math.abs(Number(item));
    return n >= min && n <= max;
  });
}

/** `YYYYMMDD` or `YYYYMMDDTHHMMSS` with an optional `Z`, a real date and time. */
function untilValid(value: string): boolean {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(value);
  if (!match) return false;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(mo) - 1 &&
    date.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 61
  );
}

const positive = (value: string, max: number) =>
  /^\d{1,6}$/.test(value) && Number(value) >= 1 && Number(value) <= max;

/** Why one part's value is not valid, or null. */
function partProblem(name: RecurrencePart, value: string, freq: string | undefined): string | null {
  switch (name) {
    case 'FREQ':
      return (RECURRENCE_FREQUENCIES as readonly string[]).includes(value)
        ? null
        : 'FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY.';
    case 'UNTIL':
      return untilValid(value)
        ? null
        : 'UNTIL must be a date (YYYYMMDD) or a date and time (YYYYMMDDTHHMMSSZ).';
    case 'COUNT':
      return positive(value, 100_000) ? null : 'COUNT must be a whole number from 1.';
    case 'INTERVAL':
      return positive(value, 1000) ? null : 'INTERVAL must be a whole number from 1 to 1000.';
    case 'BYSECOND':
    case 'BYMINUTE':
    case 'BYHOUR':
      return `A closure recurs at most daily, at the time of its start: no ${name}.`;
    case 'BYMONTHDAY':
      return intList(value, 1, 31, true) ? null : 'BYMONTHDAY takes 1 to 31 or -31 to -1.';
    case 'BYYEARDAY':
      return intList(value, 1, 366, true) ? null : 'BYYEARDAY takes 1 to 366 or -366 to -1.';
    case 'BYWEEKNO':
      return intList(value, 1, 53, true) ? null : 'BYWEEKNO takes 1 to 53 or -53 to -1.';
    case 'BYMONTH':
      return intList(value, 1, 12, false) ? null : 'BYMONTH takes 1 to 12.';
    case 'BYSETPOS':
      return intList(value, 1, 366, true) ? null : 'BYSETPOS takes 1 to 366 or -366 to -1.';
    case 'WKST':
      return (RECURRENCE_WEEKDAYS as readonly string[]).includes(value)
        ? null
        : 'WKST must be a weekday (MO … SU).';
    case 'BYDAY': {
      // A numbered weekday ("the first Monday") only with a monthly or yearly rule (RFC 5545).
      const numbered = freq === 'MONTHLY' || freq === 'YEARLY';
      const ok = value.split(',').every((item) => {
        const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
        if (!match) return false;
        if (match[1] === undefined) return true;
        const n = Math.abs(Number(match[1]));
        return numbered && n >= 1 && n <= 53;
      });
      return ok
        ? null
        : 'BYDAY takes weekdays (MO … SU), numbered (1MO, -1FR) only in monthly and yearly rules.';
    }
  }
}

/**
 * The parts of an RRULE value, names and values upper-cased, or why it is not one a closure
 * may carry (see the file's comment).
 */
export function parseRecurrence(value: string): { parts: RecurrenceParts } | { problem: string } {
  const rule = value.trim().toUpperCase();
  if (rule.length > RECURRENCE_MAX_LENGTH)
    return { problem: `A recurrence has at most ${RECURRENCE_MAX_LENGTH} characters.` };
  if (rule.includes('DTSTART'))
    return { problem: "A recurrence has no DTSTART: the closure's start is its first occurrence." };
  if (rule === '') return { problem: 'A recurrence needs FREQ.' };
  const parts: RecurrenceParts = {};
  for (const piece of rule.split(';')) {
    const match = /^([A-Z]+)=([^=;]+)$/.exec(piece);
    if (!match?.[1] || !match[2]) return { problem: `"${piece.slice(0, 40)}" is no NAME=VALUE rule part.` };
    const name = match[1];
    if (!isPart(name)) return { problem: `${name.slice(0, 20)} is no RRULE part.` };
    if (parts[name] !== undefined) return { problem: `${name} is given twice.` };
    parts[name] = match[2];
  }
  if (parts.FREQ === undefined) return { problem: 'A recurrence needs FREQ.' };
  if (parts.UNTIL !== undefined && parts.COUNT !== undefined)
    return { problem: 'A recurrence has UNTIL or COUNT, not both.' };
  for (const name of PARTS) {
    const partValue = parts[name];
    if (partValue === undefined) continue;
    const problem = partProblem(name, partValue, parts.FREQ);
    if (problem) return { problem };
  }
  return { parts };
}

/** Why `value` is no valid recurrence, or null when it is one. */
export function recurrenceProblem(value: string): string | null {
  const parsed = parseRecurrence(value);
  return 'problem' in parsed ? parsed.problem : null;
}

/** The RRULE of parts, in the order the parts are listed by RFC 5545's grammar here. */
export function formatRecurrence(parts: RecurrenceParts): string {
  return PARTS.flatMap((name) => (parts[name] === undefined ? [] : [`${name}=${parts[name]}`])).join(';');
}

/**
 * The local date an `UNTIL` value names, `YYYY-MM-DD`. UNTIL is compared as a wall-clock time
 * in the company's zone (decision 0051), so its date is the last day an occurrence may start.
 */
export function untilDate(until: string): string {
  return `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`;
}
