/**
 * What has really arrived at the valves: each device's latest setpoint downlink (a
 * superseded one never counts) and, per unit, how many devices still wait for theirs ("pending on
 * 3 devices") or failed, and the setpoints they carry where the device model adjusted the unit's
 * (delivered-setpoints.ts). Battery valves take a downlink only after their next uplink, so queued
 * and sent commands can stay pending for minutes. Set-based: one query per page of units or devices.
 */
import type { DeliveredSetpoint } from '@heizplan/contracts/heating';
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.ts';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import { type CarriedSetpoint, deliveredSetpoints, parseCarried } from './delivered-setpoints.ts';

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
  /** What the latest downlinks (not failed) carry where a device adjusted the unit's setpoint. */
  delivered: DeliveredSetpoint[];
}

/** Per unit of `unitIds` that has any: pending and failed device counts, adjusted setpoints. */
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
      unitSetpoint: units.setpoint,
      pending: sql`count(*) filter (where ${latest.state} in ('queued', 'sent'))`.mapWith(Number),
      failed: sql`count(*) filter (where ${latest.state} = 'failed')`.mapWith(Number),
      carried: sql<unknown>`json_agg(json_build_array(${latest.setpoint}, ${devices.model})) filter (where ${latest.state} <> 'failed')`,
    })
    .from(latest)
    .leftJoin(devices, eq(devices.id, latest.deviceId))
    .leftJoin(units, eq(units.id, latest.unitId))
    .groupBy(latest.unitId, units.setpoint);
  return new Map(
    rows.map((r) => [
      r.unitId as string,
      {
        pending: r.pending,
        failed: r.failed,
        delivered: deliveredSetpoints(r.unitSetpoint, parseCarried(r.carried)),
      },
    ]),
  );
}

/**
 * The setpoints and device models of the unit's downlinks applied at each of `at` (a heating log
 * entry's instant; superseded and failed ones never reached a valve), by ISO instant.
 */
export async function carriedAt(
  db: Db,
  companyId: string,
  unitId: string,
  at: Date[],
): Promise<Map<string, CarriedSetpoint[]>> {
  if (at.length === 0) return new Map();
  const rows = await db
    .select({ appliedAt: downlinks.appliedAt, setpoint: downlinks.setpoint, model: devices.model })
    .from(downlinks)
    .leftJoin(devices, eq(devices.id, downlinks.deviceId))
    .where(
      and(
        eq(downlinks.companyId, companyId),
        eq(downlinks.unitId, unitId),
        anyOf(
          downlinks.appliedAt,
          at.map((d) => d.toISOString()),
          'timestamptz',
        ),
        sql`${downlinks.state} not in ('superseded', 'failed')`,
      ),
    );
  const byAt = new Map<string, CarriedSetpoint[]>();
  for (const r of rows) {
    // Only setpoint downlinks carry a setpoint; a unit's devices get no others today.
    if (r.setpoint === null) continue;
    const key = r.appliedAt.toISOString();
    byAt.set(key, [...(byAt.get(key) ?? []), { setpoint: r.setpoint, model: r.model }]);
  }
  return byAt;
}
