/**
 * The periods a report covers (decision 0061): a calendar month, or a heating season from
 * 1 October to 30 April (`2026` = 1 Oct 2026 – 30 Apr 2027), as local dates of the company's
 * zone, with the period before and the same period a year before for comparisons.
 */
import { DateTime } from 'luxon';

export interface ReportPeriod {
  kind: 'month' | 'season';
  /** `YYYY-MM`, or the season's first year. */
  key: string;
  /** First and last local day, inclusive (`YYYY-MM-DD`). */
  from: string;
  to: string;
  /** The months `YYYY-MM` it spans (meter readings are monthly). */
  months: string[];
}

function monthsBetween(first: DateTime, last: DateTime): string[] {
  const months: string[] = [];
  for (let m = first.startOf('month'); m <= last; m = m.plus({ months: 1 }))
    months.push(m.toFormat('yyyy-MM'));
  return months;
}

/** The month `YYYY-MM`. */
export function monthPeriod(month: string): ReportPeriod {
  const first = DateTime.fromFormat(month, 'yyyy-MM', { zone: 'utc' });
  const last = first.endOf('month');
  return {
    kind: 'month',
    key: month,
    from: first.toISODate() as string,
    to: last.toISODate() as string,
    months: [month],
  };
}

/** The heating season starting 1 October of `year`. */
export function seasonPeriod(year: number): ReportPeriod {
  const first = DateTime.utc(year, 10, 1);
  const last = DateTime.utc(year + 1, 4, 30);
  return {
    kind: 'season',
    key: String(year),
    from: first.toISODate() as string,
    to: last.toISODate() as string,
    months: monthsBetween(first, last),
  };
}

/** The month or season before `period`. */
export function previousPeriod(period: ReportPeriod): ReportPeriod {
  if (period.kind === 'season') return seasonPeriod(Number(period.key) - 1);
  return monthPeriod(
    DateTime.fromFormat(period.key, 'yyyy-MM', { zone: 'utc' }).minus({ months: 1 }).toFormat('yyyy-MM'),
  );
}

/** The same month or season a year before. */
export function previousYearPeriod(period: ReportPeriod): ReportPeriod {
  if (period.kind === 'season') return seasonPeriod(Number(period.key) - 1);
  return monthPeriod(
    DateTime.fromFormat(period.key, 'yyyy-MM', { zone: 'utc' }).minus({ years: 1 }).toFormat('yyyy-MM'),
  );
}

/** The period as instants: local midnight of its first day to local midnight after its last (UTC). */
export function periodInstants(period: ReportPeriod, timeZone: string): { from: Date; to: Date } {
  return {
    from: DateTime.fromISO(period.from, { zone: timeZone }).toJSDate(),
    to: DateTime.fromISO(period.to, { zone: timeZone }).plus({ days: 1 }).toJSDate(),
  };
}
