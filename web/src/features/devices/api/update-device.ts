/**
 * `PATCH /api/companies/{id}/devices/{deviceId}`: assigns the device to a unit (`unitId: null`
 * unassigns); a unit the company does not have answers 404 'Unknown unit'.
 */
import type { Device, DeviceUpdate } from '@heizplan/contracts/devices';
import { api, companyPath } from '../../../lib/api-client.ts';
import { useDeviceMutation } from './use-device-mutation.ts';

export const updateDevice = ({ deviceId, patch }: { deviceId: string; patch: DeviceUpdate }) =>
  api.patch<Device>(companyPath(`/devices/${encodeURIComponent(deviceId)}`), { body: patch });

export const useUpdateDevice = () => useDeviceMutation(updateDevice);
