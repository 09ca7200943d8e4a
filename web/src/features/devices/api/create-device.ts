/**
 * `POST /api/companies/{id}/devices`: registers a device (LoRaWAN: id = DevEUI, AppKey stored
 * encrypted). 400 carries per-field `errors` (`body.id`, `body.appKey`, …); 409 when the DevEUI
 * is registered already.
 */
import type { Device, DeviceCreate } from '@heizplan/contracts/devices';
import { api, companyPath } from '../../../lib/api-client.ts';
import { useDeviceMutation } from './use-device-mutation.ts';

export const createDevice = (device: DeviceCreate) =>
  api.post<Device>(companyPath('/devices'), { body: device });

export const useCreateDevice = () => useDeviceMutation(createDevice);
