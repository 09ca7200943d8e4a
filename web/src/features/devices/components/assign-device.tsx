/**
 * The found device on /assign: its DevEUI, type and current unit, a room picker searching the
 * company's units on the server (thousands of rooms) and the assign button. A unit the server does not know (404, e.g. deleted meanwhile)
 * shows 'Unknown unit' under the Combobox; after success the assignment is confirmed.
 */
import { type Device, DeviceUpdateSchema } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Form, useContractForm, useFormControl } from '../../../components/ui/form.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUpdateDevice } from '../api/update-device.ts';

/** The unit to assign the device to: the contract's `unitId`, here required. */
export const AssignSchema = z.object({ unitId: DeviceUpdateSchema.shape.unitId.unwrap().unwrap() });

export interface UnitChoiceProps {
  label: string;
  placeholder: string;
  /** `unitId` of an `AssignSchema` form. */
  unit: { value: string; onChange: (unitId: string) => void };
  /** The device's current room, named before any search. */
  current: { id: string; name: string } | null;
  /** The server answered 404: the unit was deleted meanwhile. */
  unknownUnit: string | null;
  /** A new choice makes the last refusal stale. */
  onPick: () => void;
  testid: string;
}

/** The room picker of the unit a device goes to, on /assign and in the device list's dialog. */
export function UnitChoice({
  label,
  placeholder,
  unit,
  current,
  unknownUnit,
  onPick,
  testid,
}: UnitChoiceProps) {
  return (
    <UnitSearchCombobox
      label={label}
      placeholder={placeholder}
      value={unit.value || null}
      onChange={(next) => {
        unit.onChange(next ?? '');
        onPick();
      }}
      error={unknownUnit}
      known={current ? [current] : []}
      required
      testid={testid}
    />
  );
}

/** The device's room as a picker's `known` entry, null when it has none. */
export const currentUnit = (device: Device) =>
  device.unitId ? { id: device.unitId, name: device.unitName ?? '…' } : null;

export interface Assignment {
  deviceId: string;
  unitName: string;
}

export interface AssignDeviceProps {
  device: Device;
  assignment: Assignment | null;
  onAssigned: (assignment: Assignment) => void;
}

export function AssignDevice({ device, assignment, onAssigned }: AssignDeviceProps) {
  const { t } = useTranslation(['assign', 'devices']);
  const form = useContractForm(AssignSchema, { defaultValues: { unitId: device.unitId ?? '' } });
  const unit = useFormControl('unitId', form.control);
  const update = useUpdateDevice();
  const unknownUnit = update.error instanceof ApiError && update.error.status === 404;

  const assign = ({ unitId }: { unitId: string }) =>
    update.mutate(
      { deviceId: device.id, patch: { unitId } },
      {
        onSuccess: (saved) =>
          onAssigned({
            deviceId: saved.id,
            unitName: saved.unitName ?? '',
          }),
      },
    );

  return (
    <div
      className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
      data-testid="assign-device"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-stone-600">{t('device.devEui')}</dt>
        <dd className="font-mono break-all" data-testid="assign-device-id">
          {device.id}
        </dd>
        <dt className="text-stone-600">{t('device.model')}</dt>
        <dd>{t(`devices:models.${device.model}`)}</dd>
        <dt className="text-stone-600">{t('device.currentUnit')}</dt>
        <dd data-testid="assign-device-unit">{device.unitName ?? t('device.noUnit')}</dd>
      </dl>
      {assignment ? (
        <p
          role="status"
          className="rounded-lg bg-green-50 p-3 text-sm text-green-800"
          data-testid="assign-success"
        >
          {t('assigned', { device: assignment.deviceId, unit: assignment.unitName })}
        </p>
      ) : (
        <Form form={form} onSubmit={assign} className="flex flex-col gap-4">
          <UnitChoice
            label={t('unit.label')}
            placeholder={t('unit.placeholder')}
            unit={unit}
            current={currentUnit(device)}
            unknownUnit={unknownUnit ? t('unknownUnit') : null}
            onPick={update.reset}
            testid="assign-unit"
          />
          {update.isError && !unknownUnit && (
            <p role="alert" className="text-sm text-red-700" data-testid="assign-error">
              {t('assignError')}
            </p>
          )}
          <Button
            type="submit"
            disabled={!unit.value || unit.value === device.unitId}
            loading={update.isPending}
            testid="assign-submit"
            className="w-full"
          >
            {t('submit')}
          </Button>
        </Form>
      )}
    </div>
  );
}
