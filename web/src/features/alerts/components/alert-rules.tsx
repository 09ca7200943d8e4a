/**
 * The company's alert rules (issue 15): which kinds are on, and the thresholds and durations of
 * each. Every member reads them; only admins change them (decision 0022).
 */
import { AlertKindSchema, type AlertSettings } from '@heizplan/contracts/alerts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
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

function RulesForm({ settings, readOnly }: { settings: AlertSettings; readOnly: boolean }) {
  const { t } = useTranslation('alerts');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateAlertSettings();
  const [enabled, setEnabled] = useState(new Set(settings.enabled));
  const [values, setValues] = useState(
    Object.fromEntries(NUMBERS.map((key) => [key, String(settings[key])])),
  );
  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          {
            enabled: AlertKindSchema.options.filter((kind) => enabled.has(kind)),
            ...Object.fromEntries(NUMBERS.map((key) => [key, Number(values[key]?.replace(',', '.'))])),
          },
          {
            onSuccess: () => toast({ type: 'success', title: t('rules.saved'), testid: 'toast-rules-saved' }),
            onError: (error) =>
              toast({
                type: 'error',
                title: t('rules.error'),
                description: problems.reason(error),
                testid: 'toast-rules-error',
              }),
          },
        );
      }}
    >
      <fieldset disabled={readOnly} className="contents">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">{t('rules.enabled')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {AlertKindSchema.options.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-brand-600"
                  checked={enabled.has(kind)}
                  onChange={(event) => {
                    const next = new Set(enabled);
                    if (event.target.checked) next.add(kind);
                    else next.delete(kind);
                    setEnabled(next);
                  }}
                  data-testid={`rules-kind-${kind}`}
                />
                {t(`kinds.${kind}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {NUMBERS.map((key) => (
            <TextInput
              key={key}
              label={t(`rules.${key}`)}
              type="number"
              step={key === 'farFromSetpointKelvin' ? 0.5 : 1}
              value={values[key] ?? ''}
              onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
              error={problems.field(update.error, key)}
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
    </form>
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
