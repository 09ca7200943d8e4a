/**
 * The circuit dialog's output: where the command goes in mode "An" (decision 0077) — none, a
 * Modbus TCP device, an MQTT broker of a building management system, or a LoRaWAN relay — and the
 * settings of the chosen kind, as the contract's output schema names them, so its limits and the
 * server's messages land under the fields. A stored MQTT password is never shown: the field stays
 * empty, says one is stored, and an empty field keeps it.
 */
import { CIRCUIT_OUTPUT_KINDS, type CircuitOutputInput } from '@heizplan/contracts/heating-circuits';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { FormField, FormTextInput, numberValue } from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';

/** A new output of `kind` with the contract's defaults; the address fields are left to fill in. */
export function newOutput(kind: CircuitOutputInput['kind']): CircuitOutputInput {
  switch (kind) {
    case 'modbus':
      return {
        kind,
        host: '',
        port: 502,
        unitId: 1,
        setpoint: { register: 0, scale: 10, signed: false, readBack: true },
        enable: { kind: 'coil', coil: 0, readBack: true },
        timeoutMs: 3000,
      };
    case 'mqtt':
      return { kind, url: 'mqtt://', companySlug: '' };
    case 'lora_relay':
      return { kind, devEui: '', fPort: 1, invert: false, ro2: 'none' };
  }
}

/** `setValueAs` of an optional text: empty is left out (for the password: the stored one is kept). */
const noneIfEmpty = (value: unknown) => (value === '' || value === null ? undefined : value);

export interface CircuitOutputFieldsProps {
  /** Whether the circuit has an MQTT password stored (it is never sent to the browser). */
  hasPassword: boolean;
}

export function CircuitOutputFields({ hasPassword }: CircuitOutputFieldsProps) {
  const { t } = useTranslation('circuits');
  const { control, setValue, register } = useFormContext();
  const output = useWatch({ control, name: 'output' }) as CircuitOutputInput | null;
  const enableKind = useWatch({ control, name: 'output.enable.kind' }) as 'coil' | 'register' | undefined;

  // Whole numbers, typed as text like the temperatures (no spinner that changes a register by a wheel).
  const integer = (name: string, label: string) => (
    <FormTextInput
      name={name}
      label={label}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      rules={{ setValueAs: numberValue }}
      testid={`circuit-${name.replaceAll('.', '-')}`}
    />
  );
  const text = (name: string, label: string, hint?: string, optional = false) => (
    <FormTextInput
      name={name}
      label={label}
      hint={hint}
      autoComplete="off"
      rules={optional ? { setValueAs: noneIfEmpty } : undefined}
      testid={`circuit-${name.replaceAll('.', '-')}`}
    />
  );

  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
      <legend className="px-1 text-sm font-medium text-ink">{t('output.legend')}</legend>
      <p className="text-xs text-stone-600">{t('output.hint')}</p>
      <FormField name="output" label={t('output.kind')}>
        {(field) => (
          <Select
            {...field}
            value={output?.kind ?? 'none'}
            onChange={(next) =>
              setValue('output', next === 'none' ? null : newOutput(next as CircuitOutputInput['kind']), {
                shouldDirty: true,
              })
            }
            options={[
              { id: 'none', value: t('output.kinds.none'), testid: 'circuit-output-none' },
              ...CIRCUIT_OUTPUT_KINDS.map((kind) => ({
                id: kind,
                value: t(`output.kinds.${kind}`),
                testid: `circuit-output-${kind}`,
              })),
            ]}
            testid="circuit-output-kind"
          />
        )}
      </FormField>

      {output?.kind === 'modbus' && (
        <>
          <div className="grid gap-3 sm:grid-cols-3">
            {text('output.host', t('output.host'))}
            {integer('output.port', t('output.port'))}
            {integer('output.unitId', t('output.unitId'))}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {integer('output.setpoint.register', t('output.setpointRegister'))}
            {integer('output.setpoint.scale', t('output.scale'))}
          </div>
          <Checkbox
            {...register('output.setpoint.readBack')}
            label={t('output.setpointReadBack')}
            testid="circuit-output-setpoint-read-back"
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField name="output.enable.kind" label={t('output.enableKind')}>
              {(field) => (
                <Select
                  {...field}
                  value={enableKind ?? 'coil'}
                  onChange={(next) =>
                    setValue(
                      'output.enable',
                      next === 'register'
                        ? { kind: 'register', register: 0, on: 1, off: 0, readBack: true }
                        : { kind: 'coil', coil: 0, readBack: true },
                      { shouldDirty: true },
                    )
                  }
                  options={(['coil', 'register'] as const).map((kind) => ({
                    id: kind,
                    value: t(`output.enableKinds.${kind}`),
                    testid: `circuit-output-enable-${kind}`,
                  }))}
                  testid="circuit-output-enable-kind"
                />
              )}
            </FormField>
            {enableKind === 'register'
              ? integer('output.enable.register', t('output.enableRegister'))
              : integer('output.enable.coil', t('output.enableCoil'))}
          </div>
          <Checkbox
            {...register('output.enable.readBack')}
            label={t('output.enableReadBack')}
            hint={t('output.readBackHint')}
            testid="circuit-output-enable-read-back"
          />
        </>
      )}

      {output?.kind === 'mqtt' && (
        <>
          {text('output.url', t('output.url'), t('output.urlHint'))}
          <div className="grid gap-3 sm:grid-cols-2">
            {text('output.username', t('output.username'), undefined, true)}
            <FormTextInput
              name="output.password"
              label={t('output.password')}
              hint={hasPassword ? t('output.passwordStored') : undefined}
              type="password"
              autoComplete="new-password"
              // Left empty, the server keeps the stored password.
              rules={{ setValueAs: noneIfEmpty }}
              testid="circuit-output-password"
            />
          </div>
          {text('output.companySlug', t('output.companySlug'), t('output.companySlugHint'))}
        </>
      )}

      {output?.kind === 'lora_relay' && (
        <>
          <p className="text-xs text-stone-600">{t('output.loraHint')}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            {text('output.devEui', t('output.devEui'))}
            {integer('output.fPort', t('output.fPort'))}
          </div>
          <Checkbox
            {...register('output.invert')}
            label={t('output.invert')}
            testid="circuit-output-invert"
          />
        </>
      )}
    </fieldset>
  );
}
