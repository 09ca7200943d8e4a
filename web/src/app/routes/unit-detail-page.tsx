/**
 * `/units/:unitId` (spec §2 "Units screen"): the unit's current state, its name, group, building
 * and floor, and wall control limits, its plans with the plan editor and 7-day preview, its learned
 * warm-up model (optimum start), the occupants' "zu warm" / "zu kalt" of the last 30 days, and a
 * link to its log.
 */
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alert-defaults';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SettingsCard } from '../../components/settings-card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAlertSettings } from '../../features/alerts/api/alerts.ts';
import { UnitAlertBanner } from '../../features/alerts/components/alert-indicators.tsx';
import { UnitFeedback } from '../../features/occupant-feedback/components/unit-feedback.tsx';
import { WarmUpCard } from '../../features/optimum/components/warm-up-card.tsx';
import { useUnitPreview } from '../../features/plans/api/preview-plan.ts';
import { PlansSection } from '../../features/plans/components/plans-section.tsx';
import { PreviewChart } from '../../features/plans/components/preview-chart.tsx';
import { PreviewWeekPicker, usePreviewWeek } from '../../features/plans/components/preview-week-picker.tsx';
import { UnitQrSection } from '../../features/qr-codes/components/unit-qr-section.tsx';
import { UnitGraph } from '../../features/unit-graphs/components/unit-graph.tsx';
import { useUnit } from '../../features/units/api/get-unit.ts';
import { DeleteUnitDialog } from '../../features/units/components/delete-unit-dialog.tsx';
import { DeliveredSetpoints } from '../../features/units/components/delivered-setpoints.tsx';
import { PendingDownlinks } from '../../features/units/components/pending-downlinks.tsx';
import { RoomTemperature } from '../../features/units/components/room-temperature.tsx';
import { UnitSettingsForm } from '../../features/units/components/unit-settings-form.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useCompany } from '../../lib/company/get-company.ts';
import { useHeatingFormat } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCan } from '../../lib/use-can.ts';

function StoredPreview({ unitId }: { unitId: string }) {
  const week = usePreviewWeek();
  const preview = useUnitPreview(unitId, week.from);
  return (
    <div className="flex flex-col gap-3">
      <PreviewWeekPicker week={week} />
      <PreviewChart preview={preview.data} loading={preview.isFetching} stale={false} />
    </div>
  );
}

export function UnitDetailPage() {
  const { t } = useTranslation('units');
  const { t: tQr } = useTranslation('qr');
  const { t: tGraphs } = useTranslation('graphs');
  const { t: tOptimum } = useTranslation('optimum');
  const { t: tFeedback } = useTranslation('feedback');
  const { unitId = '' } = useParams();
  const unit = useUnit(unitId);
  const { t: tUi } = useTranslation();
  usePageTitle(unit.data?.name, tUi('nav.units'));
  const format = useHeatingFormat();
  const canOperate = useCan('operate');
  const company = useCompany();
  const settleMinutes =
    useAlertSettings().data?.farFromSetpointMinutes ?? DEFAULT_ALERT_SETTINGS.farFromSetpointMinutes;

  if (unit.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner loading size="lg" testid="unit-loading" />
      </div>
    );
  }
  if (!unit.data) {
    return (
      <section className="mx-auto max-w-3xl p-6">
        <p role="alert" className="text-red-800" data-testid="unit-error">
          {unit.error instanceof ApiError && unit.error.status === 404 ? t('unknownUnit') : t('loadError')}
        </p>
        <Link to="/units" className="mt-4 inline-block text-brand-700 hover:underline">
          {t('backToUnits')}
        </Link>
      </section>
    );
  }
  const u = unit.data;
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 sm:p-6">
      <div className="flex flex-col gap-2">
        <Link to="/units" className="text-sm text-brand-700 hover:underline">
          ← {t('backToUnits')}
        </Link>
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h1 className="text-2xl font-semibold" data-testid="unit-title">
            {u.name}
          </h1>
          <Link
            to={`/units/${u.id}/log`}
            className="font-medium text-brand-700 hover:underline"
            data-testid="unit-log-link"
          >
            {t('detail.logLink')}
          </Link>
        </div>
        {u.buildingName && (
          <p className="text-sm text-stone-600" data-testid="unit-place">
            {u.floor ? t('buildingFloor', { building: u.buildingName, floor: u.floor }) : u.buildingName}
          </p>
        )}
        <UnitAlertBanner unitId={u.id} />
        <dl className="grid grid-cols-2 gap-3 rounded-xl border border-stone-200 bg-white p-4 text-sm sm:grid-cols-4">
          <div data-testid="unit-setpoint">
            <dt className="text-stone-600">{t('fields.setpoint')}</dt>
            <dd className="font-semibold">
              {format.celsius(u.setpoint)}
              {u.paused && <span className="ml-2 text-xs font-normal text-stone-600">{t('paused')}</span>}
              <PendingDownlinks unit={u} />
              <DeliveredSetpoints delivered={u.downlinks.delivered} testid="unit-delivered" />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('fields.roomTemperature')}</dt>
            <dd className="font-semibold">
              <RoomTemperature unit={u} settleMinutes={settleMinutes} timeZone={company.data?.time_zone} />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('fields.heatingLevel')}</dt>
            <dd className="font-semibold">{format.percent(u.valveOpening)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('detail.source')}</dt>
            <dd className="font-semibold" data-testid="unit-source">
              {u.setpointSource ? t(`kinds.${u.setpointSource}`) : '—'}
            </dd>
          </div>
        </dl>
      </div>
      <SettingsCard title={tGraphs('title')} description={tGraphs('description')} testid="unit-history">
        <UnitGraph unitId={u.id} unitName={u.name} />
      </SettingsCard>
      <SettingsCard
        title={tFeedback('title')}
        description={tFeedback('description')}
        testid="unit-feedback-card"
      >
        <UnitFeedback unitId={u.id} timeZone={company.data?.time_zone} />
      </SettingsCard>
      {canOperate && (
        <SettingsCard title={t('detail.settings')} testid="unit-settings">
          <UnitSettingsForm key={u.id} unit={u} />
        </SettingsCard>
      )}
      <SettingsCard title={t('detail.preview')} testid="unit-preview">
        <StoredPreview unitId={u.id} />
      </SettingsCard>
      <SettingsCard title={tOptimum('title')} description={tOptimum('description')} testid="unit-warm-up">
        <WarmUpCard unitId={u.id} timeZone={company.data?.time_zone} />
      </SettingsCard>
      <SettingsCard title={t('detail.plans')} description={t('detail.plansHint')} testid="unit-plans">
        <PlansSection
          owner={{ unitId: u.id }}
          preview={{ unitId: u.id, scope: 'unit' }}
          unit={{ name: u.name, group: u.groupName }}
        />
      </SettingsCard>
      {canOperate && (
        <>
          <SettingsCard title={tQr('title')} description={tQr('description')} testid="unit-qr">
            <UnitQrSection unitId={u.id} unitName={u.name} />
          </SettingsCard>
          <SettingsCard title={t('delete.section')} tone="danger" testid="unit-danger">
            <DeleteUnitDialog unit={u} />
          </SettingsCard>
        </>
      )}
    </section>
  );
}
