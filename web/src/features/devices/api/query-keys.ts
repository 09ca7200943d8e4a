/** TanStack Query keys of the device registry; every device change invalidates `all`. */
import type { DeviceListQuery } from '@heizplan/contracts/devices';

export const deviceKeys = {
  all: ['devices'] as const,
  list: (query: Partial<DeviceListQuery>) => ['devices', 'list', query] as const,
  byEui: (devEui: string) => ['devices', 'by-eui', devEui] as const,
};
