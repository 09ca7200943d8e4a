/**
 * A closure's recurrence in words for the list: "jedes Wochenende bis 31.03.2027", "weekly on
 * Sat, Sun until 03/31/2027", "alle 2 Wochen am Mo, 10-mal". Rules beyond frequency, interval,
 * plain weekdays of a weekly rule, UNTIL and COUNT read "nach eigener Regel" / "by a custom rule"
 * (the list shows the RRULE itself as the title).
 */
import {
  parseRecurrence,
  RECURRENCE_WEEKDAYS,
  type RecurrenceWeekday,
  untilDate,
} from '@heizplan/contracts/recurrence';
import { useTranslation } from 'react-i18next';
import { toLocalInput } from './closure-form.ts';
import { weekdayOf } from './closure-repeat.ts';

const isWeekday = (day: string): day is RecurrenceWeekday =>
  (RECURRENCE_WEEKDAYS as readonly string[]).includes(day);

/** "31.03.2027" in German, "03/31/2027" in English: the UNTIL date is a day of the company's calendar. */
function numericDate(day: string, language: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)));
}

/** Words a closure's recurrence (null when it does not recur); `start` and `zone` name a weekly rule's day. */
export function useRecurrenceText() {
  const { t, i18n } = useTranslation('closures');
  return (recurrence: string | null, start: string, zone: string): string | null => {
    if (recurrence === null) return null;
    const parsed = parseRecurrence(recurrence);
    if ('problem' in parsed) return t('recurrence.custom');
    const { FREQ, INTERVAL, BYDAY, UNTIL, COUNT, ...others } = parsed.parts;
    const days = BYDAY?.split(',') ?? [];
    if (Object.keys(others).length > 0 || !days.every(isWeekday) || (days.length > 0 && FREQ !== 'WEEKLY'))
      return t('recurrence.custom');
    const count = Number(INTERVAL ?? '1');
    let rule: string;
    if (FREQ === 'WEEKLY') {
      const chosen = days.length > 0 ? days : [weekdayOf(toLocalInput(start, zone))];
      const ordered = RECURRENCE_WEEKDAYS.filter((d) => chosen.includes(d));
      rule =
        count === 1 && ordered.join(',') === 'SA,SU'
          ? t('recurrence.weekend')
          : t('recurrence.weeklyOn', {
              count,
              days: ordered.map((d) => t(`recurrence.weekdays.${d}`)).join(', '),
            });
    } else if (FREQ === 'DAILY') rule = t('recurrence.daily', { count });
    else if (FREQ === 'MONTHLY') rule = t('recurrence.monthly', { count });
    else rule = t('recurrence.yearly', { count });
    if (UNTIL) return t('recurrence.until', { rule, date: numericDate(untilDate(UNTIL), i18n.language) });
    if (COUNT) return t('recurrence.times', { rule, count: Number(COUNT) });
    return rule;
  };
}
