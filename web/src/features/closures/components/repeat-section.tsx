/**
 * The closure dialog's "Repeat" part (decision 0051): none, daily, weekly on ticked weekdays
 * (the start's weekday ticked when weekly is chosen; the last ticked day cannot be unticked),
 * monthly or yearly, each with an optional last day, or a rule of one's own as RRULE text
 * (prefilled with the rule of the choice before). A refused recurrence shows under the rule,
 * or under the choice when the dialog built the rule.
 */
import { RECURRENCE_MAX_LENGTH, RECURRENCE_WEEKDAYS } from '@heizplan/contracts/recurrence';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { cx } from '../../../components/ui/cx.ts';
import { FormField, FormTextInput, useFieldError, useFormControl } from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { ClosureForm } from '../closure-form.ts';
import { REPEAT_CHOICES, type RepeatChoice, recurrenceOf, weekdayOf } from '../closure-repeat.ts';

export function RepeatSection() {
  const { t } = useTranslation('closures');
  const { getValues, setValue, watch } = useFormContext<ClosureForm>();
  const repeat = useFormControl<ClosureForm, 'repeat'>('repeat');
  const weekdays = useFormControl<ClosureForm, 'weekdays'>('weekdays');
  const recurrenceError = useFieldError('recurrence');
  const start = watch('start');

  const choose = (next: RepeatChoice) => {
    const values = getValues();
    if (next === 'custom' && !values.recurrence.trim()) {
      const before = values.repeat === 'none' || values.repeat === 'custom' ? 'weekly' : values.repeat;
      setValue('recurrence', recurrenceOf({ ...values, repeat: before }, values.start) ?? '');
    }
    if (next === 'weekly' && values.weekdays.length === 0) weekdays.onChange([weekdayOf(values.start)]);
    repeat.onChange(next);
  };

  return (
    <div className="flex flex-col gap-3" data-testid="closure-repeat-section">
      <FormField
        name="repeat"
        label={t('fields.repeat')}
        hint={t('fields.repeatHint')}
        testid="closure-repeat-field"
      >
        {(control) => (
          <Select
            {...control}
            value={repeat.value}
            onChange={(next) => choose(next as RepeatChoice)}
            onBlur={repeat.onBlur}
            options={REPEAT_CHOICES.map((choice) => ({
              id: choice,
              value: t(`repeatOptions.${choice}`),
              testid: `closure-repeat-${choice}`,
            }))}
            testid="closure-repeat"
          />
        )}
      </FormField>
      {repeat.value === 'weekly' && (
        <fieldset className="flex flex-col gap-2" data-testid="closure-weekdays">
          <legend className="mb-2 text-sm font-medium text-ink">{t('fields.weekdays')}</legend>
          <div className="flex flex-wrap gap-2">
            {RECURRENCE_WEEKDAYS.map((day) => {
              const checked = weekdays.value.includes(day);
              // One day at least: an empty choice would mean the start's weekday anyway.
              const last = checked && weekdays.value.length === 1;
              return (
                <label
                  key={day}
                  title={t(`recurrence.weekdayNames.${day}`)}
                  className={cx(
                    'flex h-10 min-w-12 cursor-pointer items-center justify-center gap-1.5 rounded-lg border px-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                    checked
                      ? 'border-brand-600 bg-brand-50 text-ink'
                      : 'border-stone-300 bg-white text-stone-700',
                    last && 'cursor-not-allowed',
                  )}
                >
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={last}
                    aria-label={t(`recurrence.weekdayNames.${day}`)}
                    onChange={(event) =>
                      weekdays.onChange(
                        event.target.checked
                          ? [...weekdays.value, day]
                          : weekdays.value.filter((d) => d !== day),
                      )
                    }
                    className="size-4 accent-brand-600"
                    data-testid={`closure-weekday-${day}`}
                  />
                  {t(`recurrence.weekdays.${day}`)}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}
      {repeat.value === 'custom' && (
        <FormTextInput
          name="recurrence"
          label={t('fields.rule')}
          hint={t('fields.ruleHint')}
          maxLength={RECURRENCE_MAX_LENGTH}
          spellCheck={false}
          autoCapitalize="characters"
          testid="closure-rule"
        />
      )}
      {repeat.value !== 'none' && repeat.value !== 'custom' && (
        <FormTextInput
          name="until"
          type="date"
          label={t('fields.until')}
          hint={t('fields.untilHint')}
          min={start.slice(0, 10)}
          testid="closure-until"
        />
      )}
      {repeat.value !== 'custom' && recurrenceError && (
        <p role="alert" className="text-sm text-red-700" data-testid="closure-recurrence-error">
          {recurrenceError}
        </p>
      )}
    </div>
  );
}
