/**
 * What has really arrived at the valves: each device's latest setpoint downlink (a
 * superseded one never counts) and, per unit, how many devices still wait for theirs ("pending on
 * 3 devices") or failed. Battery valves take a downlink only after their next uplink, so queued
 * and sent commands can stay pending for minutes. Set-based: one query per page of units or devices.
 */
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.ts';
import type { Db } from '../db/client.ts';
import { downlinks } from '../db/schema/telemetry.ts';

export type LatestDownlink = Pick<
  typeof downlinks.$inferSelect,
  'deviceId' | 'unitId' | 'setpoint' | 'state' | 'createdAt' | 'updatedAt'
>;

/** The newest non-superseded downlink of each device matching `where`, as a query to run or nest. */
function latestPerDevice(db: Db, companyId: string, where: SQL) {
  return db
    .selectDistinctOn([downlinks.deviceId], {
      deviceId: downlinks.deviceId,
      unitId: downlinks.unitId,
      setpoint: downlinks.setpoint,
      state: downlinks.state,
      createdAt: downlinks.createdAt,
      updatedAt: downlinks.updatedAt,
    })
    .from(downlinks)
    .where(and(eq(downlinks.companyId, companyId), where, ne(downlinks.state, 'superseded')))
    .orderBy(downlinks.deviceId, desc(downlinks.createdAt));
}

/** The newest non-superseded downlink of each of `deviceIds`. */
export async function latestDownlinks(
  db: Db,
  companyId: string,
  deviceIds: string[],
): Promise<Map<string, LatestDownlink>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await latestPerDevice(db, companyId, anyOf(downlinks.deviceId, deviceIds, 'text'));
  return new Map(rows.map((r) => [r.deviceId, r]));
}

export interface UnitDownlinkStatus {
  /** Devices whose latest setpoint downlink is queued or sent, not yet acknowledged. */
  pending: number;
  /** Devices whose latest setpoint downlink failed. */
  failed: number;
}

/** Per unit of `unitIds` that has any: pending and failed device counts. */
export async function downlinkStatusByUnit(
  db: Db,
  companyId: string,
  unitIds: string[],
): Promise<Map<string, UnitDownlinkStatus>> {
  if (unitIds.length === 0) return new Map();
  const latest = latestPerDevice(db, companyId, anyOf(downlinks.unitId, unitIds)).as('latest');
  const rows = await db
    .select({
      unitId: latest.unitId,
      pending: sql`count(*) filter (where ${latest.state} in ('queued', 'sent'))`.mapWith(Number),
      failed: sql`count(*) filter (where ${latest.state} = 'failed')`.mapWith(Number),
    })
    .from(latest)
    .groupBy(latest.unitId);
  return new Map(rows.map((r) => [r.unitId as string, { pending: r.pending, failed: r.failed }]));
}
