/**
 * One loaded report: missed targets first, the key figures, the comfort categories, the daily
 * chart (uPlot, loaded on demand), what to act on (losses, worst rooms), the level below as a
 * table. A period without readings (`rooms` 0) shows an explanation
 * instead of empty figures.
 */
import type { Report, ReportRow } from '@heizplan/contracts/reports';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartWithTable } from '../../../components/chart-with-table.tsx';
import { formatDay, useHeatingFormat } from '../../../lib/format.ts';
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

/** A report day (a calendar date) as "01.12.2026" / "Dec 1, 2026". */
const dayText = (day: string, language: string) => formatDay(`${day}T00:00:00Z`, language, 'UTC');

/**
 * The daily chart with its text alternative: named with the scope, the period and the last day's
 * figures, and every day as a row of a table.
 */
function ChartSection({ days, scope }: { days: Report['days']; scope: string }) {
  const { t, i18n } = useTranslation('reports');
  const format = useHeatingFormat();
  const hours = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const hoursText = (value: number) => `${hours.format(value)} h`;
  const last = days.at(-1) as Report['days'][number];
  const period = {
    name: scope,
    from: dayText((days[0] as Report['days'][number]).day, i18n.language),
    to: dayText(last.day, i18n.language),
  };
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
      <ChartWithTable
        label={t('chart.label', {
          ...period,
          day: dayText(last.day, i18n.language),
          room: format.celsius(last.roomMean),
          setpoint: format.celsius(last.setpointMean),
          outdoor: format.celsius(last.outdoorMean),
          hours: hoursText(last.heatingHours),
        })}
        caption={t('chart.caption', period)}
        columns={[
          t('chart.day'),
          t('chart.room'),
          t('chart.setpoint'),
          t('chart.outdoor'),
          t('chart.heatingHours'),
        ]}
        rows={days.map((d) => ({
          key: d.day,
          cells: [
            dayText(d.day, i18n.language),
            format.celsius(d.roomMean),
            format.celsius(d.setpointMean),
            format.celsius(d.outdoorMean),
            hoursText(d.heatingHours),
          ],
        }))}
        testid="report-chart-figure"
      >
        <Suspense fallback={<div className="h-[260px] animate-pulse rounded-lg bg-stone-100" />}>
          <DaysChart days={days} language={i18n.language} />
        </Suspense>
      </ChartWithTable>
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
      {report.days.length > 0 && <ChartSection days={report.days} scope={report.scope.name} />}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <LossesList losses={report.losses} roomLink={roomLink} />
        <WorstRooms rooms={report.comfort.worstRooms} roomLink={roomLink} />
      </div>
      {report.rows.length > 0 && <ReportRowsTable rows={report.rows} rowLink={rowLink} />}
    </div>
  );
}
