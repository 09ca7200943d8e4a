/**
 * 7-day setpoint preview: the engine's steps drawn as a step chart in the company's
 * time zone, each step coloured by its source (regular plan, group plan, event, manual change,
 * pause, closure …) with a legend; the chart's name says where it starts and how many steps
 * follow, and a "Daten als Tabelle" toggle lists every step for screen readers and exact reading; a
 * closure's step names the closure and its heating mode ("Schließzeit: Betriebsurlaub —
 * Frostschutz", from the preview's `closures`), a public holiday of the unit's building treated
 * as a closure names the holiday ("Feiertag: 1. Weihnachtstag — Absenkbetrieb"), and a booking's
 * step names the booking with its own local times ("Buchung: Elternabend 19:00–21:00", from the
 * preview's `bookings`; heating starts the feed's pre-heat lead earlier). The time axis runs over whole days, each
 * labelled in the UI language's date format ("Do., 26.11." / "Thu, 11/26"); hours of the first
 * and last day outside the preview are shaded.
 */
import type { LogKind, Preview } from '@heizplan/contracts/heating';
import { DateTime } from 'luxon';
import { useTranslation } from 'react-i18next';
import { ChartWithTable } from '../../../components/chart-with-table.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime, formatWeekday, useHeatingFormat } from '../../../lib/format.ts';
import { useSourceName } from '../../../lib/heating/source-name.ts';
import { PreviewOptimumList } from './preview-optimum.tsx';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 40, right: 12, top: 16, bottom: 28 };

/** The local days (midnights in `zone`) that the instants `[from, to)` touch, and the day after the last. */
export function daysOf(from: number, to: number, zone: string): DateTime[] {
  const days = [DateTime.fromMillis(from, { zone }).startOf('day')];
  while (days.at(-1)!.toMillis() < to) days.push(days.at(-1)!.plus({ days: 1 }));
  return days;
}

/** Width (px of the chart's viewBox) a character of the 10 px step labels takes, generously. */
const LABEL_CHAR_WIDTH = 5.8;

/**
 * `label` cut to fit `width` px of its step, with an ellipsis; null when not even a few letters
 * fit. A label never runs into the next step's ("Weihnachtsferien (Bayern) — Absenkbetrieb" over
 * "Feiertag: 1. Weihnachtstag — Absenkbetrieb"); the whole text is in the step's title and list.
 */
export function fittedLabel(label: string, width: number): string | null {
  const room = Math.floor((width - 6) / LABEL_CHAR_WIDTH);
  if (room >= label.length) return label;
  return room < 6 ? null : `${label.slice(0, room - 1).trimEnd()}…`;
}

/** One colour per source, also used by the legend. */
export const SOURCE_COLOURS: Record<LogKind, string> = {
  regular_plan: '#c2410c',
  group_plan: '#7c3aed',
  one_time_start: '#0369a1',
  one_time_end: '#0e7490',
  paused: '#57534e',
  resumed: '#65a30d',
  qr_change: '#be185d',
  web_change: '#ca8a04',
  no_plan: '#78716c',
  closure: '#1d4ed8',
  booking: '#047857',
  optimum_start: '#ea580c',
  optimum_stop: '#0891b2',
};

type PreviewClosure = Preview['closures'][number];
type PreviewBooking = Preview['bookings'][number];

interface Segment {
  from: number;
  to: number;
  setpoint: number;
  source: LogKind;
  at: string;
  /** The running closure a `closure` step names (`preview.closures`), else null. */
  closure: PreviewClosure | null;
  /** The running booking a `booking` step names (`preview.bookings`), else null. */
  booking: PreviewBooking | null;
}

/** The preview as segments `[from, to)` in epoch ms, the last one ending at `preview.to`. */
export function segmentsOf(preview: Preview): Segment[] {
  const steps = [preview.initial, ...preview.changes];
  const end = Date.parse(preview.to);
  return steps.map((step, i) => ({
    from: i === 0 ? Date.parse(preview.from) : Date.parse(step.at),
    to: i + 1 < steps.length ? Date.parse(steps[i + 1]!.at) : end,
    setpoint: step.setpoint,
    source: step.source,
    at: i === 0 ? preview.from : step.at,
    closure: (step.closureId && preview.closures?.find((c) => c.id === step.closureId)) || null,
    booking: (step.bookingId && preview.bookings?.find((b) => b.id === step.bookingId)) || null,
  }));
}

