/**
 * A building's heated area and target values (decision 0061), checked by the contract's limits
 * before sending (decision 0048). The share below comfort is typed in percent and sent as a
 * share 0–1; its message names the field and the limit. Empty fields mean no value.
 */
import type { BuildingReportSettings } from '@heizplan/contracts/reports';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import {
  applyServerErrors,
  Form,
  FormDecimalInput,
  FormError,
  FormNumberInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useSaveReportSettings } from '../api/building-report-data.ts';
import { reportSettingsFormSchema, SETTINGS_ERROR_NAMES, settingsFormOf } from '../report-forms.ts';

export function ReportSettingsForm({
  buildingId,
  settings,
}: {
  buildingId: string;
  settings: BuildingReportSettings;
}) {
  const { t, i18n } = useTranslation('reports');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const save = useSaveReportSettings(buildingId);
  const percent = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const form = useContractForm(reportSettingsFormSchema, {
    defaultValues: settingsFormOf(settings),
    units: { heatedAreaM2: 'm²', maxHeatingHoursPerDegreeDay: 'h', maxBelowComfortPercent: '%' },
    wording: (issue) => {
      if (issue.path[0] !== 'maxBelowComfortPercent') return undefined;
      if (issue.code === 'too_big')
        return t('meters.settings.shareMax', { limit: `${percent.format(Number(issue.maximum))} %` });
      if (issue.code === 'too_small')
        return t('meters.settings.shareMin', { limit: `${percent.format(Number(issue.minimum))} %` });
      return undefined;
    },
  });

  const submit = (body: BuildingReportSettings) =>
    save.mutate(body, {
      onSuccess: () =>
        toast({ type: 'success', title: t('meters.settings.saved'), testid: 'toast-report-settings-saved' }),
      onError: (error) => {
        applyServerErrors(form, error, problems, {
          fallback: t('meters.settings.error'),
          rename: SETTINGS_ERROR_NAMES,
        });
        toast({ type: 'error', title: t('meters.settings.error'), testid: 'toast-report-settings-error' });
      },
    });

  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-3" testid="report-settings-form">
      <h3 className="text-sm font-semibold">{t('meters.settings.title')}</h3>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {/* An area runs into thousands of m²: written as its reader writes it ("1.500,5"). */}
        <FormDecimalInput
          name="heatedAreaM2"
          label={t('meters.settings.area')}
          hint={t('meters.settings.hint')}
          optional
          testid="report-settings-area"
        />
        <FormNumberInput
          name="maxHeatingHoursPerDegreeDay"
          label={t('meters.settings.maxHours')}
          hint={t('meters.settings.hint')}
          optional
          step="any"
          inputMode="decimal"
          testid="report-settings-max-hours"
        />
        <FormNumberInput
          name="maxBelowComfortPercent"
          label={t('meters.settings.maxShare')}
          hint={t('meters.settings.hint')}
          optional
          step="any"
          inputMode="decimal"
          testid="report-settings-max-share"
        />
      </div>
      <FormError testid="report-settings-error" />
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending} testid="report-settings-save">
          {t('meters.settings.save')}
        </Button>
      </div>
    </Form>
  );
}
