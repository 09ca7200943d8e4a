/**
 * Reports at fleet scale on PostgreSQL (decision 0061), each figure next to a baseline measured in
 * the same run:
 * 1. Rollup maintenance against ingest, 1,000 valves: (a) at the ingest bench's load (an uplink
 *    per valve and minute for an hour) and (b) at a fleet's real cadence (one per valve and quarter
 *    hour for a day), committed through the ingest's store in batches of 500, then the rollup job
 *    run as in production, once per quarter hour of that time. The job's cost grows with rooms ×
 *    quarter hours, the ingest's with uplinks, so (b) is the worst case. Goal: the job costs
 *    ≤ 10 % of the ingest's time (throughput with rollups ≥ 0.9 × without).
 * 2. A monthly report of 1,000 rooms from 13 months of daily rollups (the report reads the month,
 *    the month before and the year before). Goal < 1 s; its ratio to a bare
 *    `select count(*)` of the month's rollup rows is printed.
 * 3. A year of 15-minute rollups of 100 rooms (≈ 3.5 million rows) streamed as CSV by the export
 *    API's code into a sink, against a bare `COPY (select …) TO STDOUT` of the same rows. Goals:
 *    ≥ 0.5 × the bare COPY's rows per second, peak RSS flat (printed before and at the peak).
 *
 * Run: `npm run bench -- reports.bench.ts`. PostgreSQL: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a throw-away database).
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../server/src/db/client.ts';
import type { DecodedUplink } from '../server/src/lorawan/ingest.ts';
import { telemetryStore } from '../server/src/lorawan/telemetry.repository.ts';
import { exportStream } from '../server/src/modules/reports/data-export.ts';
import { buildReport } from '../server/src/modules/reports/report-build.ts';
import { monthPeriod } from '../server/src/modules/reports/report-period.ts';
import { runRollups } from '../server/src/modules/reports/rollups.repository.ts';
import { createBenchDatabase } from './bench-database.ts';

const ROOMS = 1000;
const QUARTER = 15 * 60_000;
const DAY = 86_400_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function seed(db: Db, rooms: number) {
  const [company] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into companies (name) values ('Bench') returning id`),
  );
  const companyId = (company as { id: string }).id;
  const [building] = rowsOf<{ id: string }>(
    await db.execute(
      sql`insert into buildings (company_id, name, state) values (${companyId}, 'Schule', 'BY') returning id`,
    ),
  );
  const buildingId = (building as { id: string }).id;
  await db.execute(sql`
    insert into units (company_id, name, building_id)
    select ${companyId}, 'Raum ' || n, ${buildingId} from generate_series(1, ${rooms}) n`);
  await db.execute(sql`
    insert into devices (id, dev_eui, company_id, unit_id, model)
    select lpad(to_hex(row_number() over ()), 16, '0'), lpad(to_hex(row_number() over ()), 16, '0'), ${companyId}, id, 'mclimate-vicki'
    from units where company_id = ${companyId}`);
  return { companyId, buildingId };
}

/**
 * 1. `perQuarter` uplinks of each of 1,000 valves in every quarter hour of `hours` hours, committed
 * through the ingest's store in batches of 500, then the rollup job run once per quarter hour of
 * that time, as in production (each run recomputes its quarter and the half hour before).
 */
