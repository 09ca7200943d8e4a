/**
 * Number, date and time formatting in the UI language. German dates always carry the full year
 * ("26.11.2026"): the short date style would write "26.11.26", so every screen formats dates
 * through the functions here.
 */
import { useTranslation } from 'react-i18next';

type When = string | number | Date;
const toDate = (value: When) => (value instanceof Date ? value : new Date(value));

/** A date: "26.11.2026" in German, "Nov 26, 2026" in English. */
export function formatDay(value: When, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(toDate(value));
}

/** A calendar month `2026-11` as "November 2026". */
export function formatMonth(month: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

/** Date and time: "26.11.2026, 06:55" ("…, 06:55:10" with seconds). */
export function formatDateTime(
  value: When,
  locale: string,
  { timeZone, seconds = false }: { timeZone?: string; seconds?: boolean } = {},
): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
    timeZone,
  }).format(toDate(value));
}

/** A time of day: "06:00". */
export function formatTime(value: When, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(toDate(value));
}

/** A time of day when `value` is on the same day as `now`, else date and time. */
export function formatMoment(value: When, now: When, locale: string, timeZone?: string): string {
  return formatDay(value, locale, timeZone) === formatDay(now, locale, timeZone)
    ? formatTime(value, locale, timeZone)
    : formatDateTime(value, locale, { timeZone });
}

/**
 * A season bound, "MM-DD" as the API keeps it, as a reader of `locale` writes it: "01.10." in
 * German, "10/01" in English. Anything else comes back unchanged.
 */
export function formatMonthDay(monthDay: string, locale: string): string {
  const match = /^(\d{2})-(\d{2})$/.exec(monthDay);
  if (!match) return monthDay;
  const [, month, day] = match;
  return locale.startsWith('de') ? `${day}.${month}.` : `${month}/${day}`;
}

/** A day on a chart axis or calendar header: "Do., 26.11." in German, "Thu, 11/26" in English. */
export function formatWeekday(value: When, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    timeZone,
  }).format(toDate(value));
}

/**
 * A stored number as a form field shows it for typing in `language`: "48,1598" in German, "48.1598"
 * in English, all its digits (no rounding, no thousands separator); '' for none. The form reads it
 * back with `numberOrNull`.
 */
export function numberInputText(value: number | null, language: string): string {
  if (value === null) return '';
  return language.startsWith('de') ? String(value).replace('.', ',') : String(value);
}

/** Formats °C values ("21,5 °C" in German) and percentages; '—' for unknown values. */
export function useHeatingFormat() {
  const { i18n } = useTranslation();
  const celsiusFormat = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  const percentFormat = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const plainFormat = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return {
    celsius: (value: number | null | undefined) =>
      value === null || value === undefined ? '—' : `${celsiusFormat.format(value)} °C`,
    /** A number without padded decimals ("0,5", "28"), e.g. a device's step or limit in °C. */
    plain: (value: number) => plainFormat.format(value),
    percent: (value: number | null | undefined) =>
      value === null || value === undefined ? '—' : `${percentFormat.format(value)} %`,
    /** Date and time of an ISO instant in `timeZone` (IANA), e.g. the company's. */
    dateTime: (iso: string, timeZone?: string) => formatDateTime(iso, i18n.language, { timeZone }),
  };
}
