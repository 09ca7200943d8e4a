/**
 * `/events` (spec §2 "Events screen"): list or calendar view (remembered in
 * localStorage), filters for all units or one unit (searched on the server), showing past events and hiding open-ended
 * ones, and the create/update dialog. Times are shown and typed in the company's time zone. The
 * calendar draws the company's closures, holidays, own days and bookings of its visible range
 * behind the events (fetched on their own, so they never hold the events up), with a legend and a
 * remembered switch to hide them.
 */
import type { EventListQuery, HeatingEvent } from '@heizplan/contracts/events';
import { DateTime } from 'luxon';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import type { ComboboxOption } from '../../../components/ui/combobox.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useEvents } from '../api/events.ts';
import { useCalendarLayers } from '../api/get-calendar-layers.ts';
import { CalendarLayersLegend } from '../components/calendar-layers-legend.tsx';
import { EventDialog } from '../components/event-dialog.tsx';
import { EventsTable } from '../components/events-table.tsx';
import { type EventForm, emptyForm, formOf, fromLocalInput } from '../event-form.ts';
import {
  type CalendarView,
  useCalendarLayersShown,
  useCalendarView,
  useEventsView,
} from '../view-preference.ts';
import { wallClock } from '../wall-clock.ts';

const EventsCalendar = lazy(() => import('../components/events-calendar.tsx'));

/** The unit filter's first option: no unit chosen. */
const ALL_UNITS = 'all';
const EMPTY_PAGE = { results: [], count: 0, page: 1, size: 10 };
/** The API's largest page: a calendar range shows up to this many events. */
const CALENDAR_PAGE = 200;
const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** UTC bounds of what the calendar shows: whole weeks around a month, a week, or a day. */
function visibleRange(date: Date, view: CalendarView, zone: string) {
  const day = DateTime.fromJSDate(date);
  const [from, to] =
    view === 'month'
      ? [day.startOf('month').startOf('week'), day.endOf('month').endOf('week').plus({ milliseconds: 1 })]
      : view === 'week'
        ? [day.startOf('week'), day.startOf('week').plus({ weeks: 1 })]
        : [day.startOf('day'), day.startOf('day').plus({ days: 1 })];
  return {
    from: fromLocalInput(from.toFormat(LOCAL), zone) ?? undefined,
    to: fromLocalInput(to.toFormat(LOCAL), zone) ?? undefined,
  };
}

interface DialogState {
  event: HeatingEvent | null;
  initial: EventForm;
}

