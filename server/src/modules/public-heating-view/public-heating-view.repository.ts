/**
 * Reads for the public heating view: the company settings and occupant limits the page needs and what the
 * unit's devices last reported. Scoped by the company and unit that the token resolved to.
 */
import { and, desc, eq, max, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { buildings, companies, devices, groups, heatingLog, units } from '../../db/schema.ts';

/** Readings older than this say nothing about a wall thermostat overriding the setpoint now. */
const REPORT_WINDOW_MS = 24 * 3_600_000;

/**
 * The company settings the page needs, with the occupant limits the unit's group and building set
 * (°C ceiling, K leeway; null = the next level's), in one query for the unit of the company;
 * undefined when the unit is not the company's.
 */
export async function findOccupantSettings(db: Db, companyId: string, unitId: string) {
  const [row] = await db
    .select({
      timeZone: companies.timeZone,
      minTemperature: companies.minTemperature,
      maxTemperature: companies.maxTemperature,
      occupantChangeMaxHours: companies.occupantChangeMaxHours,
      occupantMaxTemperature: companies.occupantMaxTemperature,
      occupantBand: companies.occupantBand,
      groupCeiling: groups.occupantMaxTemperature,
      groupBand: groups.occupantBand,
      buildingCeiling: buildings.occupantMaxTemperature,
      buildingBand: buildings.occupantBand,
    })
    .from(units)
    .innerJoin(companies, eq(companies.id, units.companyId))
    .leftJoin(groups, and(eq(groups.id, units.groupId), eq(groups.companyId, companyId)))
    .leftJoin(buildings, and(eq(buildings.id, units.buildingId), eq(buildings.companyId, companyId)))
    .where(and(eq(units.companyId, companyId), eq(units.id, unitId)));
  if (!row) return undefined;
  const { groupCeiling, groupBand, buildingCeiling, buildingBand, ...company } = row;
  return {
    company,
    levels: {
      group: { ceiling: groupCeiling, band: groupBand },
      building: { ceiling: buildingCeiling, band: buildingBand },
    },
  };
}

/**
 * °C the unit was set to by its last change that was not an occupant's (a switch point, an event,
 * a booking, a closure, staff): what an occupant's changes started from. Undefined without one.
 */
export async function lastSetpointBeforeOccupants(
  db: Db,
  companyId: string,
  unitId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ setpoint: heatingLog.newSetpoint })
    .from(heatingLog)
    .where(
      and(
        eq(heatingLog.companyId, companyId),
        eq(heatingLog.unitId, unitId),
        ne(heatingLog.kind, 'qr_change'),
      ),
    )
    .orderBy(desc(heatingLog.at), desc(heatingLog.id))
    .limit(1);
  return row?.setpoint;
}

/** When any device of the unit last reported. */
export async function lastReadingAt(db: Db, companyId: string, unitId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(devices.lastSeen) })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), eq(devices.unitId, unitId)));
  return row?.at ?? null;
}

/** What one device of the unit was last sent and last reported. */
export interface DeviceSetpointState {
  /** State of its newest downlink that was not superseded; null when it never got one. */
  downlinkState: string | null;
  /** °C that downlink carried (clamped and rounded to the device's own steps). */
  downlinkSetpoint: number | null;
  /** When that downlink last changed state (queued, sent, acknowledged …). */
  downlinkAt: Date | null;
  /** °C the device last reported it regulates to, within the last day; null when none. */
  reported: number | null;
  reportedAt: Date | null;
}

/**
 * Per device of the unit: its newest downlink that was not superseded and its latest reported
 * setpoint within the last day (one statement, both lookups by index).
 */
export async function deviceSetpointStates(
  db: Db,
  companyId: string,
  unitId: string,
  now: Date,
): Promise<DeviceSetpointState[]> {
  const since = new Date(now.getTime() - REPORT_WINDOW_MS).toISOString();
  const result = await db.execute(sql`
    select dl.state, dl.setpoint as downlink_setpoint, dl.updated_at, r.setpoint_reported, r.time
    from devices d
    left join lateral (
      select state, setpoint, updated_at from downlinks
      where device_id = d.id and state <> 'superseded'
      order by applied_at desc, created_at desc limit 1
    ) dl on true
    left join lateral (
      select setpoint_reported, time from telemetry
      where dev_eui = d.dev_eui and setpoint_reported is not null and time > ${since}::timestamptz
      order by time desc limit 1
    ) r on true
    where d.company_id = ${companyId} and d.unit_id = ${unitId}`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    downlinkState: (r.state as string | null) ?? null,
    downlinkSetpoint: num(r.downlink_setpoint),
    downlinkAt: date(r.updated_at),
    reported: num(r.setpoint_reported),
    reportedAt: date(r.time),
  }));
}
