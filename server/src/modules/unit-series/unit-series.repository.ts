/**
 * Time-bucketed readings and setpoint steps of one unit, scoped by company. Uses
 * `date_bin` (PostgreSQL 14+) over the `telemetry_unit_time_idx` range scan.
 */
import { and, asc, desc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { heatingLog, telemetry } from '../../db/schema.ts';

export interface BucketRow {
  time: Date;
  roomAvg: number | null;
  roomMin: number | null;
  roomMax: number | null;
  supplyAvg: number | null;
  valveAvg: number | null;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Buckets of `bucketSeconds` from `from` (inclusive) to `to` (exclusive) that hold readings. */
export async function readingBuckets(
  db: Db,
  companyId: string,
  unitId: string,
  range: { from: Date; to: Date; bucketSeconds: number },
): Promise<BucketRow[]> {
  const bucket = sql`date_bin(${`${range.bucketSeconds} seconds`}::interval, ${telemetry.time}, ${range.from.toISOString()}::timestamptz)`;
  // By position: a parameterised expression repeated in GROUP BY gets new parameter numbers and
  // would no longer match the selected one.
  const firstColumn = sql`1`;
  const rows = await db
    .select({
      time: bucket.mapWith((v: string | Date) => new Date(v)),
      roomAvg: sql`avg(${telemetry.roomTemperature})`.mapWith(num),
      roomMin: sql`min(${telemetry.roomTemperature})`.mapWith(num),
      roomMax: sql`max(${telemetry.roomTemperature})`.mapWith(num),
      supplyAvg: sql`avg(${telemetry.supplyTemperature})`.mapWith(num),
      valveAvg: sql`avg(${telemetry.valveOpening})`.mapWith(num),
    })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.companyId, companyId),
        eq(telemetry.unitId, unitId),
        gte(telemetry.time, range.from),
        lt(telemetry.time, range.to),
      ),
    )
    .groupBy(firstColumn)
    .orderBy(firstColumn);
  return rows as BucketRow[];
}

/** The setpoint in force at `from` (the last change at or before it) and every change until `to`. */
export async function setpointSteps(db: Db, companyId: string, unitId: string, from: Date, to: Date) {
  const scope = and(eq(heatingLog.companyId, companyId), eq(heatingLog.unitId, unitId));
  const columns = { at: heatingLog.at, setpoint: heatingLog.newSetpoint };
  const [before] = await db
    .select(columns)
    .from(heatingLog)
    .where(and(scope, lte(heatingLog.at, from)))
    .orderBy(desc(heatingLog.at), desc(heatingLog.id))
    .limit(1);
  const changes = await db
    .select(columns)
    .from(heatingLog)
    .where(and(scope, gt(heatingLog.at, from), lte(heatingLog.at, to)))
    .orderBy(asc(heatingLog.at), asc(heatingLog.id));
  return { before, changes };
}
