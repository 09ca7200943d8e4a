/**
 * Port answering "which devices control these units?". `databaseDeviceDirectory`
 * reads `devices.unit_id` (the device registry); `noDevices` answers none, for tests
 * and tools that only want the heating log.
 */
import type { Db } from '../db/client.ts';
import { devicesOfUnitIds } from './apply.repository.ts';

export interface DeviceDirectory {
  /**
   * Device ids per unit id; units without devices may be missing from the map. `tx` is the
   * scheduler's open transaction: a directory reading the database must use it (PGlite has a
   * single connection, a second query outside the transaction would wait forever).
   */
  devicesOfUnits(unitIds: string[], tx?: Db): Promise<Map<string, string[]>>;
}

export const noDevices: DeviceDirectory = {
  async devicesOfUnits() {
    return new Map();
  },
};

/** Devices assigned to the units in the device registry, ordered by id for stable batches. */
export function databaseDeviceDirectory(db: Db): DeviceDirectory {
  return {
    async devicesOfUnits(unitIds, tx) {
      const result = new Map<string, string[]>();
      if (unitIds.length === 0) return result;
      const rows = await devicesOfUnitIds(tx ?? db, unitIds);
      for (const row of rows) {
        if (!row.unitId) continue;
        const list = result.get(row.unitId) ?? [];
        list.push(row.id);
        result.set(row.unitId, list);
      }
      return result;
    },
  };
}