export function PreviewChart({
  preview,
  loading,
  stale,
}: {
  preview: Preview | undefined;
  loading: boolean;
  /** The last draft was refused: the curve shown belongs to an earlier draft. */
  stale: boolean;
}) {
  const { t, i18n } = useTranslation('plans');
  const sourceName = useSourceName();
  const format = useHeatingFormat();
  if (!preview) {
    return (
      <div className="flex h-40 items-center justify-center rounded-lg border border-stone-200 bg-white">
        {loading ? (
          <Spinner loading testid="preview-loading" />
        ) : (
          <p className="px-4 text-center text-sm text-stone-600">
            {t(stale ? 'preview.invalid' : 'preview.none')}
          </p>
        )}
      </div>
    );
  }
  const segments = segmentsOf(preview);
  const start = Date.parse(preview.from);
  const end = Date.parse(preview.to);
  const zone = preview.timeZone;
  const values = segments.map((s) => s.setpoint);
  const low = Math.floor(Math.min(...values) - 1);
  const high = Math.ceil(Math.max(...values) + 1);
  const y = (c: number) => PAD.top + ((high - c) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const days = daysOf(start, end, zone);
  const axisFrom = days[0]!.toMillis();
  const axisTo = days.at(-1)!.toMillis();
  const x = (ms: number) =>
    PAD.left + ((ms - axisFrom) / (axisTo - axisFrom)) * (WIDTH - PAD.left - PAD.right);
  const plotBottom = HEIGHT - PAD.bottom;
  /** Hours of the first and last day before and after the preview. */
  const outside: Array<[number, number]> = [
    [axisFrom, start],
    [end, axisTo],
  ];
  const yTicks = Array.from({ length: high - low + 1 }, (_, i) => low + i).filter((c) =>
    high - low <= 8 ? true : c % 2 === 0,
  );
  const sources = [...new Set(segments.map((s) => s.source))];
  // A closure's or booking's step names it ("Schließzeit: Betriebsurlaub — Frostschutz",
  // "Buchung: Elternabend 19:00–21:00"); any other step its source.
  const label = (s: Segment) => sourceName(s, zone) ?? t(`sources.${s.source}`);
  const when = (iso: string) =>
    DateTime.fromISO(iso, { zone }).setLocale(i18n.language).toLocaleString({
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  const first = segments[0] as Segment;
  const chartLabel = t('preview.chartLabel', {
    zone,
    from: formatDateTime(first.at, i18n.language, { timeZone: zone }),
    setpoint: format.celsius(first.setpoint),
    source: label(first),
    count: segments.length,
  });

  return (
    <div
      className={`flex flex-col gap-3 ${stale ? 'opacity-50' : ''}`}
      data-testid="preview-chart"
      aria-busy={loading}
    >
      <ChartWithTable
        selfLabelled
        label={chartLabel}
        caption={t('preview.caption', { zone })}
        columns={[t('preview.from'), t('preview.setpoint'), t('preview.source')]}
        rows={segments.map((s, i) => ({
          key: String(s.from),
          cells: [
            formatDateTime(s.at, i18n.language, { timeZone: zone }),
            format.celsius(s.setpoint),
            <span
              key="source"
              style={{ color: SOURCE_COLOURS[s.source] }}
              data-testid={`preview-step-label-${i}`}
            >
              {label(s)}
            </span>,
          ],
        }))}
        rowsTestid="preview-steps"
        keepInDocument
        between={
          <>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={t('preview.legend')}>
              {sources.map((source) => (
                <li
                  key={source}
                  className="inline-flex items-center gap-1.5"
                  data-testid={`preview-legend-${source}`}
                >
                  <span
                    className="inline-block h-1 w-4 rounded"
                    style={{ backgroundColor: SOURCE_COLOURS[source] }}
                  />
                  {t(`sources.${source}`)}
                </li>
              ))}
            </ul>
            <PreviewOptimumList preview={preview} />
          </>
        }
      >
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
          {/* Focusable: on a phone the chart is wider than its frame, and arrow keys scroll the
              frame only when something in it has focus (WCAG 2.1.1). */}
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            className="min-w-[640px]"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: see above; the chart scrolls sideways
            tabIndex={0}
            role="img"
            aria-label={chartLabel}
          >
            {yTicks.map((c) => (
              <g key={c}>
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(c)} y2={y(c)} stroke="#e7e5e4" />
                <text x={PAD.left - 6} y={y(c) + 4} textAnchor="end" fontSize="11" fill="#57534e">
                  {c}°
                </text>
              </g>
            ))}
            {outside
              .filter(([from, to]) => to > from)
              .map(([from, to]) => (
                <rect
                  key={from}
                  x={x(from)}
                  y={PAD.top}
                  width={x(to) - x(from)}
                  height={plotBottom - PAD.top}
                  fill="#f5f5f4"
                />
              ))}
            {days.slice(0, -1).map((day, i) => {
              const from = day.toMillis();
              const to = days[i + 1]!.toMillis();
              return (
                <g key={from}>
                  {i > 0 && (
                    <line
                      x1={x(from)}
                      x2={x(from)}
                      y1={PAD.top}
                      y2={plotBottom}
                      stroke="#d6d3d1"
                      strokeDasharray="3 3"
                    />
                  )}
                  <text
                    x={(x(from) + x(to)) / 2}
                    y={HEIGHT - 10}
                    textAnchor="middle"
                    fontSize="11"
                    fill="#57534e"
                    data-testid={`preview-day-${day.toISODate()}`}
                  >
                    {formatWeekday(from, i18n.language, zone)}
                  </text>
                </g>
              );
            })}
            {segments.map((s, i) => {
              const next = segments[i + 1];
              const stepLabel = fittedLabel(label(s), x(s.to) - x(s.from));
              return (
                <g key={s.from} data-testid={`preview-step-${i}`} data-source={s.source}>
                  <title>{`${when(s.at)} · ${format.celsius(s.setpoint)} · ${label(s)}`}</title>
                  <line
                    x1={x(s.from)}
                    x2={x(s.to)}
                    y1={y(s.setpoint)}
                    y2={y(s.setpoint)}
                    stroke={SOURCE_COLOURS[s.source]}
                    strokeWidth="3"
                  />
                  {stepLabel && (
                    <text
                      x={x(s.from) + 3}
                      y={y(s.setpoint) - 5}
                      fontSize="10"
                      fill={SOURCE_COLOURS[s.source]}
                    >
                      {stepLabel}
                    </text>
                  )}
                  {next && (
                    <line
                      x1={x(s.to)}
                      x2={x(s.to)}
                      y1={y(s.setpoint)}
                      y2={y(next.setpoint)}
                      stroke="#a8a29e"
                      strokeWidth="1.5"
                    />
                  )}
                </g>
              );
            })}
          </svg>
        </div>
      </ChartWithTable>
    </div>
  );
}
