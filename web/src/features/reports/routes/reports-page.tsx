/**
 * `/reports` (decision 0061): comfort, heating and energy of a month or heating season for the
 * company, a building or a room, for every member. Period and scope live in the address
 * (`?month=2026-11&buildingId=…`), so a link reproduces the view; rows and rooms drill down,
 * the breadcrumb leads back up. The month's report downloads as Excel-CSV, CSV, XLSX or PDF, and
 * the member may have it mailed on the 1st. Members who operate keep a building's meters and
 * targets below its report.
 */
import type { ReportRow } from '@heizplan/contracts/reports';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useBuildingName } from '../api/building-name.ts';
import { useReport } from '../api/reports.ts';
import { PeriodControls } from '../components/period-controls.tsx';
import { ReportContent, ReportSkeleton } from '../components/report-content.tsx';
import { ReportDownloads } from '../components/report-downloads.tsx';
import { ScopeBreadcrumb, scopeCrumbs } from '../components/scope-breadcrumb.tsx';
import { SubscriptionToggle } from '../components/subscription-toggle.tsx';
import { useReportFormat } from '../report-format.ts';
import {
  defaultMonth,
  drillDown,
  isBuildingScope,
  type ReportView,
  requestOfView,
  searchOfView,
  upTo,
  viewOfSearch,
} from '../report-view.ts';

const MetersPanel = lazy(() => import('../components/meters-panel.tsx'));

/**
 * "Bereich": the whole company or one of its buildings, so every building reaches its report and
 * its meters also before any room has reported (the report's rows list only buildings with rooms).
 */
function BuildingPicker({ view, onChange }: { view: ReportView; onChange: (next: ReportView) => void }) {
  const { t } = useTranslation('reports');
  const id = useId();
  const { buildings } = useAllBuildings();
  if (buildings.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-700">
        {t('buildingPicker.label')}
      </label>
      <Select
        id={id}
        className="w-full sm:w-72"
        value={view.buildingId ?? ''}
        onChange={(buildingId) =>
          onChange(
            buildingId
              ? drillDown(upTo(view, 'company'), { kind: 'building', id: buildingId })
              : upTo(view, 'company'),
          )
        }
        options={[
          { id: '', value: t('buildingPicker.company'), testid: 'report-building-company' },
          ...buildings.map((building) => ({
            id: building.id,
            value: building.name,
            testid: `report-building-${building.id}`,
          })),
        ]}
        testid="report-building-picker"
      />
    </div>
  );
}

export function ReportsPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('title'));
  const format = useReportFormat();
  const clock = useClock();
  // The day the page opened on: periods and the arrows' limit count from it.
  const [today] = useState(clock);
  const [params, setParams] = useSearchParams();
  const view = viewOfSearch(params, today);
  const request = requestOfView(view);
  const report = useReport(request);
  const company = useCompany();
  const canOperate = useCan('operate');
  const buildingName = useBuildingName(view.unitId || view.groupId ? view.buildingId : undefined);
  const setView = (next: ReportView) => setParams(new URLSearchParams(searchOfView(next)));

  const data = report.data;
  // While the next period or scope loads, the previous report's names and dates do not belong to it.
  const current =
    data !== undefined &&
    data.period.key === String(request.month ?? request.season) &&
    data.scope.id === (request.unitId ?? request.groupId ?? request.buildingId ?? data.scope.id);
  const crumbs = scopeCrumbs(
    view,
    { company: company.data?.name, building: buildingName, current: current ? data?.scope.name : undefined },
    t,
  );
  const roomLink = (unitId: string) => searchOfView(drillDown(view, { kind: 'unit', id: unitId }));
  const rowLink = (row: ReportRow) => searchOfView(drillDown(view, { kind: row.kind, id: row.id }));
  const meterMonth = view.period.kind === 'month' ? view.period.month : defaultMonth(today);
  // A link to a building's meters (`#meters`, from the buildings list) lands on them.
  const { hash } = useLocation();
  const meters = useRef<HTMLDivElement>(null);
  const showMeters = canOperate && isBuildingScope(view) && Boolean(view.buildingId);
  useEffect(() => {
    if (hash !== '#meters' || !showMeters) return;
    meters.current?.scrollIntoView({ block: 'start' });
    meters.current?.focus({ preventScroll: true });
  }, [hash, showMeters]);

  return (
    <section
      className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6"
      data-testid="reports-page"
    >
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="max-w-3xl text-sm text-stone-700">{t('intro')}</p>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PeriodControls view={view} today={today} onChange={setView} />
        <ReportDownloads request={request} />
      </div>
      <SubscriptionToggle />
      <BuildingPicker view={view} onChange={setView} />
      <div className="flex flex-col gap-1 border-t border-stone-200 pt-4">
        <ScopeBreadcrumb crumbs={crumbs} />
        {data && current && (
          <p className="text-xs text-stone-600" data-testid="report-summary">
            {t('period.range', { from: format.day(data.period.from), to: format.day(data.period.to) })}
            {' · '}
            {t('summary', { count: data.rooms })}
            {data.coverage !== null && ` · ${t('coverage', { value: format.share(data.coverage) })}`}
          </p>
        )}
      </div>
      {report.isError && !data ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-lg bg-red-50 p-4 text-red-800"
          data-testid="report-error"
        >
          {t('loadError')}
          <Button variant="secondary" size="sm" onClick={() => void report.refetch()} testid="report-retry">
            {t('retry')}
          </Button>
        </div>
      ) : !data ? (
        <ReportSkeleton />
      ) : (
        <div className={cx('min-w-0', report.isPlaceholderData && 'opacity-60')}>
          <ReportContent report={data} roomLink={roomLink} rowLink={rowLink} />
        </div>
      )}
      {showMeters && view.buildingId && (
        <div id="meters" ref={meters} tabIndex={-1} className="scroll-mt-4 outline-none">
          <Suspense fallback={<Spinner loading testid="report-meters-loading" />}>
            <MetersPanel buildingId={view.buildingId} month={meterMonth} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
