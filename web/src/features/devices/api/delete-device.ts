/**
 * `DELETE /api/companies/{id}/devices/{deviceId}`: 409 for the last device while the
 * subscription is active (spec §4).
 */
import { api, companyPath } from '../../../lib/api-client.ts';
import { useDeviceMutation } from './use-device-mutation.ts';

export const deleteDevice = (deviceId: string) =>
  api.delete<undefined>(companyPath(`/devices/${encodeURIComponent(deviceId)}`));

export const useDeleteDevice = () => useDeviceMutation(deleteDevice);
