/**
 * Calendar view of the events (spec §2 "Events screen"): month, week and day from
 * react-big-calendar with its luxon localizer, weeks starting on Monday. Titles and day headers
 * come from `Intl` in the UI language ("23.–29. November 2026", "Do., 26.11."): the localizer's
 * own formats put words in English order even in German. Week and day open scrolled to the
 * working day rather than midnight. The calendar draws
 * in the browser's zone, so event times are shifted to show the company's wall-clock time
 * (the same times the dialog and the list show). Open-ended events are drawn one hour long.
 * Picking a free slot starts a new event there; picking an event opens it. Behind the events
 * the calendar draws its layers — closures, holidays, own days, bookings (calendar-layers.tsx) —
 * which cannot be picked.
 *
 * By keyboard (WCAG 2.1.1, 2.4.3): each event of the month is a button inside the library's event
 * (`components.month.event`) whose click reaches the library's own, so Enter and Space open it as
 * a click does; in week and day, where the library's events take focus themselves, Enter and
 * Space open them (`onKeyPressEvent`); each day's button is named in full with its entries (calendar-layers.tsx); opening
 * a day moves to the day view and puts focus on its title, a heading of the toolbar
 * (`components.toolbar`), instead of losing it with the month grid.
 * Loaded lazily: the library is only fetched when someone opens the calendar.
 */
import type { CalendarLayer } from '@heizplan/contracts/calendar-layers';
import type { HeatingEvent } from '@heizplan/contracts/events';
import { DateTime } from 'luxon';
import {
  createContext,
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  Calendar,
  type DateRange,
  type EventProps,
  type Formats,
  luxonLocalizer,
  type ToolbarProps,
  type View,
} from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import './events-calendar.css';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../lib/clock.tsx';
import { formatWeekday } from '../../../lib/format.ts';
import type { CalendarView } from '../view-preference.ts';
import { wallClock } from '../wall-clock.ts';
import {
  DayEventsProvider,
  LayerDaysProvider,
  type LayerItem,
  layerDayProps,
  layerDays,
  layerItems,
  layerTone,
  MonthDateHeader,
  useLayerLabel,
} from './calendar-layers.tsx';

const localizer = luxonLocalizer(DateTime, { firstDayOfWeek: 1 });

/** Week and day views open here: the working day, not midnight (only the time of day counts). */
export const SCROLL_TO_TIME = new Date(1970, 0, 1, 7, 0);

/** Below Tailwind's `sm`: seven week columns of ≈ 40 px. */
const NARROW = '(max-width: 639px)';

