/**
 * What the export API reads (decision 0061): the rows of `unit_rollups_15m`, `unit_rollups_daily`
 * or `telemetry` of a company's building or unit in a time range, as plain objects with fixed
 * columns (instants as ISO 8601 UTC text, temperatures °C, valve %, minutes).
 *
 * Read with constant memory on both backends: keyset batches of `BATCH` rows along the table's
 * primary key order, yielded as they come, so a year of quarter hours of 100 rooms (3.5 million
 * rows) never sits in memory; CSV on PostgreSQL is the database's own COPY stream instead.
 */
import { PassThrough, type Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type Db, rowsOf } from '../../db/client.ts';

const BATCH = 5000;

export type ExportSource = '15m' | 'daily' | 'telemetry';

export interface DataExportFilter {
  companyId: string;
  from: Date;
  to: Date;
  buildingId?: string | undefined;
  unitId?: string | undefined;
}

interface SourceSpec {
  columns: string[];
  /** The rows' SELECT with its WHERE, without order. */
  select(filter: DataExportFilter): SQL;
  /** The WHERE condition of the rows after the row with `key`. */
  after(key: unknown[]): SQL;
  /** The key order (the table's primary key). */
  order: SQL;
  key(row: Record<string, unknown>): unknown[];
}

/** An instant as ISO 8601 UTC text on both drivers (PGlite hands raw results back untyped). */
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const scopeOf = (f: DataExportFilter, unitColumn: SQL, buildingColumn: SQL) =>
  sql`${f.unitId ? sql`and ${unitColumn} = ${f.unitId}` : sql``} ${f.buildingId ? sql`and ${buildingColumn} = ${f.buildingId}` : sql``}`;

const SOURCES: Record<ExportSource, SourceSpec> = {
  '15m': {
    columns: [
      'unit_id',
      'building_id',
      'bucket',
      'readings',
      'room_min',
      'room_mean',
      'room_max',
      'valve_mean',
      'setpoint',
      'setpoint_source',
      'heating_minutes',
      'window_minutes',
      'outdoor',
    ],
    select: (f) => sql`
      select unit_id, building_id, ${iso(sql`bucket`)} as bucket, readings, room_min, room_mean, room_max, valve_mean, setpoint,
        setpoint_source, heating_minutes, window_minutes, outdoor
      from unit_rollups_15m
      where company_id = ${f.companyId} and bucket >= ${f.from.toISOString()}::timestamptz
        and bucket < ${f.to.toISOString()}::timestamptz
        ${scopeOf(f, sql`unit_id`, sql`building_id`)}`,
    after: (key) => sql`and (unit_id, bucket) > (${key[0]}::uuid, ${key[1]}::timestamptz)`,
    order: sql`unit_id, bucket`,
    key: (r) => [r.unit_id, r.bucket],
  },
  daily: {
    columns: [
      'unit_id',
      'building_id',
      'day',
      'room_min',
      'room_mean',
      'room_max',
      'valve_mean',
      'setpoint_mean',
      'heating_minutes',
      'window_minutes',
      'outdoor_mean',
      'occupied_minutes',
      'below_comfort_minutes',
      'setback_minutes',
    ],
    select: (f) => sql`
      select unit_id, building_id, day::text as day, room_min, room_mean, room_max, valve_mean, setpoint_mean,
        heating_minutes, window_minutes, outdoor_mean, occupied_minutes, below_comfort_minutes, setback_minutes
      from unit_rollups_daily
      where company_id = ${f.companyId}
        and day >= (${f.from.toISOString()}::timestamptz at time zone (select time_zone from companies where id = ${f.companyId}))::date
        and day < (${f.to.toISOString()}::timestamptz at time zone (select time_zone from companies where id = ${f.companyId}))::date
        ${scopeOf(f, sql`unit_id`, sql`building_id`)}`,
    after: (key) => sql`and (unit_id, day) > (${key[0]}::uuid, ${key[1]}::date)`,
    order: sql`unit_id, day`,
    key: (r) => [r.unit_id, r.day],
  },
  telemetry: {
    columns: [
      'dev_eui',
      'time',
      'f_cnt',
      'unit_id',
      'room_temperature',
      'supply_temperature',
      'setpoint_reported',
      'valve_opening',
      'battery',
      'battery_unit',
      'rssi',
      'snr',
    ],
    select: (f) => sql`
      select dev_eui, ${iso(sql`time`)} as time, f_cnt, unit_id, room_temperature, supply_temperature, setpoint_reported,
        valve_opening, battery, battery_unit, rssi, snr
      from telemetry
      where company_id = ${f.companyId} and time >= ${f.from.toISOString()}::timestamptz
        and time < ${f.to.toISOString()}::timestamptz
        ${scopeOf(f, sql`unit_id`, sql`(select building_id from units where units.id = telemetry.unit_id)`)}`,
    after: (key) => sql`and (time, dev_eui, f_cnt) > (${key[0]}::timestamptz, ${key[1]}, ${key[2]}::int)`,
    order: sql`time, dev_eui, f_cnt`,
    key: (r) => [r.time, r.dev_eui, r.f_cnt],
  },
};

/** The rows of `source` matching `filter`, batch by batch, as plain objects (times ISO strings). */
export async function* exportRows(
  db: Db,
  source: ExportSource,
  filter: DataExportFilter,
): AsyncGenerator<Record<string, unknown>> {
  const spec = SOURCES[source];
  for (let after: unknown[] | null = null; ; ) {
    const batch = sql`${spec.select(filter)} ${after ? spec.after(after) : sql``} order by ${spec.order} limit ${BATCH}`;
    const rows: Record<string, unknown>[] = rowsOf(await db.execute(batch));
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const column of spec.columns) out[column] = row[column];
      yield out;
    }
    if (rows.length < BATCH) return;
    after = spec.key(rows.at(-1) as Record<string, unknown>);
  }
}

/** The columns of `source`, in the order the export writes them. */
export const exportColumns = (source: ExportSource): string[] => SOURCES[source].columns;

/**
 * The export as CSV straight from PostgreSQL's `COPY … TO STDOUT` (same columns and values as the
 * batched path, at the database's speed). @returns null on PGlite, which has no COPY stream.
 */
export function exportCsvCopy(db: Db, source: ExportSource, filter: DataExportFilter): Readable | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? copyStream(db, client, source, filter) : null;
}

/**
 * `COPY (select …) TO STDOUT` on a connection of `pool`, released when the stream ends or fails.
 * COPY takes no bind parameters, so the query's values (validated ids and instants) are inlined
 * as escaped literals.
 */
function copyStream(db: Db, pool: pg.Pool, source: ExportSource, filter: DataExportFilter): Readable {
  const spec = SOURCES[source];
  const query = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(
    sql`${spec.select(filter)} order by ${spec.order}`,
  );
  const out = new PassThrough();
  void (async () => {
    const connection = await pool.connect();
    const text = query.sql.replace(/\$(\d+)/g, (_, n: string) =>
      connection.escapeLiteral(String(query.params[Number(n) - 1])),
    );
    const copy = connection.query(copyTo(`copy (${text}) to stdout with (format csv, header true)`));
    const release = (err?: Error) => {
      connection.release(err);
      if (err) out.destroy(err);
    };
    copy.on('error', release);
    copy.on('end', () => release());
    copy.pipe(out);
  })().catch((err: Error) => out.destroy(err));
  return out;
}
