/** `GET /api/companies/{id}/devices?page&size&q&model&unitId&unassigned&sort&order`: one page of devices. */
import type { Device, DeviceListQuery, DevicePage } from '@heizplan/contracts/devices';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { deviceKeys } from './query-keys.ts';

export type DeviceListParams = Partial<DeviceListQuery>;

export const listDevices = (query: DeviceListParams): Promise<TablePage<Device>> =>
  api.get<DevicePage>(companyPath('/devices'), { query });

/** Keeps the previous page on screen while the next loads, so the table shows its loader. */
export function useDevices(query: DeviceListParams) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: () => listDevices(query),
    placeholderData: keepPreviousData,
  });
}
