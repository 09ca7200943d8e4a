/**
 * A unit's graph (spec §2 "Units screen"): setpoint vs room temperature, supply
 * temperature and valve opening over 48 hours or 2 weeks. Shows a skeleton while loading, a
 * message and a retry button when loading fails (never a blank chart), and an explanation when
 * the unit has no readings yet. The chart itself (uPlot) is loaded on demand.
 */
import type { SeriesRange, UnitSeries } from '@heizplan/contracts/unit-series';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartWithTable } from '../../../components/chart-with-table.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useUnitSeries } from '../api/get-series.ts';
import { isEmptySeries, latestRoomReading, toSeriesRows } from '../series-data.ts';

const SeriesChart = lazy(() => import('./series-chart.tsx'));
const RANGES: SeriesRange[] = ['48h', '14d'];

function Skeleton() {
  return (
    <div
      className="h-[280px] w-full animate-pulse rounded-lg bg-stone-100"
      data-testid="unit-graph-loading"
    />
  );
}

/**
 * The drawing with its text alternative: named with the unit, the range and the latest room
 * temperature against its setpoint, and its buckets as a table, times in the company's zone.
 */
function ChartWithData({
  series,
  unitName,
  range,
}: {
  series: UnitSeries;
  unitName: string;
  range: SeriesRange;
}) {
  const { t, i18n } = useTranslation('graphs');
  const format = useHeatingFormat();
  const rows = useMemo(() => toSeriesRows(series), [series]);
  // One formatter for up to a thousand rows (formatDateTime builds one per call), same output.
  const clock = useMemo(
    () =>
      new Intl.DateTimeFormat(i18n.language, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: series.timeZone,
      }),
    [i18n.language, series.timeZone],
  );
  const when = (iso: string) => clock.format(new Date(iso));
  const latest = latestRoomReading(rows);
  const named = { name: unitName, range: t(`ranges.${range}`) };
  const label = latest
    ? t('chartLabel', {
        ...named,
        room: format.celsius(latest.roomAvg),
        setpoint: format.celsius(latest.setpoint),
        time: when(latest.at),
      })
    : t('chartLabelNoRoom', named);
  return (
    <ChartWithTable
      label={label}
      caption={t('tableCaption', { ...named, zone: series.timeZone })}
      columns={[t('time'), t('setpoint'), t('room'), t('roomMin'), t('roomMax'), t('supply'), t('valve')]}
      rows={rows.map((row) => ({
        key: row.at,
        cells: [
          when(row.at),
          format.celsius(row.setpoint),
          format.celsius(row.roomAvg),
          format.celsius(row.roomMin),
          format.celsius(row.roomMax),
          format.celsius(row.supplyAvg),
          format.percent(row.valveAvg),
        ],
      }))}
      testid="unit-graph-figure"
    >
      <Suspense fallback={<Skeleton />}>
        <SeriesChart series={series} language={i18n.language} />
      </Suspense>
    </ChartWithTable>
  );
}

/** `unitName` names the chart for a screen reader ("Temperaturverlauf Büro 1.01, 48 Stunden: …"). */
export function UnitGraph({ unitId, unitName }: { unitId: string; unitName: string }) {
  const { t } = useTranslation('graphs');
  const [range, setRange] = useState<SeriesRange>('48h');
  const series = useUnitSeries(unitId, range);

  return (
    <div className="flex flex-col gap-3" data-testid="unit-graph">
      <fieldset className="inline-flex self-start rounded-lg border border-stone-300 bg-white p-0.5">
        <legend className="sr-only">{t('range')}</legend>
        {RANGES.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={range === option}
            onClick={() => setRange(option)}
            className={cx(
              'rounded-md px-3 py-1 text-sm font-medium',
              range === option ? 'bg-brand-600 text-white' : 'text-stone-700 hover:bg-stone-100',
            )}
            data-testid={`unit-graph-range-${option}`}
          >
            {t(`ranges.${option}`)}
          </button>
        ))}
      </fieldset>
      {series.isError && !series.data ? (
        <div
          role="alert"
          className="flex items-center gap-3 rounded-lg bg-red-50 p-4 text-red-800"
          data-testid="unit-graph-error"
        >
          {t('loadError')}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void series.refetch()}
            testid="unit-graph-retry"
          >
            {t('retry')}
          </Button>
        </div>
      ) : !series.data ? (
        <Skeleton />
      ) : isEmptySeries(series.data) ? (
        <p
          className="rounded-lg border border-dashed border-stone-300 p-8 text-center text-stone-600"
          data-testid="unit-graph-empty"
        >
          {t('empty')}
        </p>
      ) : (
        <div className={cx(series.isPlaceholderData && 'opacity-60')}>
          <ChartWithData series={series.data} unitName={unitName} range={range} />
        </div>
      )}
    </div>
  );
}
