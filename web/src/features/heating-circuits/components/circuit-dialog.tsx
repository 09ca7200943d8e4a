/**
 * Create/update dialog of a heating circuit (Heizkreis), for admins: name, building (fixed once
 * created), the rooms it serves (searched on the server; only rooms of its building are taken),
 * the heat generator, the radiators' design point, the heating curve as the installer set it (the
 * supply temperature at the design outdoor temperature and the room temperature it is set for),
 * the circuit's lowest and highest supply temperature, whether the recommendation is computed
 * (shadow), also written to the heat generator (on) or not, and the output it is written to.
 * Every message names its field and limit; the server's field errors show under their fields.
 */
import { CIRCUIT_MODES, GENERATOR_TYPES, type HeatingCircuit } from '@heizplan/contracts/heating-circuits';
import { useTranslation } from 'react-i18next';
import {
  applyServerErrors,
  FormError,
  FormField,
  FormTextInput,
  numberValue,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeCircuit } from '../api/heating-circuits.ts';
import { type CircuitBody, type CircuitForm, circuitFormSchema, updateOf } from '../circuit-form.ts';
import { CircuitOutputFields } from './circuit-output-fields.tsx';

export interface CircuitDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The circuit to change; null creates one. */
  circuit: HeatingCircuit | null;
  initial: CircuitForm;
}

const TEMPERATURE_UNITS = {
  designSupply: '°C',
  designReturn: '°C',
  designOutdoor: '°C',
  curveSupply: '°C',
  curveRoom: '°C',
  minSupply: '°C',
  maxSupply: '°C',
};

/** Mount it when opening (the page does): each opening starts from `initial`. */
export function CircuitDialog({ open, onOpenChange, circuit, initial }: CircuitDialogProps) {
  const { t } = useTranslation('circuits');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const change = useChangeCircuit();
  const { buildings } = useAllBuildings();
  const form = useContractForm(circuitFormSchema, { defaultValues: initial, units: TEMPERATURE_UNITS });
  const building = useFormControl('buildingId', form.control);
  const rooms = useFormControl('unitIds', form.control);

  const submit = (body: CircuitBody) => {
    change.mutate(
      circuit
        ? { action: 'update', circuitId: circuit.id, body: updateOf(body) }
        : { action: 'create', body },
      {
        onSuccess: () => {
          toast({
            type: 'success',
            title: circuit ? t('toast.saved') : t('toast.created'),
            testid: 'toast-circuit-saved',
          });
          onOpenChange(false);
        },
        onError: (error) => {
          applyServerErrors(form, error, problems, { fallback: t('errors.generic') });
          toast({
            type: 'error',
            title: circuit ? t('toast.saveError') : t('toast.createError'),
            testid: 'toast-circuit-error',
          });
        },
      },
    );
  };

  // Text, not type="number": a German "21,5" is read as 21.5 in every browser.
  const temperature = (name: keyof typeof TEMPERATURE_UNITS) => (
    <FormTextInput
      name={name}
      label={t(`fields.${name}`)}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      rules={{ setValueAs: numberValue }}
      testid={`circuit-${name}`}
    />
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={circuit ? t('dialog.editTitle') : t('dialog.createTitle')}
      form={form}
      onSubmit={submit}
      cancelText={t('dialog.cancel')}
      submitText={circuit ? t('dialog.save') : t('dialog.create')}
      pending={change.isPending}
      testid="circuit"
    >
      <FormTextInput
        name="name"
        label={t('fields.name')}
        placeholder={t('fields.namePlaceholder')}
        required
        testid="circuit-name"
      />
      <FormField
        name="buildingId"
        label={t('fields.building')}
        hint={circuit ? t('fields.buildingFixed') : undefined}
      >
        {(control) => (
          <Select
            {...control}
            required
            disabled={circuit !== null}
            value={building.value}
            onChange={(next) => {
              building.onChange(next);
              // Rooms belong to one building.
              rooms.onChange([]);
            }}
            onBlur={building.onBlur}
            options={[
              ...(building.value
                ? []
                : [{ id: '', value: t('fields.buildingPlaceholder'), testid: 'circuit-building-none' }]),
              ...buildings.map((b) => ({ id: b.id, value: b.name, testid: `circuit-building-${b.id}` })),
            ]}
            testid="circuit-building"
          />
        )}
      </FormField>
      <UnitSearchCombobox
        multiple
        label={t('fields.rooms')}
        placeholder={t('fields.roomsPlaceholder')}
        hint={t('fields.roomsHint')}
        value={rooms.value ?? []}
        onChange={rooms.onChange}
        error={rooms.error}
        offered={(unit) => unit.buildingId === building.value}
        testid="circuit-rooms"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField name="generatorType" label={t('fields.generatorType')}>
          {(control) => (
            <Select
              {...control}
              value={form.watch('generatorType')}
              onChange={(next) => form.setValue('generatorType', next as CircuitForm['generatorType'])}
              options={GENERATOR_TYPES.map((type) => ({
                id: type,
                value: t(`generators.${type}`),
                testid: `circuit-generator-${type}`,
              }))}
              testid="circuit-generator"
            />
          )}
        </FormField>
        <FormField name="mode" label={t('fields.mode')} hint={t('fields.modeHint')}>
          {(control) => (
            <Select
              {...control}
              value={form.watch('mode') ?? 'shadow'}
              onChange={(next) => form.setValue('mode', next as CircuitForm['mode'])}
              options={CIRCUIT_MODES.map((mode) => ({
                id: mode,
                value: t(`modes.${mode}`),
                testid: `circuit-mode-${mode}`,
              }))}
              testid="circuit-mode"
            />
          )}
        </FormField>
      </div>
      <fieldset className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
        <legend className="px-1 text-sm font-medium text-ink">{t('fields.design')}</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {temperature('designSupply')}
          {temperature('designReturn')}
          {temperature('designOutdoor')}
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
        <legend className="px-1 text-sm font-medium text-ink">{t('fields.curve')}</legend>
        <p className="text-xs text-stone-600">{t('fields.curveHint')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {temperature('curveSupply')}
          {temperature('curveRoom')}
          {temperature('minSupply')}
          {temperature('maxSupply')}
        </div>
      </fieldset>
      <CircuitOutputFields hasPassword={circuit?.output?.kind === 'mqtt' && circuit.output.hasPassword} />
      <FormError testid="circuit-error" />
    </FormDialog>
  );
}