export function EventsPage() {
  const { t } = useTranslation('events');
  usePageTitle(t('title'));
  const format = useHeatingFormat();
  const company = useCompany();
  const canOperate = useCan('operate');
  const zone = company.data?.time_zone ?? 'Europe/Berlin';
  const range = company.data
    ? { min: company.data.min_temperature, max: company.data.max_temperature }
    : undefined;
  const [view, setView] = useEventsView();
  const [calendarView, setCalendarView] = useCalendarView();
  const [layersShown, setLayersShown] = useCalendarLayersShown();
  const clock = useClock();
  // The calendar draws browser-local dates showing the company's wall-clock time (wall-clock.ts).
  const [date, setDate] = useState(() => wallClock(clock().toISOString(), zone));
  const [unitId, setUnitId] = useState<string | null>(null);
  const [includePast, setIncludePast] = useState(false);
  const [hideOpenEnded, setHideOpenEnded] = useState(false);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [dialog, setDialog] = useState<DialogState | null>(null);

  const groups = useAllGroups();
  const groupOptions: ComboboxOption[] = (groups.data?.results ?? []).map((g) => ({
    id: g.id,
    item: g.name,
    testid: `event-group-${g.id}`,
  }));
  const filters = { ...(unitId ? { unitId } : {}), includePast, hideOpenEnded };
  const shown = visibleRange(date, calendarView, zone);
  const query: EventListQuery =
    view === 'list' ? { ...filters, page, size } : { ...filters, ...shown, page: 1, size: CALENDAR_PAGE };
  const events = useEvents(query);
  const withLayers = view === 'calendar' && layersShown && company.data !== undefined;
  const layers = useCalendarLayers(
    withLayers && shown.from && shown.to ? { from: shown.from, to: shown.to } : null,
  );

  const label = useCallback(
    (event: HeatingEvent) => {
      const targets = event.groupMode
        ? event.groups.map((g) => g.name).join(', ')
        : event.units.map((u) => u.name).join(', ');
      return `${event.title || targets} · ${format.celsius(event.temperature)}`;
    },
    [format],
  );
  const filtered = () => setPage(1);
  const openNew = (slot?: { start: Date; end: Date }) => {
    // A day picked in the month view becomes 08:00–10:00 of that day.
    const wholeDay = slot && slot.end.getTime() - slot.start.getTime() >= 86_400_000;
    const picked = wholeDay
      ? {
          start: DateTime.fromJSDate(slot.start).set({ hour: 8 }).toJSDate(),
          end: DateTime.fromJSDate(slot.start).set({ hour: 10 }).toJSDate(),
        }
      : slot;
    setDialog({ event: null, initial: emptyForm(zone, clock(), picked, unitId ? { units: [unitId] } : {}) });
  };
  const openEvent = (event: HeatingEvent) => setDialog({ event, initial: formOf(event, zone) });

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <fieldset
            aria-label={t('view.label')}
            className="inline-flex rounded-lg border border-stone-300 p-0.5"
          >
            {(['list', 'calendar'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                data-testid={`events-view-${v}`}
                className={`h-9 rounded-md px-3 text-sm font-medium ${view === v ? 'bg-brand-600 text-white' : 'text-stone-700 hover:bg-stone-100'}`}
              >
                {t(`view.${v}`)}
              </button>
            ))}
          </fieldset>
          {canOperate && (
            <Button onClick={() => openNew()} disabled={!company.data} testid="event-new">
              {t('new')}
            </Button>
          )}
        </div>
      </div>
      <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-3 sm:flex-row sm:items-end">
        <div className="sm:w-72">
          <UnitSearchCombobox
            label={t('filters.unit')}
            placeholder={t('filters.allUnits')}
            value={unitId ?? ALL_UNITS}
            onChange={(id) => {
              setUnitId(id === ALL_UNITS ? null : id);
              filtered();
            }}
            leading={[{ id: ALL_UNITS, item: t('filters.allUnits'), testid: 'events-filter-all-units' }]}
            testid="events-filter-unit"
          />
        </div>
        <label className="flex items-center gap-2 text-sm sm:h-10">
          <input
            type="checkbox"
            checked={includePast}
            onChange={(e) => {
              setIncludePast(e.target.checked);
              filtered();
            }}
            data-testid="events-filter-past"
            className="size-4 accent-brand-600"
          />
          {t('filters.showPast')}
        </label>
        <label className="flex items-center gap-2 text-sm sm:h-10">
          <input
            type="checkbox"
            checked={hideOpenEnded}
            onChange={(e) => {
              setHideOpenEnded(e.target.checked);
              filtered();
            }}
            data-testid="events-filter-open-ended"
            className="size-4 accent-brand-600"
          />
          {t('filters.hideOpenEnded')}
        </label>
      </div>
      {events.isPending || !company.data ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="events-loading" />
        </div>
      ) : events.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="events-error">
          {t('loadError')}
        </p>
      ) : view === 'list' ? (
        <EventsTable
          data={events.data ?? EMPTY_PAGE}
          zone={zone}
          loading={events.isFetching && events.isPlaceholderData}
          onOpen={openEvent}
          onPageChange={setPage}
          onSizeChange={(nextSize, nextPage) => {
            setSize(nextSize);
            setPage(nextPage);
          }}
          label={label}
        />
      ) : (
        <>
          <Suspense fallback={<Spinner loading size="lg" testid="events-calendar-loading" />}>
            <EventsCalendar
              events={events.data?.results ?? []}
              zone={zone}
              date={date}
              view={calendarView}
              onNavigate={setDate}
              onView={setCalendarView}
              onSelectSlot={canOperate ? openNew : undefined}
              onSelectEvent={openEvent}
              label={label}
              layers={withLayers ? layers.data?.results : undefined}
            />
          </Suspense>
          <CalendarLayersLegend
            shown={layersShown}
            onShownChange={setLayersShown}
            layers={withLayers ? layers.data?.results : undefined}
            loading={layers.isFetching}
            failed={layers.isError}
            truncated={layers.data?.truncated ?? false}
          />
        </>
      )}
      {dialog && (
        <EventDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          event={dialog.event}
          initial={dialog.initial}
          zone={zone}
          range={range}
          groupOptions={groupOptions}
        />
      )}
    </section>
  );
}
