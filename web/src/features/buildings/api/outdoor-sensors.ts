/**
 * The sensors a building may use as its outdoor sensor (decision 0057): the company's devices of
 * a sensor model without unit, from the devices API. Under the devices' query keys, so a device
 * change refreshes the choice too.
 */
import type { DevicePage } from '@heizplan/contracts/devices';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

/** Most sensors offered; a company mounts a handful outside. */
const SENSORS_MAX = 200;

export const listOutdoorSensors = () =>
  api.get<DevicePage>(companyPath('/devices'), {
    query: { unassigned: 'true', kind: 'sensor', sort: 'id', order: 'asc', size: SENSORS_MAX },
  });

export function useOutdoorSensors() {
  return useQuery({ queryKey: ['devices', 'outdoor-sensors'], queryFn: listOutdoorSensors });
}
