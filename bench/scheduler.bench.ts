/**
 * Scheduler tick for 100 000 units in PostgreSQL (issue 5 performance target: < 5 s), next to
 * a trivial baseline measured in the same run: one statement that reads every due unit and one
 * that updates them all — the least any tick must do.
 *
 * Run: `npx tsx bench/scheduler.bench.ts` with PostgreSQL at BENCH_DATABASE_URL (default
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test). A throw-away database is
 * created and dropped. BENCH_UNITS overrides the unit count. Seeds one company, 100 groups with
 * a week plan each (2 switch points a day), 100 000 units with one device each, all due at the
 * tick instant, so the tick resolves, logs, queues and sends 100 000 changes. BENCH_BATCH sets
 * the units per transaction (default 5000), BENCH_CONCURRENCY the transactions at once (default 2),
 * both the scheduler's defaults. Without PostgreSQL it prints
 * that it skipped.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { companies, groups, heatingPlans } from '../server/src/db/schema.ts';
import { databaseDeviceDirectory } from '../server/src/jobs/device-directory.ts';
import { HeatingScheduler } from '../server/src/jobs/heating-scheduler.ts';
import { createBenchDatabase } from './bench-database.ts';

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const GROUPS = 100;
const BATCH = Number(process.env.BENCH_BATCH ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const TARGET_MS = 5_000;
/** Issue 16: the tick at most this many times the lock-and-update baseline of the same run. */
const TARGET_RATIO = 8;
/** Monday 23 Nov 2026 06:00 Europe/Berlin: a switch point for every group. */
const TICK_AT = new Date('2026-11-23T05:00:00Z');
async function main() {
  const bench = await createBenchDatabase('scheduler');
  if (!bench) return;
  const { database } = bench;
  try {
    const db = database.db;
    const [company] = await db.insert(companies).values({ name: 'Bench' }).returning({ id: companies.id });
    if (!company) throw new Error('no company');
    const groupRows = await db
      .insert(groups)
      .values(Array.from({ length: GROUPS }, (_, i) => ({ companyId: company.id, name: `G${i}` })))
      .returning({ id: groups.id });
    const switchPoints = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
      { day, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false },
      { day, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
    ]);
    await db.insert(heatingPlans).values(
      groupRows.map((g) => ({
        companyId: company.id,
        groupId: g.id,
        kind: 'seasonal' as const,
        validFrom: '10-01',
        validTo: '04-30',
        switchPoints,
      })),
    );
    const groupIds = groupRows.map((g) => g.id);
    await db.execute(sql`
      insert into units (company_id, name, group_id, setpoint, setpoint_source, next_change_at)
      select ${company.id}::uuid, 'Raum ' || i, (${`{${groupIds.join(',')}}`}::uuid[])[1 + i % ${GROUPS}], 17, 'group_plan', ${TICK_AT.toISOString()}::timestamptz
      from generate_series(1, ${UNITS}) as i`);
    await db.execute(sql`
      insert into devices (id, company_id, dev_eui, model, unit_id)
      select lpad(to_hex(row_number() over ()), 16, '0'), ${company.id}::uuid, lpad(to_hex(row_number() over ()), 16, '0'), 'bench', id
      from units`);
    await db.execute(sql`analyze`);

    // Baseline: the least a tick must do — find every due unit and write every one of them.
    const b0 = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`select id from units where next_change_at <= ${TICK_AT.toISOString()}::timestamptz for update`,
      );
      await tx.execute(
        sql`update units set setpoint = setpoint where next_change_at <= ${TICK_AT.toISOString()}::timestamptz`,
      );
    });
    const baselineMs = performance.now() - b0;

    let commands = 0;
    const scheduler = new HeatingScheduler({
      db,
      sink: {
        send: async (batch) => {
          commands += batch.length;
        },
      },
      devices: databaseDeviceDirectory(db),
      logger: { error: (obj, msg) => console.error(msg, obj) },
      now: () => TICK_AT,
      batchSize: BATCH,
      concurrency: CONCURRENCY,
    });
    const t0 = performance.now();
    const result = await scheduler.tick();
    const tickMs = performance.now() - t0;
    if (result.changes !== UNITS || commands !== UNITS) {
      throw new Error(`expected ${UNITS} changes and commands, got ${result.changes} / ${commands}`);
    }
    const q0 = performance.now();
    const quiet = await scheduler.tick();
    const quietMs = performance.now() - q0;

    const perUnitUs = ((tickMs * 1000) / UNITS).toFixed(0);
    console.log(
      `scheduler: tick with ${UNITS.toLocaleString('en')} due units on PostgreSQL (batches of ${BATCH}, ${CONCURRENCY} at a time)`,
    );
    console.log(`  tick (resolve, log, update, send): ${Math.round(tickMs)} ms  (${perUnitUs} µs/unit)`);
    console.log(`  baseline (lock + update every due unit):  ${Math.round(baselineMs)} ms`);
    const ratio = tickMs / baselineMs;
    console.log(
      `  ratio to baseline: ${ratio.toFixed(1)}× (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'})`,
    );
    console.log(`  quiet tick (nothing due): ${Math.round(quietMs)} ms (${quiet.evaluated} evaluated)`);
    console.log(`  target < ${TARGET_MS} ms: ${tickMs < TARGET_MS ? 'met' : 'MISSED'}`);
    console.log(
      `  load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
  } finally {
    await bench.drop();
  }
}

await main();
