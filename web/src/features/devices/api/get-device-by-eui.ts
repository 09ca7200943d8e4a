/**
 * `GET /api/companies/{id}/devices/by-eui/{devEui}`: the /assign lookup. The server answers 404
 * ('Device not found.') for a DevEUI the company has not registered; that is not retried.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, companyPath } from '../../../lib/api-client.ts';
import { deviceKeys } from './query-keys.ts';

export const getDeviceByEui = (devEui: string): Promise<Device> =>
  api.get<Device>(companyPath(`/devices/by-eui/${encodeURIComponent(devEui)}`));

/** Looks the device up once `devEui` is set (null = nothing scanned yet). */
export function useDeviceByEui(devEui: string | null) {
  return useQuery({
    queryKey: deviceKeys.byEui(devEui ?? ''),
    queryFn: () => getDeviceByEui(devEui ?? ''),
    enabled: devEui !== null,
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });
}