const hasMedia = () => typeof window.matchMedia === 'function';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => hasMedia() && window.matchMedia(NARROW).matches);
  useEffect(() => {
    if (!hasMedia()) return;
    const query = window.matchMedia(NARROW);
    const change = () => setNarrow(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return narrow;
}

/**
 * Titles and headers in `language`'s date order (the dates are browser-local, see `wallClock`);
 * `narrow` week columns get "Do 26" instead of "Do., 26.11.", wrapped onto two lines.
 */
export function calendarFormats(language: string, narrow = false): Formats {
  const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(language, options);
  const monthYear = intl({ month: 'long', year: 'numeric' });
  const fullDay = intl({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const longDate = intl({ day: 'numeric', month: 'long', year: 'numeric' });
  const weekday = intl({ weekday: 'short' });
  const dayNumber = intl({ day: 'numeric' });
  return {
    monthHeaderFormat: (date: Date) => monthYear.format(date),
    dayHeaderFormat: (date: Date) => fullDay.format(date),
    // "23.–29. November 2026" / "November 23 – 29, 2026", across months and years too.
    dayRangeHeaderFormat: ({ start, end }: DateRange) => longDate.formatRange(start, end),
    agendaHeaderFormat: ({ start, end }: DateRange) => longDate.formatRange(start, end),
    dayFormat: (date: Date) =>
      narrow ? `${weekday.format(date)} ${dayNumber.format(date)}` : formatWeekday(date, language),
    weekdayFormat: (date: Date) => weekday.format(date),
    // "1", not "01": the day's button is named "Dienstag, 1. Dezember 2026", which holds what it shows.
    dateFormat: (date: Date) => dayNumber.format(date),
  };
}

interface CalendarEvent {
  title: string;
  start: Date;
  end: Date;
  resource: HeatingEvent;
}

/** What the calendar draws: events, and layers behind them. */
type CalendarItem = CalendarEvent | LayerItem;

const isLayer = (item: CalendarItem): item is LayerItem => 'layer' in item;

/**
 * An event in the month grid: a button, so it is in the tab order. It has no handler of its own:
 * its click (Enter and Space included) bubbles to the library's event, which opens it.
 *
 * The library draws a week of the month as `role="row"`, whose children must be cells (ARIA 1.2,
 * axe `aria-required-children`): in the grid the button sits in a cell. In the "+N more" popup,
 * outside any row, a cell would need a row, so there it stays a plain wrapper — the parent is only
 * known once drawn.
 */
function MonthEvent({ title }: EventProps<CalendarItem>) {
  const wrapper = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const element = wrapper.current;
    if (element?.parentElement?.closest('[role="row"]')) element.setAttribute('role', 'cell');
  }, []);
  return (
    <span ref={wrapper} className="block">
      <button
        type="button"
        className="block w-full truncate text-left focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white"
      >
        {title}
      </button>
    </span>
  );
}

/** Set when a day of the month is opened: the day view's toolbar then takes focus on its title. */
const FocusTitleContext = createContext<RefObject<boolean>>({ current: false });

/**
 * The library's toolbar (same classes and buttons), with the title as a heading that can take
 * focus: where focus lands after a day of the month was opened.
 */
function CalendarToolbar({ label, localizer, onNavigate, onView, view, views }: ToolbarProps<CalendarItem>) {
  const { messages } = localizer;
  const focusTitle = useContext(FocusTitleContext);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focusTitle.current || view !== 'day') return;
    focusTitle.current = false;
    title.current?.focus();
  }, [focusTitle, view]);
  const names = Array.isArray(views) ? views : (Object.keys(views) as View[]);
  return (
    <div className="rbc-toolbar">
      <span className="rbc-btn-group">
        <button type="button" onClick={() => onNavigate('TODAY')}>
          {messages.today}
        </button>
        <button type="button" onClick={() => onNavigate('PREV')}>
          {messages.previous}
        </button>
        <button type="button" onClick={() => onNavigate('NEXT')}>
          {messages.next}
        </button>
      </span>
      <h2 ref={title} tabIndex={-1} className="rbc-toolbar-label">
        {label}
      </h2>
      {names.length > 1 && (
        <span className="rbc-btn-group">
          {names.map((name) => (
            <button
              key={name}
              type="button"
              className={name === view ? 'rbc-active' : undefined}
              aria-pressed={name === view}
              onClick={() => onView(name)}
            >
              {messages[name]}
            </button>
          ))}
        </span>
      )}
    </div>
  );
}

/**
 * A day's heading in week and day view, as text: the library's own is a `columnheader` with no
 * row around it (axe `aria-required-parent`); the heading's button already names the day.
 */
function TimeGridDayHeader({ label }: { label: string }) {
  return <span>{label}</span>;
}

/**
 * The library draws the week's and day's all-day strip as a rowgroup holding a row without cells
 * (ARIA 1.2 asks a row for cells; axe `aria-required-children`). It is layout there, not a table:
 * drawn as presentation once the library has drawn it, and again whenever it redraws.
 */
function useAllDayStripAsLayout(container: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const layout = () => {
      for (const element of root.querySelectorAll(
        '.rbc-time-header-content [role="rowgroup"], .rbc-time-header-content [role="row"]',
      ))
        element.setAttribute('role', 'presentation');
    };
    layout();
    const observer = new MutationObserver(layout);
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['role'] });
    return () => observer.disconnect();
  }, [container]);
}

/** The month's date headers name the day and its entries; its events are buttons; the toolbar's title takes focus. */
const COMPONENTS = {
  toolbar: CalendarToolbar,
  month: { dateHeader: MonthDateHeader, event: MonthEvent },
  week: { header: TimeGridDayHeader },
  day: { header: TimeGridDayHeader },
};

/** The number of `items` on each browser-local date (those that touch it). */
function eventsPerDay(items: readonly CalendarEvent[]): (date: Date) => number {
  return (date) => {
    const from = DateTime.fromJSDate(date).startOf('day');
    const to = from.plus({ days: 1 }).toJSDate();
    return items.filter((item) => item.start < to && item.end > from.toJSDate()).length;
  };
}

export interface EventsCalendarProps {
  events: HeatingEvent[];
  zone: string;
  /** Browser-local date the view shows. */
  date: Date;
  view: CalendarView;
  onNavigate: (date: Date) => void;
  onView: (view: CalendarView) => void;
  /** Picking an empty slot creates an event there; absent for members who may not create events. */
  onSelectSlot?: (slot: { start: Date; end: Date }) => void;
  onSelectEvent: (event: HeatingEvent) => void;
  label: (event: HeatingEvent) => string;
  /** Drawn behind the events; empty when hidden. */
  layers?: readonly CalendarLayer[] | undefined;
}

