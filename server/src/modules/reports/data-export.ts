/**
 * The export API (decision 0061; the "common, freely configurable interface" GEG §71a asks for):
 * 15-minute or daily rollups, or raw telemetry, of a company's building or unit in a time range,
 * as JSON (an array of objects) or CSV (comma, ISO 8601 UTC times, numbers with a point).
 *
 * Streamed with constant memory on both backends: rows are read in keyset batches of
 * `BATCH` along the table's primary key order and written as they come, so a year of quarter
 * hours of 100 rooms (3.5 million rows) never sits in memory.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const BATCH = 5000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

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
  /** The SELECT of one batch after `after` (the last row's key, null at the start). */
  batch(filter: DataExportFilter, after: unknown[] | null): SQL;
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
    batch: (f, after) => sql`
      select unit_id, building_id, ${iso(sql`bucket`)} as bucket, readings, room_min, room_mean, room_max, valve_mean, setpoint,
        setpoint_source, heating_minutes, window_minutes, outdoor
      from unit_rollups_15m
      where company_id = ${f.companyId} and bucket >= ${f.from.toISOString()}::timestamptz
        and bucket < ${f.to.toISOString()}::timestamptz
        ${scopeOf(f, sql`unit_id`, sql`building_id`)}
        ${after ? sql`and (unit_id, bucket) > (${after[0]}::uuid, ${after[1]}::timestamptz)` : sql``}
      order by unit_id, bucket limit ${BATCH}`,
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
    batch: (f, after) => sql`
      select unit_id, building_id, day::text as day, room_min, room_mean, room_max, valve_mean, setpoint_mean,
        heating_minutes, window_minutes, outdoor_mean, occupied_minutes, below_comfort_minutes, setback_minutes
      from unit_rollups_daily
      where company_id = ${f.companyId}
        and day >= (${f.from.toISOString()}::timestamptz at time zone (select time_zone from companies where id = ${f.companyId}))::date
        and day < (${f.to.toISOString()}::timestamptz at time zone (select time_zone from companies where id = ${f.companyId}))::date
        ${scopeOf(f, sql`unit_id`, sql`building_id`)}
        ${after ? sql`and (unit_id, day) > (${after[0]}::uuid, ${after[1]}::date)` : sql``}
      order by unit_id, day limit ${BATCH}`,
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
    batch: (f, after) => sql`
      select dev_eui, ${iso(sql`time`)} as time, f_cnt, unit_id, room_temperature, supply_temperature, setpoint_reported,
        valve_opening, battery, battery_unit, rssi, snr
      from telemetry
      where company_id = ${f.companyId} and time >= ${f.from.toISOString()}::timestamptz
        and time < ${f.to.toISOString()}::timestamptz
        ${scopeOf(f, sql`unit_id`, sql`(select building_id from units where units.id = telemetry.unit_id)`)}
        ${after ? sql`and (time, dev_eui, f_cnt) > (${after[0]}::timestamptz, ${after[1]}, ${after[2]}::int)` : sql``}
      order by time, dev_eui, f_cnt limit ${BATCH}`,
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
    const rows: Record<string, unknown>[] = rowsOf(await db.execute(spec.batch(filter, after)));
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const column of spec.columns) out[column] = row[column];
      yield out;
    }
    if (rows.length < BATCH) return;
    after = spec.key(rows.at(-1) as Record<string, unknown>);
  }
}

/** The export as a stream of `format`; the caller sets the content type. */
export function exportStream(
  db: Db,
  source: ExportSource,
  filter: DataExportFilter,
  format: 'json' | 'csv',
): Readable {
  const rows = exportRows(db, source, filter);
  if (format === 'csv') {
    const { columns } = SOURCES[source];
    async function* cells() {
      for await (const row of rows) yield columns.map((c) => row[c] ?? '');
    }
    return Readable.from(cells()).pipe(stringify({ header: true, columns }));
  }
  async function* json() {
    let first = true;
    yield '[';
    for await (const row of rows) {
      yield (first ? '' : ',') + JSON.stringify(row);
      first = false;
    }
    yield ']';
  }
  return Readable.from(json());
}
