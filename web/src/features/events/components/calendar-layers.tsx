/**
 * The calendar's layers (closures, public and school holidays, own days, bookings; contracts'
 * calendar-layers.ts) as react-big-calendar draws them behind the events:
 * - week and day: background events, a cool blue-grey band for closures and the building
 *   calendar ("Feiertag: 1. Weihnachtstag — Frostschutz", "Weihnachtsferien (Bayern) —
 *   Frostschutz") and a light green one for bookings ("Buchung: Elternabend · Besprechung
 *   1.10"). They cannot be picked: clicks fall through to the slots under them, so a new event
 *   can still be started there (events-calendar.css).
 * - month: a day that a closure or holiday covers whole is tinted (`dayPropGetter`), and a small
 *   line under the date names the first closure or holiday of the day, how many more, and the
 *   number of bookings — bookings are counted, not drawn, so the month stays readable. The day's
 *   button says all of it in words ("Mittwoch, 25. November 2026, 2 Termine, Feiertag: Buß- und
 *   Bettag — wie ein Sonntag, 1 Buchung"), so a keyboard or screen reader user learns a day's
 *   entries on the day itself and opens it, with its bands, in the day view.
 * Times are shown in the company's zone like the events' (`wallClock`).
 */
import type { CalendarLayer, CalendarLayerKind } from '@heizplan/contracts/calendar-layers';
import { DateTime } from 'luxon';
import { createContext, type HTMLAttributes, useCallback, useContext } from 'react';
import type { DateHeaderProps } from 'react-big-calendar';
import { useTranslation } from 'react-i18next';
import { wallClock } from '../wall-clock.ts';

/** A layer as a background event of the week and day views. */
export interface LayerItem {
  title: string;
  start: Date;
  end: Date;
  layer: CalendarLayer;
}

/** The common texts naming what decided a setpoint ("Feiertag: … — Frostschutz"), by kind. */
const SOURCE_KEYS: Record<Exclude<CalendarLayerKind, 'booking'>, string> = {
  closure: 'common:sources.closure',
  holiday: 'common:sources.holiday',
  school_holiday: 'common:sources.schoolHoliday',
  company_day: 'common:sources.companyDay',
};

/** Colour group of a kind: bookings green, everything else the calendar's blue-grey. */
export const layerTone = (kind: CalendarLayerKind) => (kind === 'booking' ? 'booking' : 'calendar');

/** A function naming a layer in the UI language, with its heating mode or "like a Sunday". */
export function useLayerLabel(): (layer: CalendarLayer) => string {
  const { t } = useTranslation(['events', 'common']);
  return useCallback(
    (layer: CalendarLayer) => {
      if (layer.kind === 'booking')
        return t('events:layers.booking', { title: layer.name, unit: layer.unit?.name ?? '' });
      const mode = layer.mode ? t(`common:sources.modes.${layer.mode}`) : t('events:layers.sunday');
      return t(SOURCE_KEYS[layer.kind], { name: layer.name, mode });
    },
    [t],
  );
}

/** The layers as background events, in the browser-local dates that show the company's times. */
export function layerItems(
  layers: readonly CalendarLayer[],
  zone: string,
  label: (layer: CalendarLayer) => string,
): LayerItem[] {
  return layers.map((layer) => ({
    title: label(layer),
    start: wallClock(layer.start, zone),
    end: wallClock(layer.end, zone),
    layer,
  }));
}

/** What the month view shows of one day. */
export interface LayerDay {
  /** A closure or holiday covers the whole day: the day is tinted. */
  whole: boolean;
  /** Labels of the closures and holidays touching the day, the shortest first. */
  labels: string[];
  /** Names of the same, for the short line under the date. */
  names: string[];
  bookings: number;
}

const NO_DAY: LayerDay = { whole: false, labels: [], names: [], bookings: 0 };

/**
 * The month view's day summary of `items` (see `layerItems`), per browser-local date; each day is
 * computed once.
 */
