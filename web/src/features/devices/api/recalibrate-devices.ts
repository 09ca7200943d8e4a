/**
 * `POST /api/companies/{id}/devices/recalibrate` (decision 0062): a motor recalibration for up to
 * 1,000 valves, sent with their next downlink; answers how many were asked and which models
 * have no such command.
 */
import type { RecalibrateResult } from '@heizplan/contracts/device-profiles';
import { api, companyPath } from '../../../lib/api-client.ts';
import { useDeviceMutation } from './use-device-mutation.ts';

export const recalibrateDevices = (deviceIds: string[]) =>
  api.post<RecalibrateResult>(companyPath('/devices/recalibrate'), { body: { deviceIds } });

export const useRecalibrateDevices = () => useDeviceMutation(recalibrateDevices);
