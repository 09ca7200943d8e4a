/**
 * One switch point of the plan editor (spec §2: day, hour, minute, temperature, ignore wall
 * control) as labelled inputs of the editor's form (`switchPoints.<index>`), with the server's
 * messages for this switch point under it, each after the name of the input it concerns
 * ("Temperatur: … mindestens 12 °C"), as one line holds several inputs.
 */
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { controlClass } from '../../../components/ui/field.tsx';
import type { FieldError } from '../../../lib/api-client.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { hasError, type SwitchPointRow } from '../plan-draft.ts';

export interface SwitchPointRowProps {
  /** Position in the plan's switch point list = index in the server's field names. */
  index: number;
  errors: readonly FieldError[];
  onRemove: () => void;
}

export function SwitchPointEditor({ index, errors, onRemove }: SwitchPointRowProps) {
  const { t } = useTranslation('plans');
  const problems = useProblemMessage();
  const { register } = useFormContext<{ switchPoints: SwitchPointRow[] }>();
  const row = useWatch<{ switchPoints: SwitchPointRow[] }, `switchPoints.${number}`>({
    name: `switchPoints.${index}`,
  });
  const id = useId();
  const field = `switchPoints.${index}` as const;
  const names: Record<string, string> = {
    hour: t('switchPoint.hour'),
    minute: t('switchPoint.minute'),
    temperature: t('switchPoint.temperature'),
  };
  // Every problem of this row, also two of one kind (hour and minute both wrong).
  const messages = errors
    .map((error) => ({ ...error, field: error.field.replace(/^body\./, '') }))
    .filter((error) => error.field === field || error.field.startsWith(`${field}.`))
    .filter((error, i, all) => all.findIndex((o) => o.field === error.field && o.code === error.code) === i)
    .map((error) => {
      const name = names[error.field.slice(field.length + 1)];
      const text = problems.fieldText(error);
      return name ? `${name}: ${text}` : text;
    });
  const input = (
    key: 'hour' | 'minute' | 'temperature',
    props: { min?: number; max?: number; step?: number },
  ) => (
    <input
      id={`${id}-${key}`}
      type="number"
      inputMode="decimal"
      {...props}
      {...register(`${field}.${key}`)}
      aria-invalid={hasError(errors, `${field}.${key}`) || undefined}
      aria-describedby={messages.length > 0 ? `${id}-error` : undefined}
      data-testid={`switch-point-${index}-${key}`}
      className={`${controlClass} px-2`}
    />
  );

  return (
    <li className="flex flex-col gap-1 py-2" data-testid={`switch-point-${index}`}>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex w-18 flex-col gap-1">
          <label htmlFor={`${id}-hour`} className="text-xs text-stone-600">
            {t('switchPoint.hour')}
          </label>
          {input('hour', { min: 0, max: 23 })}
        </div>
        <span className="pb-2 font-semibold" aria-hidden="true">
          :
        </span>
        <div className="flex w-18 flex-col gap-1">
          <label htmlFor={`${id}-minute`} className="text-xs text-stone-600">
            {t('switchPoint.minute')}
          </label>
          {input('minute', { min: 0, max: 59 })}
        </div>
        <div className="flex w-18 flex-col gap-1">
          <label htmlFor={`${id}-temperature`} className="text-xs text-stone-600">
            <span className="sr-only">{t('switchPoint.temperature')} </span>
            <span aria-hidden="true">{t('switchPoint.temperatureShort')}</span>
          </label>
          {input('temperature', { step: 0.5 })}
        </div>
        <label className="flex h-10 items-center gap-2 text-sm">
          <input
            type="checkbox"
            {...register(`${field}.ignoreWallControl`)}
            data-testid={`switch-point-${index}-ignore`}
            className="size-4 accent-brand-600"
          />
          {t('switchPoint.ignoreWallControl')}
        </label>
        <Button
          variant="ghost"
          size="sm"
          className="mb-1"
          onClick={onRemove}
          aria-label={t('switchPoint.removeLabel', {
            time: `${row?.hour ?? ''}:${(row?.minute ?? '').padStart(2, '0')}`,
          })}
          testid={`switch-point-${index}-remove`}
        >
          {t('switchPoint.remove')}
        </Button>
      </div>
      {messages.length > 0 && (
        <p id={`${id}-error`} className="text-sm text-red-700" data-testid={`switch-point-${index}-error`}>
          {messages.join(' ')}
        </p>
      )}
    </li>
  );
}
