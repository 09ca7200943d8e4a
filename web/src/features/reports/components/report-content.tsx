/**
 * One loaded report: missed targets first, the key figures, the comfort categories, the daily
 * chart (uPlot, loaded on demand), what to act on (losses, worst rooms), the level below as a
 * table. A period without readings (`rooms` 0) shows an explanation
 * instead of empty figures.
 */
import type { Report, ReportRow } from '@heizplan/contracts/reports';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { CategoryBar } from './category-bar.tsx';
import { LossesList, type RoomLink, TargetsBanner, WorstRooms } from './findings.tsx';
import { KpiCards } from './kpi-cards.tsx';
import { ReportRowsTable } from './report-rows-table.tsx';

const DaysChart = lazy(() => import('./days-chart.tsx'));

export function ReportSkeleton() {
  const { t } = useTranslation('reports');
  return (
    <div className="flex flex-col gap-3" aria-busy="true" data-testid="report-loading">
      <span className="sr-only">{t('loading')}</span>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {[1, 2, 3, 4].map((n) => (
          <div key={n} className="h-28 animate-pulse rounded-xl bg-stone-100" />
        ))}
      </div>
      <div className="h-[260px] animate-pulse rounded-xl bg-stone-100" />
    </div>
  );
}

function ChartSection({ days }: { days: Report['days'] }) {
  const { t, i18n } = useTranslation('reports');
  return (
    <section
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
      aria-labelledby="report-chart-title"
    >
      <div>
        <h2 id="report-chart-title" className="text-base font-semibold">
          {t('chart.title')}
        </h2>
        <p className="text-xs text-stone-600">{t('chart.description')}</p>
      </div>
      <Suspense fallback={<div className="h-[260px] animate-pulse rounded-lg bg-stone-100" />}>
        <DaysChart days={days} language={i18n.language} />
      </Suspense>
    </section>
  );
}

export function ReportContent({
  report,
  roomLink,
  rowLink,
}: {
  report: Report;
  roomLink: RoomLink;
  rowLink: (row: ReportRow) => string;
}) {
  const { t } = useTranslation('reports');
  if (report.rooms === 0)
    return (
      <div
        className="flex flex-col gap-2 rounded-xl border border-dashed border-stone-300 bg-white p-6"
        data-testid="report-empty"
      >
        <p className="font-semibold">{t('empty')}</p>
        <p className="max-w-2xl text-sm text-stone-700">{t('emptyHint')}</p>
      </div>
    );
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="report-content">
      <TargetsBanner report={report} />
      <KpiCards report={report} />
      <CategoryBar hours={report.comfort.categoryHours} />
      {report.days.length > 0 && <ChartSection days={report.days} />}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <LossesList losses={report.losses} roomLink={roomLink} />
        <WorstRooms rooms={report.comfort.worstRooms} roomLink={roomLink} />
      </div>
      {report.rows.length > 0 && <ReportRowsTable rows={report.rows} rowLink={rowLink} />}
    </div>
  );
}