const NO_LAYERS: readonly CalendarLayer[] = [];

export function EventsCalendar({
  events,
  zone,
  date,
  view,
  onNavigate,
  onView,
  onSelectSlot,
  onSelectEvent,
  label,
  layers = NO_LAYERS,
}: EventsCalendarProps) {
  const { t, i18n } = useTranslation('events');
  const narrow = useNarrow();
  const clock = useClock();
  // "Today" is the company's day, drawn like the events as a browser-local wall-clock date.
  const now = useCallback(() => wallClock(clock().toISOString(), zone), [clock, zone]);
  const formats = useMemo(() => calendarFormats(i18n.language, narrow), [i18n.language, narrow]);
  const items = useMemo<CalendarEvent[]>(
    () =>
      events.map((event) => {
        const start = wallClock(event.start, zone);
        return {
          title: label(event),
          start,
          end: event.end ? wallClock(event.end, zone) : new Date(start.getTime() + 3_600_000),
          resource: event,
        };
      }),
    [events, zone, label],
  );
  const layerLabel = useLayerLabel();
  const layerList = useMemo(() => layerItems(layers, zone, layerLabel), [layers, zone, layerLabel]);
  const dayOf = useMemo(() => layerDays(layerList), [layerList]);
  const countOf = useMemo(() => eventsPerDay(items), [items]);
  const focusTitle = useRef(false);
  const frame = useRef<HTMLDivElement>(null);
  useAllDayStripAsLayout(frame);
  // Month: bookings would crowd the days; layers show as tinted days and a line under the date.
  const backgroundEvents = view === 'month' ? [] : layerList;
  const messages = {
    today: t('calendar.today'),
    previous: t('calendar.previous'),
    next: t('calendar.next'),
    month: t('calendar.month'),
    week: t('calendar.week'),
    day: t('calendar.day'),
    allDay: t('calendar.allDay'),
    noEventsInRange: t('calendar.empty'),
    showMore: (count: number) => t('calendar.more', { count }),
  };
  return (
    <div
      ref={frame}
      className="h-[70dvh] min-h-[28rem] rounded-xl border border-stone-200 bg-white p-2 sm:p-3"
      data-testid="events-calendar"
      data-view={view}
    >
      <FocusTitleContext.Provider value={focusTitle}>
        <DayEventsProvider value={countOf}>
          <LayerDaysProvider value={dayOf}>
            <Calendar<CalendarItem>
              localizer={localizer}
              culture={i18n.language}
              formats={formats}
              scrollToTime={SCROLL_TO_TIME}
              events={items}
              backgroundEvents={backgroundEvents}
              dayPropGetter={view === 'month' ? (day: Date) => layerDayProps(dayOf(day)) : undefined}
              components={COMPONENTS}
              date={date}
              getNow={now}
              view={view}
              views={['month', 'week', 'day']}
              onNavigate={onNavigate}
              onView={(next: View) => onView(next as CalendarView)}
              onDrillDown={(day: Date, next: View) => {
                focusTitle.current = true;
                onNavigate(day);
                onView(next as CalendarView);
              }}
              selectable={onSelectSlot !== undefined}
              onSelectSlot={(slot) => onSelectSlot?.({ start: slot.start, end: slot.end })}
              onSelectEvent={(item) => {
                if (!isLayer(item)) onSelectEvent(item.resource);
              }}
              // Week and day draw an event as a focusable role="button" that only answers a click:
              // Enter and Space open it too. The month's events are real buttons (MonthEvent), whose
              // keys already click; they are left to that.
              onKeyPressEvent={(item, event) => {
                // The library types the event as any React event; it is the element's keydown.
                const { key } = event as KeyboardEvent<HTMLElement>;
                if (key !== 'Enter' && key !== ' ') return;
                if (isLayer(item) || (event.target as HTMLElement).closest('button')) return;
                event.preventDefault();
                onSelectEvent(item.resource);
              }}
              eventPropGetter={(item) =>
                isLayer(item)
                  ? { className: `hp-layer hp-layer-${layerTone(item.layer.kind)}` }
                  : { className: item.resource.status === 'past' ? 'opacity-60' : undefined }
              }
              messages={messages}
              popup
            />
          </LayerDaysProvider>
        </DayEventsProvider>
      </FocusTitleContext.Provider>
    </div>
  );
}

export default EventsCalendar;
