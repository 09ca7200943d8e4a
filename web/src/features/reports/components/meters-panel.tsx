/**
 * "Zähler und Zielwerte" of one building, for members who operate (the page shows it only to
 * them): the heated area and targets, and the monthly meter readings. Loaded with its forms
 * only when shown, so the form layer stays out of the report's own chunk (decision 0045).
 */
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useBuildingReportData } from '../api/building-report-data.ts';
import { MeterReadings } from './meter-readings.tsx';
import { ReportSettingsForm } from './report-settings-form.tsx';

export default function MetersPanel({ buildingId, month }: { buildingId: string; month: string }) {
  const { t } = useTranslation('reports');
  const data = useBuildingReportData(buildingId);
  return (
    <SettingsCard title={t('meters.title')} description={t('meters.description')} testid="report-meters">
      {data.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="report-meters-error">
          {t('meters.loadError')}
        </p>
      ) : !data.data ? (
        <Spinner loading testid="report-meters-loading" />
      ) : (
        <div className="flex flex-col gap-6">
          <ReportSettingsForm key={buildingId} buildingId={buildingId} settings={data.data.settings} />
          <MeterReadings
            key={`${buildingId}-${month}`}
            buildingId={buildingId}
            month={month}
            readings={data.data.readings}
          />
        </div>
      )}
    </SettingsCard>
  );
}