async function rollupAgainstIngest(db: Db, label: string, perQuarter: number, hours: number) {
  const { companyId } = await seed(db, ROOMS);
  const start = Date.parse('2026-11-10T00:00:00Z');
  const quarters = hours * 4;
  const units = rowsOf<{ id: string; unit_id: string }>(
    await db.execute(sql`select id, unit_id from devices where company_id = ${companyId}`),
  );
  await db.execute(sql`
    insert into heating_log (company_id, unit_id, kind, new_setpoint, at)
    select ${companyId}, unit_id, 'regular_plan', s.setpoint, ${new Date(start).toISOString()}::timestamptz + s.at
    from devices cross join (values (interval '0 hours', 17.0), (interval '6 hours', 21.0), (interval '16 hours', 17.0)) s(at, setpoint)
    where company_id = ${companyId}`);
  const store = telemetryStore(db);
  const batches: DecodedUplink[][] = [];
  let batch: DecodedUplink[] = [];
  for (let q = 0; q < quarters; q++)
    for (let k = 0; k < perQuarter; k++)
      for (const [i, d] of units.entries()) {
        const offset = (((i * 997) % 900) + (k * 900) / perQuarter) % 900;
        batch.push({
          event: {
            kind: 'uplink',
            devEui: d.id,
            fCnt: q * perQuarter + k,
            fPort: 1,
            bytes: new Uint8Array(),
            time: new Date(start + q * QUARTER + Math.floor(offset * 1000)),
            radio: {} as never,
          },
          device: { id: d.id, devEui: d.id, companyId, unitId: d.unit_id, model: 'mclimate-vicki' },
          reading: { roomTemperature: 18 + ((i + q) % 40) / 10, valveOpening: (i * q) % 100 },
        } as DecodedUplink);
        if (batch.length === 500) {
          batches.push(batch);
          batch = [];
        }
      }
  const t0 = performance.now();
  for (const b of batches) await store.commit({ uplinks: b, statuses: [], downlinks: [], gateways: [] });
  const ingestMs = performance.now() - t0;
  const uplinks = batches.length * 500;
  let rollupMs = 0;
  for (let q = 1; q <= quarters + 1; q++) {
    const t1 = performance.now();
    await runRollups(db, new Date(start + q * QUARTER + 3 * 60_000));
    rollupMs += performance.now() - t1;
  }
  const without = uplinks / (ingestMs / 1000);
  const withRollups = uplinks / ((ingestMs + rollupMs) / 1000);
  console.log(
    `1${label}. ${uplinks} uplinks of ${ROOMS} valves (${perQuarter} per valve and quarter hour, ${hours} h): ingest ${seconds(ingestMs)} s (${Math.round(without)}/s); rollup job ×${quarters + 1}: ${seconds(rollupMs)} s (${(rollupMs / (quarters + 1)).toFixed(0)} ms a run)`,
  );
  console.log(
    `    rollups cost ${((rollupMs / ingestMs) * 100).toFixed(1)} % of ingest time; throughput with rollups ${(withRollups / without).toFixed(3)} × without (goal ≥ 0.9)`,
  );
}

/** 2. The monthly report of 1,000 rooms against a count of the month's rollup rows. */
async function monthlyReport(db: Db) {
  const { companyId } = await seed(db, ROOMS);
  await db.execute(sql`
    insert into unit_rollups_daily (company_id, unit_id, building_id, day, buckets, reading_buckets, room_min,
      room_mean, room_max, valve_mean, setpoint_mean, occupied_setpoint_mean, heating_minutes, window_minutes,
      window_heating_minutes, outdoor_mean, occupied_minutes, below_comfort_minutes, category_i_minutes,
      category_ii_minutes, category_iii_minutes, setback_minutes, stuck_open_minutes)
    select u.company_id, u.id, u.building_id, d::date, 96, 90 + (hashtext(u.id::text || d::text) & 7), 17, 19.5 + (hashtext(u.id::text) & 3) * 0.3,
      21.5, 30, 19, 21, 300 + (hashtext(d::text) & 127), hashtext(u.id::text || d::text) & 15, 0,
      5 + 5 * sin(extract(doy from d) / 58.0), 540, hashtext(u.name || d::text) & 63, 300, 150, 60, 600, 0
    from units u cross join generate_series(date '2025-11-01', date '2026-11-30', interval '1 day') d
    where u.company_id = ${companyId}`);
  await db.execute(sql`analyze unit_rollups_daily`);
  const period = monthPeriod('2026-11');
  const time = async (run: () => Promise<unknown>) => {
    await run();
    const t = performance.now();
    for (let i = 0; i < 3; i++) await run();
    return (performance.now() - t) / 3;
  };
  const countMs = await time(() =>
    db.execute(
      sql`select count(*) from unit_rollups_daily where company_id = ${companyId} and day between '2026-11-01' and '2026-11-30'`,
    ),
  );
  const reportMs = await time(() =>
    buildReport(db, { companyId, timeZone: 'Europe/Berlin' }, { kind: 'company' }, 'Bench', period),
  );
  console.log(
    `2. monthly report of ${ROOMS} rooms: ${reportMs.toFixed(0)} ms (goal < 1000 ms); count(*) of the month's ${ROOMS * 30} rollup rows ${countMs.toFixed(1)} ms → ${(reportMs / countMs).toFixed(1)} ×`,
  );
}

