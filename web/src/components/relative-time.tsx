/**
 * "Last signal" / "last seen" cells: the time since an instant in words of the UI
 * language ("vor 5 Min.", "5 min. ago") through `Intl.RelativeTimeFormat`, with the exact date
 * and time in a tooltip. Re-renders every 30 s so the words stay true while the page is open.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../lib/clock.tsx';
import { formatDateTime, formatDay } from '../lib/format.ts';
import { Button } from './ui/button.tsx';
import { Tooltip } from './ui/tooltip.tsx';

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/**
 * `iso` relative to `now` in `locale`, in the largest unit that keeps the number ≥ 1
 * (59 s → seconds, 5 min → minutes, …); short style, rounded down. These are past instants: one
 * a moment after `now` (the page's clock ticks every 30 s, a fetch just finished) and anything
 * under a second reads "jetzt" / "now", never "in 0 Sek.".
 */
export function formatRelative(iso: string, now: Date, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { style: 'short' });
  let amount = Math.min(0, (new Date(iso).getTime() - now.getTime()) / 1000);
  if (amount > -1) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
  for (const [unit, next] of STEPS) {
    if (Math.abs(amount) < next) return format.format(Math.trunc(amount), unit);
    amount /= next;
  }
  return format.format(Math.trunc(amount), 'year');
}

/** The exact local date and time of `iso` ("22.11.2026, 06:55:10"). */
export function formatExact(iso: string, locale: string): string {
  return formatDateTime(iso, locale, { seconds: true });
}

/** The injected clock's current time (lib/clock.tsx), read again every `intervalMs`. */
function useNow(intervalMs = 30_000): Date {
  const clock = useClock();
  const [now, setNow] = useState(clock);
  useEffect(() => {
    const timer = setInterval(() => setNow(clock()), intervalMs);
    return () => clearInterval(timer);
  }, [clock, intervalMs]);
  return now;
}

export interface RelativeTimeProps {
  /** ISO instant, or null for "never" (shown as `emptyText`). */
  iso: string | null;
  emptyText: string;
  testid: string;
}

export function RelativeTime({ iso, emptyText, testid }: RelativeTimeProps) {
  const { i18n } = useTranslation();
  const now = useNow();
  if (!iso) return <span data-testid={testid}>{emptyText}</span>;
  return (
    <Tooltip content={formatExact(iso, i18n.language)} width={180} testid={`${testid}-tooltip`}>
      {/* A button so keyboard users can focus it and get the tooltip too. */}
      <Button
        variant="ghost"
        size="sm"
        className="-mx-3 font-normal text-ink underline decoration-dotted"
        testid={testid}
      >
        <time dateTime={iso}>{formatRelative(iso, now, i18n.language)}</time>
      </Button>
    </Tooltip>
  );
}

/** The local date of `iso` ("22.11.2026"), for "created" columns. */
export function formatDate(iso: string, locale: string): string {
  return formatDay(iso, locale);
}
