/**
 * Create/update dialog of a closure (decision 0051): name, note, start and end typed in the
 * company's time zone, whether and how it repeats (RepeatSection), the heating mode with the
 * temperature each mode keeps, the scope (whole company, buildings or floors — offered when the
 * company has buildings —, groups or units) with its targets, and the exception units that keep
 * their normal heating. The contracts' rules (`closureDraftSchema`) are checked before sending; the
 * server's field errors show under their fields in the user's language, the rest above the
 * buttons; a failed save also shows a toast. Only members who operate open it (the screen shows
 * the others no controls).
 */
import type { Building } from '@heizplan/contracts/buildings';
import type { Closure, ClosureScope, HeatingMode } from '@heizplan/contracts/closures';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, type ComboboxOption } from '../../../components/ui/combobox.tsx';
import { controlClass } from '../../../components/ui/field.tsx';
import {
  applyServerErrors,
  FormError,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { HEATING_MODES, type ModeTemperatures, useModeLabel } from '../../../lib/heating/heating-modes.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeClosure } from '../api/closures.ts';
import { type ClosureBody, type ClosureForm, closureFormSchema } from '../closure-form.ts';
import { BuildingTargets } from './building-targets.tsx';
import { RepeatSection } from './repeat-section.tsx';

export interface ClosureDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The closure to update; null creates a new one. */
  closure: Closure | null;
  initial: ClosureForm;
  /** Company IANA zone the times are typed in. */
  zone: string;
  /** The company's economy and standby setpoints, shown beside the modes. */
  temperatures: ModeTemperatures;
  groupOptions: ComboboxOption[];
  /** The company's buildings; without any the scope "buildings" is not offered. */
  buildings: Building[];
}

/** The text inputs' look, grown to a few lines. */
const textareaClass = controlClass.replace('h-10', 'min-h-20 py-2');