/** 3. A year of quarter hours of 100 rooms as CSV, against a bare COPY of the same rows. */
async function streamYear(db: Db, url: string) {
  const { companyId } = await seed(db, 100);
  await db.execute(sql`
    insert into unit_rollups_15m (company_id, unit_id, building_id, bucket, readings, room_min, room_mean, room_max,
      valve_mean, setpoint, setpoint_source, heating_minutes, window_minutes, outdoor)
    select u.company_id, u.id, u.building_id, b, 1, 19.5, 20 + (extract(hour from b) / 24), 20.5, 40, 21, 'regular_plan', 7.5, 0, 4.5
    from units u cross join generate_series(timestamptz '2025-11-01', timestamptz '2026-11-01' - interval '15 minutes', interval '15 minutes') b
    where u.company_id = ${companyId}`);
  await db.execute(sql`vacuum analyze unit_rollups_15m`);
  const from = new Date('2025-11-01T00:00:00Z');
  const to = new Date(from.getTime() + 365 * DAY);
  const sink = () => {
    let bytes = 0;
    return {
      stream: new Writable({
        write(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          done();
        },
      }),
      bytes: () => bytes,
    };
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const bare = sink();
  const t0 = performance.now();
  await pipeline(
    client.query(
      copyTo(
        `copy (select * from unit_rollups_15m where company_id = '${companyId}' order by unit_id, bucket) to stdout with (format csv, header true)`,
      ),
    ),
    bare.stream,
  );
  const bareMs = performance.now() - t0;
  await client.end();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  const ours = sink();
  const t1 = performance.now();
  await pipeline(exportStream(db, '15m', { companyId, from, to }, 'csv'), ours.stream);
  const oursMs = performance.now() - t1;
  clearInterval(sampler);
  const rows = 100 * 365 * 96;
  console.log(
    `3. ${rows} quarter-hour rows as CSV: export ${seconds(oursMs)} s (${Math.round(rows / (oursMs / 1000))} rows/s, ${(ours.bytes() / 1e6).toFixed(0)} MB); bare COPY ${seconds(bareMs)} s (${(bare.bytes() / 1e6).toFixed(0)} MB) → ${(bareMs / oursMs).toFixed(2)} × its speed (goal ≥ 0.5)`,
  );
  console.log(
    `   RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB while streaming (+${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MiB)`,
  );
  // The batched path (JSON, and CSV on PGlite) over a month of the same rows, for comparison.
  const month = new Date(from.getTime() + 30 * DAY);
  const t2 = performance.now();
  const json = sink();
  await pipeline(exportStream(db, '15m', { companyId, from, to: month }, 'json'), json.stream);
  const jsonMs = performance.now() - t2;
  console.log(
    `   JSON (keyset batches) of a month, ${100 * 30 * 96} rows: ${seconds(jsonMs)} s (${Math.round((100 * 30 * 96) / (jsonMs / 1000))} rows/s)`,
  );
}

for (const [name, run] of [
  // The ingest bench's load: a minute apart, the rate at which ingest throughput is measured.
  ['rollups against saturated ingest', (db: Db) => rollupAgainstIngest(db, 'a', 15, 1)],
  // A real fleet's cadence: one uplink per valve and quarter hour, so rollups per uplink are most.
  ['rollups at fleet cadence', (db: Db) => rollupAgainstIngest(db, 'b', 1, 24)],
  ['monthly report', (db: Db) => monthlyReport(db)],
  ['year export', (db: Db, url: string) => streamYear(db, url)],
] as const) {
  const bench = await createBenchDatabase(`reports bench (${name})`);
  if (!bench) break;
  try {
    await run(bench.database.db, bench.url);
  } finally {
    await bench.drop();
  }
}
