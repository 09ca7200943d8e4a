/**
 * The report's key figures as cards (one column on a phone, up to four side by side): comfort,
 * heating, setback and window hours, degree days with the change of heating hours per degree day
 * against the period before and the year before, consumption (when meters were entered) and the
 * estimated saving, which says in plain words that it is an estimate, and the manual changes
 * (web app and QR code); the comfort card also counts the occupants' "zu warm" / "zu kalt".
 */
import type { Report } from '@heizplan/contracts/reports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type ReportFormat, useReportFormat } from '../report-format.ts';

function Card({
  title,
  value,
  children,
  testid,
}: {
  title: string;
  value: string;
  children?: ReactNode;
  testid: string;
}) {
  return (
    <div
      className="flex min-w-0 flex-col gap-1 rounded-xl border border-stone-200 bg-white p-4"
      data-testid={testid}
    >
      <h3 className="text-sm font-medium text-stone-700">{title}</h3>
      <p className="text-2xl font-semibold tabular-nums text-ink" data-testid={`${testid}-value`}>
        {value}
      </p>
      {children && <div className="flex flex-col gap-0.5 text-xs text-stone-600">{children}</div>}
    </div>
  );
}

function DegreeDaysCard({ report, format }: { report: Report; format: ReportFormat }) {
  const { t } = useTranslation('reports');
  const { weather } = report;
  const previousKey = report.period.kind === 'season' ? 'kpi.changeToPreviousSeason' : 'kpi.changeToPrevious';
  const changes = weather.changeToPrevious !== null || weather.changeToPreviousYear !== null;
  return (
    <Card
      title={t('kpi.degreeDays')}
      value={format.degreeDays(weather.current.degreeDays)}
      testid="kpi-degree-days"
    >
      {weather.outdoorMean !== null && (
        <span>{t('kpi.outdoorMean', { value: format.celsius(weather.outdoorMean) })}</span>
      )}
      {changes && <span>{t('kpi.changeIntro')}</span>}
      {weather.changeToPrevious !== null && (
        <span data-testid="kpi-change-previous">
          {t(previousKey, { change: format.change(weather.changeToPrevious) })}
        </span>
      )}
      {weather.changeToPreviousYear !== null && (
        <span data-testid="kpi-change-previous-year">
          {t('kpi.changeToPreviousYear', { change: format.change(weather.changeToPreviousYear) })}
        </span>
      )}
    </Card>
  );
}

function EnergyCard({ report, format }: { report: Report; format: ReportFormat }) {
  const { t } = useTranslation('reports');
  const { energy } = report;
  return (
    <Card title={t('kpi.energy')} value={format.kwh(energy.kwh)} testid="kpi-energy">
      {energy.kwh === null ? (
        <span>{t('kpi.energyNone')}</span>
      ) : (
        <>
          {energy.kwhPerDegreeDay !== null && (
            <span>{t('kpi.kwhPerDegreeDay', { value: format.ratio(energy.kwhPerDegreeDay, 'kWh') })}</span>
          )}
          {energy.kwhPerM2 !== null && (
            <span data-testid="kpi-energy-per-m2">
              {/* A season stands for the year's heating: kWh/m²a; a month is its own part. */}
              {format.ratio(energy.kwhPerM2, report.period.kind === 'season' ? 'kWh/m²a' : 'kWh/m²')}
            </span>
          )}
          {energy.carriers.map((carrier) => (
            <span key={carrier.carrier}>
              {t(`carriers.${carrier.carrier}`, { defaultValue: carrier.carrier })}: {format.kwh(carrier.kwh)}
            </span>
          ))}
        </>
      )}
    </Card>
  );
}

function OverridesCard({
  overrides,
  format,
}: {
  overrides: Report['heating']['overrides'];
  format: ReportFormat;
}) {
  const { t } = useTranslation('reports');
  return (
    <Card
      title={t('overrides.title')}
      value={format.count(overrides.web.count + overrides.qr.count)}
      testid="report-overrides"
    >
      {(['web', 'qr'] as const).map((source) => (
        <span key={source} data-testid={`report-overrides-${source}`}>
          {t(`overrides.${source}`)}:{' '}
          {t('overrides.value', {
            count: overrides[source].count,
            hours: format.hours(overrides[source].hours),
          })}
        </span>
      ))}
    </Card>
  );
}

export function KpiCards({ report }: { report: Report }) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { comfort, heating, weather, saving } = report;
  return (
    <section aria-labelledby="report-kpi-title" className="flex flex-col gap-2">
      <h2 id="report-kpi-title" className="sr-only">
        {t('kpi.title')}
      </h2>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="report-kpis">
        <Card title={t('kpi.comfort')} value={format.share(comfort.belowComfortShare)} testid="kpi-comfort">
          <span>{t('kpi.comfortHint')}</span>
          <span>{t('kpi.occupiedHours', { hours: format.hours(comfort.occupiedHours) })}</span>
          <span data-testid="kpi-comfort-feedback">
            {t('kpi.feedback', {
              tooWarm: format.count(comfort.feedback.tooWarm),
              tooCold: format.count(comfort.feedback.tooCold),
            })}
          </span>
        </Card>
        <Card title={t('kpi.heatingHours')} value={format.hours(heating.heatingHours)} testid="kpi-heating">
          {weather.current.heatingHoursPerDegreeDay !== null && (
            <span>
              {t('kpi.perDegreeDay', { value: format.ratio(weather.current.heatingHoursPerDegreeDay, 'h') })}
            </span>
          )}
        </Card>
        <Card title={t('kpi.setbackHours')} value={format.hours(heating.setbackHours)} testid="kpi-setback">
          <span>{t('kpi.setbackHint')}</span>
        </Card>
        <Card
          title={t('kpi.windowHeating')}
          value={format.hours(heating.windowHeatingHours)}
          testid="kpi-window"
        >
          <span>{t('kpi.windowHint')}</span>
        </Card>
        <DegreeDaysCard report={report} format={format} />
        <EnergyCard report={report} format={format} />
        <Card
          title={t(saving.share !== null && saving.share < 0 ? 'kpi.extra' : 'kpi.saving')}
          value={format.share(saving.share === null ? null : Math.abs(saving.share))}
          testid="kpi-saving"
        >
          <span data-testid="kpi-saving-hint">
            {saving.share === null ? t('kpi.savingNone') : t('kpi.savingHint')}
          </span>
        </Card>
        <OverridesCard overrides={report.heating.overrides} format={format} />
      </div>
    </section>
  );
}