export function layerDays(items: readonly LayerItem[]): (date: Date) => LayerDay {
  if (items.length === 0) return () => NO_DAY;
  const cache = new Map<string, LayerDay>();
  return (date) => {
    const start = DateTime.fromJSDate(date).startOf('day');
    const key = start.toISODate() ?? '';
    const known = cache.get(key);
    if (known) return known;
    const from = start.toJSDate();
    const to = start.plus({ days: 1 }).toJSDate();
    const touching = items.filter((item) => item.start < to && item.end > from);
    // The shortest first: a public holiday says more about its day than the school holidays around it.
    const calendar = touching
      .filter((item) => item.layer.kind !== 'booking')
      .sort((a, b) => a.end.getTime() - a.start.getTime() - (b.end.getTime() - b.start.getTime()));
    const day: LayerDay = {
      whole: calendar.some((item) => item.start <= from && item.end >= to),
      labels: calendar.map((item) => item.title),
      names: calendar.map((item) => item.layer.name),
      bookings: touching.length - calendar.length,
    };
    cache.set(key, day);
    return day;
  };
}

/** Month view: the class of a day a closure or holiday covers whole. */
export const layerDayProps = (day: LayerDay): HTMLAttributes<HTMLDivElement> =>
  day.whole ? { className: 'hp-layer-day' } : {};

const LayerDaysContext = createContext<(date: Date) => LayerDay>(() => NO_DAY);
/** Hands the month's date headers the day summaries (react-big-calendar renders them itself). */
export const LayerDaysProvider = LayerDaysContext.Provider;

const DayEventsContext = createContext<(date: Date) => number>(() => 0);
/** Hands the month's date headers the number of events on a browser-local date, for the day's name. */
export const DayEventsProvider = DayEventsContext.Provider;

/**
 * The name of a month day's button in `language`: the whole date, the events, the closures and
 * holidays, the bookings ("Dienstag, 1. Dezember 2026, 2 Termine, 1 Buchung").
 */
export function useMonthDayName(): (date: Date, events: number, day: LayerDay) => string {
  const { t, i18n } = useTranslation('events');
  return useCallback(
    (date: Date, events: number, day: LayerDay) => {
      const full = new Intl.DateTimeFormat(i18n.language, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }).format(date);
      return [
        full,
        events > 0 ? t('calendar.events', { count: events }) : '',
        ...day.labels,
        day.bookings > 0 ? t('layers.bookings', { count: day.bookings }) : '',
      ]
        .filter((part) => part !== '')
        .join(', ');
    },
    [t, i18n.language],
  );
}

/**
 * Month view's date header: the day number (a button to the day, named in full) and the day's
 * layers in one short line, which the button's name already says to a screen reader.
 */
export function MonthDateHeader({ label, date, drilldownView, onDrillDown }: DateHeaderProps) {
  const { t } = useTranslation('events');
  const day = useContext(LayerDaysContext)(date);
  const events = useContext(DayEventsContext)(date);
  const name = useMonthDayName()(date, events, day);
  const [first] = day.names;
  const parts = [
    first ? (day.names.length > 1 ? `${first} +${day.names.length - 1}` : first) : '',
    day.bookings > 0 ? t('layers.bookings', { count: day.bookings }) : '',
  ].filter((part) => part !== '');
  const full = [...day.labels, ...(day.bookings > 0 ? [t('layers.bookings', { count: day.bookings })] : [])];
  return (
    <>
      {drilldownView ? (
        <button type="button" className="rbc-button-link" onClick={onDrillDown} aria-label={name}>
          {label}
        </button>
      ) : (
        <span>{label}</span>
      )}
      {parts.length > 0 && (
        <span
          className="hp-layer-note"
          title={full.join('\n')}
          aria-hidden={drilldownView ? true : undefined}
          data-testid="calendar-layer-note"
        >
          {parts.join(' · ')}
        </span>
      )}
    </>
  );
}
