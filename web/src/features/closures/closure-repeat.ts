/**
 * The dialog's "Repeat" choice and the RRULE it stands for (decision 0051, "Recurrence and
 * buildings"): none, daily, weekly on chosen weekdays, monthly, yearly — each with an optional
 * last day — or a rule of one's own. UNTIL is that day's 23:59:59, compared by the server as the
 * company's local time, so it is the last day an occurrence may start on.
 */
import {
  formatRecurrence,
  parseRecurrence,
  RECURRENCE_WEEKDAYS,
  type RecurrenceParts,
  type RecurrenceWeekday,
  untilDate,
} from '@heizplan/contracts/recurrence';
import { DateTime } from 'luxon';

export const REPEAT_CHOICES = ['none', 'daily', 'weekly', 'monthly', 'yearly', 'custom'] as const;
export type RepeatChoice = (typeof REPEAT_CHOICES)[number];

/** The repeat fields of the closure form. */
export interface RepeatFields {
  repeat: RepeatChoice;
  /** Weekly: the weekdays an occurrence starts on. */
  weekdays: RecurrenceWeekday[];
  /** `yyyy-MM-dd`: the last day an occurrence may start on; '' = no end. */
  until: string;
  /** `custom`: the RRULE as typed (without `RRULE:`). */
  recurrence: string;
}

/** The weekday (`MO` … `SU`) of a `yyyy-MM-ddTHH:mm` wall-clock value; Monday when unreadable. */
export function weekdayOf(localStart: string): RecurrenceWeekday {
  const dt = DateTime.fromISO(localStart);
  return RECURRENCE_WEEKDAYS[dt.isValid ? dt.weekday - 1 : 0] ?? 'MO';
}

const UNTIL_END_OF_DAY = /^\d{8}T235959Z$/;
const FREQ_CHOICE: Record<string, RepeatChoice> = {
  DAILY: 'daily',
  WEEKLY: 'weekly',
  MONTHLY: 'monthly',
  YEARLY: 'yearly',
};

/**
 * The RRULE of the repeat fields; null for none. Weekly without a ticked day starts on the
 * start's weekday.
 */
export function recurrenceOf(fields: RepeatFields, localStart: string): string | null {
  if (fields.repeat === 'none') return null;
  if (fields.repeat === 'custom') return fields.recurrence.trim();
  const parts: RecurrenceParts = { FREQ: fields.repeat.toUpperCase() };
  if (fields.until) parts.UNTIL = `${fields.until.replaceAll('-', '')}T235959Z`;
  if (fields.repeat === 'weekly') {
    const days = fields.weekdays.length > 0 ? fields.weekdays : [weekdayOf(localStart)];
    parts.BYDAY = RECURRENCE_WEEKDAYS.filter((d) => days.includes(d)).join(',');
  }
  return formatRecurrence(parts);
}

/**
 * The repeat fields of a stored rule: one of the simple choices when the rule is one the dialog
 * writes (FREQ, weekdays for a weekly rule, an UNTIL at the end of a day), else `custom` with
 * the rule as it is.
 */
export function repeatFieldsOf(recurrence: string | null, localStart: string): RepeatFields {
  const start = weekdayOf(localStart);
  // Weekly ticks the start's weekday when chosen (the start may still change before).
  if (recurrence === null) return { repeat: 'none', weekdays: [], until: '', recurrence: '' };
  const custom: RepeatFields = { repeat: 'custom', weekdays: [start], until: '', recurrence };
  const parsed = parseRecurrence(recurrence);
  if ('problem' in parsed) return custom;
  const { FREQ, UNTIL, BYDAY, INTERVAL, ...others } = parsed.parts;
  const choice = FREQ ? FREQ_CHOICE[FREQ] : undefined;
  const days = BYDAY?.split(',') ?? [];
  const plainDays = days.every((d): d is RecurrenceWeekday =>
    (RECURRENCE_WEEKDAYS as readonly string[]).includes(d),
  );
  if (
    !choice ||
    Object.keys(others).length > 0 ||
    (INTERVAL !== undefined && INTERVAL !== '1') ||
    (UNTIL !== undefined && !UNTIL_END_OF_DAY.test(UNTIL)) ||
    (BYDAY !== undefined && (choice !== 'weekly' || !plainDays))
  )
    return custom;
  return {
    repeat: choice,
    weekdays: days.length > 0 && plainDays ? days : [start],
    until: UNTIL ? untilDate(UNTIL) : '',
    recurrence: '',
  };
}
