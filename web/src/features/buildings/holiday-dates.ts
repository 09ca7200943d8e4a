/** Dates of the holidays dialog: a holiday's local date with its weekday, and the current year. */

/** A local date `YYYY-MM-DD` with its weekday: "Di., 06.01.2026" in German, "Tue, 01/06/2026" in English. */
export function formatHolidayDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** The year `now` falls in, in `zone`. */
export const yearIn = (zone: string, now: Date) =>
  Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: zone }).format(now));