/** Mount it when opening (the closures page does): each opening starts from `initial`. */
export function ClosureDialog({
  open,
  onOpenChange,
  closure,
  initial,
  zone,
  temperatures,
  groupOptions,
  buildings,
}: ClosureDialogProps) {
  const { t } = useTranslation('closures');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const format = useHeatingFormat();
  const modeLabel = useModeLabel(temperatures, 'closures');
  const change = useChangeClosure();
  const schema = useMemo(() => closureFormSchema(zone), [zone]);
  const form = useContractForm(schema, {
    defaultValues: initial,
    // The dialog's own sentences for a start or end left empty.
    wording: (issue) =>
      issue.code === 'invalid_format' && issue.path[0] === 'start'
        ? t('errors.startRequired')
        : issue.code === 'invalid_format' && issue.path[0] === 'end'
          ? t('errors.endRequired')
          : undefined,
  });
  const scope = form.watch('scope');
  const mode = useFormControl('mode', form.control);
  const scopeControl = useFormControl('scope', form.control);
  const groups = useFormControl('groups', form.control);
  const units = useFormControl('units', form.control);
  const exceptions = useFormControl('exceptions', form.control);
  // Names of the closure's own rooms, shown before any search.
  const known = closure ? [...closure.units, ...closure.exceptions] : [];
  const scopes: ClosureScope[] =
    buildings.length > 0 || initial.scope === 'buildings'
      ? ['company', 'buildings', 'groups', 'units']
      : ['company', 'groups', 'units'];
  const chooseScope = (next: ClosureScope) => {
    // Choosing buildings starts with the first one, whole.
    const first = buildings[0];
    if (next === 'buildings' && form.getValues('buildings').length === 0 && first)
      form.setValue('buildings', [{ buildingId: first.id, floor: '' }]);
    scopeControl.onChange(next);
  };

  const submit = (body: ClosureBody) => {
    change.mutate(closure ? { action: 'update', closureId: closure.id, body } : { action: 'create', body }, {
      onSuccess: () => {
        toast({
          type: 'success',
          title: closure ? t('toast.saved') : t('toast.created'),
          testid: 'toast-closure-saved',
        });
        onOpenChange(false);
      },
      onError: (error) => {
        applyServerErrors(form, error, problems, { fallback: t('errors.generic') });
        toast({
          type: 'error',
          title: closure ? t('toast.saveError') : t('toast.createError'),
          testid: 'toast-closure-error',
        });
      },
    });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={closure ? t('dialog.editTitle') : t('dialog.createTitle')}
      form={form}
      onSubmit={submit}
      cancelText={t('dialog.cancel')}
      submitText={closure ? t('dialog.save') : t('dialog.create')}
      pending={change.isPending}
      testid="closure"
    >
      {closure && (
        <p className="text-xs text-stone-600" data-testid="closure-created">
          {t('dialog.created', {
            name: closure.createdBy?.name ?? t('dialog.unknownCreator'),
            date: format.dateTime(closure.createdAt, zone),
          })}
        </p>
      )}
      {closure?.status === 'running' && (
        <p className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="closure-running">
          {t('dialog.running')}
        </p>
      )}
      <FormTextInput
        name="name"
        label={t('fields.name')}
        placeholder={t('fields.namePlaceholder')}
        required
        testid="closure-name"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormTextInput
          name="start"
          label={t('fields.start')}
          type="datetime-local"
          rules={{ deps: ['end'] }}
          required
          testid="closure-start"
        />
        <FormTextInput
          name="end"
          label={t('fields.end')}
          type="datetime-local"
          rules={{ deps: ['start'] }}
          required
          testid="closure-end"
        />
      </div>
      <p className="-mt-2 text-xs text-stone-600" data-testid="closure-zone">
        {t('fields.timesHint', { zone })}
      </p>
      <RepeatSection />
      <FormField name="mode" label={t('fields.mode')} hint={t('fields.modeHint')} testid="closure-mode-field">
        {(control) => (
          <Select
            {...control}
            value={mode.value}
            onChange={(next) => mode.onChange(next as HeatingMode)}
            onBlur={mode.onBlur}
            options={HEATING_MODES.map((m) => ({ id: m, value: modeLabel(m), testid: `closure-mode-${m}` }))}
            testid="closure-mode"
          />
        )}
      </FormField>
      <RadioCards
        legend={t('fields.scope')}
        name="closure-scope"
        value={scopeControl.value}
        onChange={chooseScope}
        columns={scopes.length === 4 ? 2 : 3}
        options={scopes.map((s) => ({
          id: s,
          title: t(`scopeOptions.${s}.title`),
          description: t(`scopeOptions.${s}.description`),
          testid: `closure-scope-${s}`,
        }))}
        testid="closure-scope"
      />
      {scope === 'buildings' && <BuildingTargets buildings={buildings} />}
      {scope === 'groups' && (
        <Combobox
          multiple
          label={t('fields.groups')}
          placeholder={t('fields.groupsPlaceholder')}
          value={groups.value}
          onChange={groups.onChange}
          options={groupOptions}
          error={groups.error}
          testid="closure-groups"
        />
      )}
      {scope === 'units' && (
        <UnitSearchCombobox
          multiple
          label={t('fields.units')}
          placeholder={t('fields.unitsPlaceholder')}
          value={units.value}
          onChange={units.onChange}
          known={known}
          error={units.error}
          required
          testid="closure-units"
        />
      )}
      {scope !== 'units' && (
        <UnitSearchCombobox
          multiple
          label={t('fields.exceptions')}
          placeholder={t('fields.exceptionsPlaceholder')}
          hint={t('fields.exceptionsHint')}
          value={exceptions.value}
          onChange={exceptions.onChange}
          known={known}
          error={exceptions.error}
          testid="closure-exceptions"
        />
      )}
      <FormField name="note" label={t('fields.note')} testid="closure-note-field">
        {(control) => (
          <textarea
            {...form.register('note')}
            {...control}
            maxLength={2000}
            rows={2}
            data-testid="closure-note"
            className={textareaClass}
          />
        )}
      </FormField>
      <FormError testid="closure-error" />
    </FormDialog>
  );
}
