/**
 * A unit's graph (spec §2 "Units screen"): setpoint vs room temperature, supply
 * temperature and valve opening over 48 hours or 2 weeks. Shows a skeleton while loading, a
 * message and a retry button when loading fails (never a blank chart), and an explanation when
 * the unit has no readings yet. The chart itself (uPlot) is loaded on demand.
 */
import type { SeriesRange } from '@heizplan/contracts/unit-series';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { useUnitSeries } from '../api/get-series.ts';
import { isEmptySeries } from '../series-data.ts';

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

export function UnitGraph({ unitId }: { unitId: string }) {
  const { t, i18n } = useTranslation('graphs');
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
          <Suspense fallback={<Skeleton />}>
            <SeriesChart series={series.data} language={i18n.language} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
