/**
 * Under the events calendar: the switch "Kalenderebenen anzeigen" (remembered,
 * view-preference.ts) and the kinds of layer the visible range has, each with its colour. While the
 * layers load or when they fail, a short note says so here; the events above are not held up.
 * Kept out of the calendar's chunk: it needs neither react-big-calendar nor luxon.
 */
import {
  CALENDAR_LAYER_KINDS,
  CALENDAR_LAYERS_MAX_BOOKINGS,
  type CalendarLayer,
} from '@heizplan/contracts/calendar-layers';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Swatch classes per colour group, matching events-calendar.css. */
const SWATCH = {
  calendar: 'border-slate-300 bg-slate-200',
  booking: 'border-green-300 bg-green-100',
};

export interface CalendarLayersLegendProps {
  shown: boolean;
  onShownChange: (shown: boolean) => void;
  /** The visible range's layers; undefined while none have loaded. */
  layers: readonly CalendarLayer[] | undefined;
  loading: boolean;
  failed: boolean;
  truncated: boolean;
}

export function CalendarLayersLegend({
  shown,
  onShownChange,
  layers,
  loading,
  failed,
  truncated,
}: CalendarLayersLegendProps) {
  const { t } = useTranslation('events');
  const present = new Set(layers?.map((l) => l.kind));
  const kinds = CALENDAR_LAYER_KINDS.filter((kind) => present.has(kind));
  let state: ReactNode = null;
  if (!shown) state = null;
  else if (failed)
    state = (
      <p className="text-amber-800" data-testid="calendar-layers-error">
        {t('layers.loadError')}
      </p>
    );
  else if (loading && !layers)
    state = (
      <p role="status" className="text-stone-500" data-testid="calendar-layers-loading">
        {t('layers.loading')}
      </p>
    );
  else if (kinds.length === 0) state = <p className="text-stone-500">{t('layers.none')}</p>;
  else
    state = (
      <ul
        aria-label={t('layers.legend')}
        className="flex flex-wrap gap-x-4 gap-y-1"
        data-testid="calendar-layers-kinds"
      >
        {kinds.map((kind) => (
          <li key={kind} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={`inline-block h-3 w-6 shrink-0 rounded-sm border ${SWATCH[kind === 'booking' ? 'booking' : 'calendar']}`}
            />
            {t(`layers.kinds.${kind}`)}
          </li>
        ))}
      </ul>
    );
  return (
    <div
      className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white px-3 py-2 text-sm sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6"
      data-testid="calendar-layers-legend"
    >
      <label className="flex min-h-9 items-center gap-2">
        <input
          type="checkbox"
          checked={shown}
          onChange={(e) => onShownChange(e.target.checked)}
          data-testid="calendar-layers-toggle"
          className="size-4 accent-brand-600"
        />
        {t('layers.toggle')}
      </label>
      {state}
      {shown && truncated && (
        <p className="text-stone-500">{t('layers.truncated', { count: CALENDAR_LAYERS_MAX_BOOKINGS })}</p>
      )}
    </div>
  );
}
