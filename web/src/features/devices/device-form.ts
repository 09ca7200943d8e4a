/**
 * The "add device" form's values and its checks (spec §5: a LoRaWAN device id is its DevEUI,
 * exactly 16 hex digits; the AppKey has exactly 32 hex digits; the JoinEUI, when given, 16 hex).
 * Validity comes from the shared `DeviceCreateSchema`, so the form accepts exactly what the
 * server accepts; the form only picks which translated sentence to show per field.
 */
import {
  DEVICE_MODELS,
  type DeviceCreate,
  DeviceCreateSchema,
  type DeviceModel,
  DeviceUpdateSchema,
} from '@heizplan/contracts/devices';

export interface DeviceFormValues {
  id: string;
  appKey: string;
  joinEui: string;
  model: DeviceModel | '';
  unitId: string | null;
}

export type DeviceFormField = 'id' | 'appKey' | 'joinEui' | 'model';

/** Translation keys (namespace `devices`) of the problems per field; empty when valid. */
export type DeviceFormErrors = Partial<Record<DeviceFormField, string>>;

export const EMPTY_DEVICE_FORM: DeviceFormValues = {
  id: '',
  appKey: '',
  joinEui: '',
  model: '',
  unitId: null,
};

/** The request body for `values`: blank optional fields left out. */
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

function idProblem(id: string): string {
  if (id === '') return 'validation.idRequired';
  if (id.length > 16) return 'validation.idTooLong';
  return 'validation.devEui';
}

const ID_ONLY = { model: DEVICE_MODELS[0], protocol: 'lorawan' } as const;
const APP_KEY = DeviceUpdateSchema.shape.appKey;
const JOIN_EUI = DeviceUpdateSchema.shape.joinEui;

/**
 * Checks `values` as the server will, each field on its own so every wrong field gets its
 * message at once; the AppKey is required here (an OTAA join needs it).
 */
export function validateDeviceForm(values: DeviceFormValues): DeviceFormErrors {
  const errors: DeviceFormErrors = {};
  const id = values.id.trim();
  if (!DeviceCreateSchema.safeParse({ ...ID_ONLY, id }).success) errors.id = idProblem(id);
  const appKey = values.appKey.trim();
  if (appKey === '') errors.appKey = 'validation.appKeyRequired';
  else if (!APP_KEY.safeParse(appKey).success) errors.appKey = 'validation.appKey';
  const joinEui = values.joinEui.trim();
  if (joinEui !== '' && !JOIN_EUI.safeParse(joinEui).success) errors.joinEui = 'validation.joinEui';
  if (values.model === '') errors.model = 'validation.modelRequired';
  return errors;
}
