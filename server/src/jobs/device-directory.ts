/**
 * Port answering "which devices control these units?" (issue 5). The device integration adds
 * a `devices` table with `unit_id` and implements this over it; until then no unit has a
 * device, so the scheduler still logs every change but sends no command.
 */
export interface DeviceDirectory {
  /** Device ids per unit id; units without devices may be missing from the map. */
  devicesOfUnits(unitIds: string[]): Promise<Map<string, string[]>>;
}

export const noDevices: DeviceDirectory = {
  async devicesOfUnits() {
    return new Map();
  },
};
