/**
 * The "add device" form's values and its schema (spec §5: a LoRaWAN device id is its DevEUI,
 * exactly 16 hex digits; the AppKey has exactly 32 hex digits; the JoinEUI, when given, 16 hex).
 * The values are checked by the shared `DeviceCreateSchema`, so the form accepts exactly what
 * the server accepts; `deviceWording` only picks which translated sentence a field shows.
 */
import {
  type DeviceCreate,
  DeviceCreateSchema,
  type DeviceModel,
  DeviceModelSchema,
} from '@heizplan/contracts/devices';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { Issue } from '../../components/ui/form.tsx';

export interface DeviceFormValues {
  id: string;
  appKey: string;
  joinEui: string;
  model: DeviceModel | '';
  unitId: string | null;
}

export const EMPTY_DEVICE_FORM: DeviceFormValues = {
  id: '',
  appKey: '',
  joinEui: '',
  model: '',
  unitId: null,
};

/** The request body for `values` as typed: blank optional fields left out. */
export function toDeviceCreate(values: DeviceFormValues): DeviceCreate {
  return {
    id: values.id.trim(),
    protocol: 'lorawan',
    model: values.model as DeviceModel,
    appKey: values.appKey.trim(),
    ...(values.joinEui.trim() ? { joinEui: values.joinEui.trim() } : {}),
    ...(values.unitId ? { unitId: values.unitId } : {}),
  };
}

/** The values as the body the contract checks; the AppKey stays required (an OTAA join needs it). */
export const DeviceFormSchema = z
  .object({
    id: z.string(),
    appKey: z.string(),
    joinEui: z.string(),
    model: z.union([DeviceModelSchema, z.literal('')]),
    unitId: z.string().nullable(),
  })
  .transform((values): z.input<typeof DeviceCreateSchema> => toDeviceCreate(values))
  .pipe(DeviceCreateSchema);

/** The spec's sentence (namespace `devices`) for an issue of the field it names. */
export function deviceWording(t: TFunction, values: () => DeviceFormValues) {
  return (issue: Issue): string | undefined => {
    switch (issue.path[0]) {
      case 'id':
        if (issue.code === 'too_small') return t('validation.idRequired');
        return t(issue.code === 'too_big' ? 'validation.idTooLong' : 'validation.devEui');
      case 'appKey':
        return t(values().appKey.trim() === '' ? 'validation.appKeyRequired' : 'validation.appKey');
      case 'joinEui':
        return t('validation.joinEui');
      case 'model':
        return t('validation.modelRequired');
      default:
        return undefined;
    }
  };
}
