/**
 * The company's alert rules: which kinds are on, and the thresholds and durations of
 * each. Every member reads them; only admins change them (decision 0022).
 */
import { AlertKindSchema, type AlertSettings, AlertSettingsSchema } from '@heizplan/contracts/alerts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { applyServerErrors, Form, FormNumberInput, useContractForm } from '../../../components/ui/form.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useAlertSettings, useUpdateAlertSettings } from '../api/alerts.ts';

const NUMBERS = [
  'offlineIntervals',
  'lowBatteryPercent',
  'notWarmingMinutes',
  'farFromSetpointKelvin',
  'farFromSetpointMinutes',
  'undeliveredMinutes',
  'clearMinutes',
  'repeatHours',
] as const;

/** The unit a limit is named in ("Höchstens 10080 min"). */
const UNITS = {
  lowBatteryPercent: '%',
  notWarmingMinutes: 'min',
  farFromSetpointKelvin: 'K',
  farFromSetpointMinutes: 'min',
  undeliveredMinutes: 'min',
  clearMinutes: 'min',
  repeatHours: 'h',
};

function RulesForm({ settings, readOnly }: { settings: AlertSettings; readOnly: boolean }) {
  const { t } = useTranslation('alerts');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateAlertSettings();
  const form = useContractForm(AlertSettingsSchema, { defaultValues: settings, units: UNITS });
  const save = (values: AlertSettings) =>
    update.mutate(
      // In the order of the kinds, whatever order they were ticked in.
      { ...values, enabled: AlertKindSchema.options.filter((kind) => values.enabled.includes(kind)) },
      {
        onSuccess: () => toast({ type: 'success', title: t('rules.saved'), testid: 'toast-rules-saved' }),
        onError: (error) => {
          applyServerErrors(form, error, problems, { root: false });
          toast({
            type: 'error',
            title: t('rules.error'),
            description: problems.reason(error),
            testid: 'toast-rules-error',
          });
        },
      },
    );
  return (
    <Form form={form} onSubmit={save} className="flex flex-col gap-5">
      <fieldset disabled={readOnly} className="contents">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">{t('rules.enabled')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {AlertKindSchema.options.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  value={kind}
                  className="size-4 accent-brand-600"
                  {...form.register('enabled')}
                  data-testid={`rules-kind-${kind}`}
                />
                {t(`kinds.${kind}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {NUMBERS.map((key) => (
            <FormNumberInput
              key={key}
              name={key}
              label={t(`rules.${key}`)}
              step={key === 'farFromSetpointKelvin' ? 0.5 : 1}
              testid={`rules-${key}`}
            />
          ))}
        </div>
      </fieldset>
      {readOnly ? (
        <p className="text-sm text-stone-700" data-testid="rules-read-only">
          {t('rules.readOnly')}
        </p>
      ) : (
        <Button type="submit" className="self-end" loading={update.isPending} testid="rules-save">
          {t('rules.save')}
        </Button>
      )}
    </Form>
  );
}

export function AlertRules() {
  const { t } = useTranslation('alerts');
  const settings = useAlertSettings();
  const canManage = useCan('manage');
  if (settings.isError) return <p role="alert">{t('loadError')}</p>;
  if (!settings.data) return <Spinner loading testid="rules-loading" />;
  return <RulesForm settings={settings.data} readOnly={!canManage} />;
}
