/**
 * Reads for the public heating view (issue 7): the company settings the page needs and what the
 * unit's devices last reported. Scoped by the company and unit that the token resolved to.
 */
import { and, desc, eq, gt, isNotNull, max } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies, devices, telemetry } from '../../db/schema.ts';

/** Readings older than this say nothing about a wall thermostat overriding the setpoint now. */
const REPORT_WINDOW_MS = 24 * 3_600_000;

export async function findCompanySettings(db: Db, companyId: string) {
  const [row] = await db
    .select({
      timeZone: companies.timeZone,
      minTemperature: companies.minTemperature,
      maxTemperature: companies.maxTemperature,
      occupantChangeMaxHours: companies.occupantChangeMaxHours,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row;
}

/** When any device of the unit last reported. */
export async function lastReadingAt(db: Db, companyId: string, unitId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(devices.lastSeen) })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), eq(devices.unitId, unitId)));
  return row?.at ?? null;
}

/** The latest setpoint (°C) each device of the unit reported within the last day. */
export async function reportedSetpoints(
  db: Db,
  companyId: string,
  unitId: string,
  now: Date,
): Promise<number[]> {
  const rows = await db
    .selectDistinctOn([telemetry.devEui], { setpoint: telemetry.setpointReported })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.companyId, companyId),
        eq(telemetry.unitId, unitId),
        gt(telemetry.time, new Date(now.getTime() - REPORT_WINDOW_MS)),
        isNotNull(telemetry.setpointReported),
      ),
    )
    .orderBy(telemetry.devEui, desc(telemetry.time));
  return rows.flatMap((r) => (r.setpoint === null ? [] : [r.setpoint]));
}
