/**
 * The periodic alert evaluation for 100 000 devices in PostgreSQL (target: < 2 s),
 * next to a trivial baseline measured in the same run: one statement that reads every device
 * once and compares its last uplink to a fixed limit — the least any evaluation must do.
 *
 * Run: `npx tsx bench/alerts.bench.ts` with PostgreSQL at BENCH_DATABASE_URL (default
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test). A throw-away database is
 * created and dropped. BENCH_DEVICES overrides the device count. Seeds 10 companies with
 * 10 000 units and devices each (all four codec models), one gateway per 100 devices, and a
 * fleet in which 1 % of devices are silent, 1 % have a low battery with 20 readings of history,
 * 1 % of rooms have not warmed for three hours and 1 % of gateways are silent. The first
 * evaluation opens those alerts (with their events); the second finds the same conditions and
 * only counts repeats. Without PostgreSQL it prints that it skipped.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { companies } from '../server/src/db/schema.ts';
import { evaluateAll } from '../server/src/modules/alerts/alert-evaluation.repository.ts';
import { createBenchDatabase } from './bench-database.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const COMPANIES = 10;
const TARGET_MS = 2_000;
const NOW = new Date('2026-11-23T12:00:00Z');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  const bench = await createBenchDatabase('alerts');
  if (!bench) return;
  const { database } = bench;
  try {
    const db = database.db;
    const companyRows = await db
      .insert(companies)
      .values(Array.from({ length: COMPANIES }, (_, i) => ({ name: `Bench ${i}` })))
      .returning({ id: companies.id });
    const companyIds = `{${companyRows.map((c) => c.id).join(',')}}`;
    const now = NOW.toISOString();
    await db.execute(sql`
      insert into units (company_id, name, setpoint, setpoint_source)
      select (${companyIds}::uuid[])[1 + i % ${COMPANIES}], 'Raum ' || i, 21, 'group_plan'
      from generate_series(1, ${DEVICES}) as i`);
    // 1 % silent for a day, 1 % with a low battery, the rest seen a minute ago.
    await db.execute(sql`
      insert into devices (id, company_id, dev_eui, model, unit_id, last_seen, battery, battery_unit)
      select eui, company_id, eui, model, id,
        ${now}::timestamptz - case when n % 100 = 0 then interval '1 day' else interval '1 minute' end,
        case when model = 'milesight-wt101' then (case when n % 100 = 1 then 12 else 80 end)
             else (case when n % 100 = 1 then 2.0 else 3.4 end) end,
        case when model = 'milesight-wt101' then '%' else 'V' end
      from (
        select u.id, u.company_id, row_number() over () as n, lpad(to_hex(row_number() over ()), 16, '0') as eui,
          (array['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'elsys-ers'])[1 + (row_number() over ()) % 4] as model
        from units u
      ) s`);
    await db.execute(sql`
      insert into telemetry (dev_eui, device_id, company_id, unit_id, time, f_cnt, f_port, battery, battery_unit)
      select d.dev_eui, d.id, d.company_id, d.unit_id, ${now}::timestamptz - make_interval(hours => k * 12), k, 1,
        d.battery + k * case d.battery_unit when '%' then 1 else 0.02 end, d.battery_unit
      from devices d cross join generate_series(0, 19) as k
      where d.battery < case d.battery_unit when '%' then 20 else 2.5 end`);
    await db.execute(sql`
      insert into alert_onsets (device_id, condition, company_id, unit_id, since, details)
      select id, 'not_warming', company_id, unit_id, ${now}::timestamptz - interval '3 hours', '{}'::jsonb
      from devices where right(id, 2) = '37'`);
    await db.execute(sql`
      insert into gateways (company_id, gateway_eui, name, last_seen, stats_interval_s)
      select (${companyIds}::uuid[])[1 + i % ${COMPANIES}], 'b8' || lpad(to_hex(i), 14, '0'), 'GW ' || i,
        ${now}::timestamptz - case when i % 100 = 0 then interval '1 hour' else interval '20 seconds' end, 30
      from generate_series(1, ${Math.max(1, DEVICES / 100)}) as i`);
    await db.execute(sql`analyze`);

    // Baseline: read every device once and compare its last uplink with a fixed limit.
    const baselineRuns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const b0 = performance.now();
      await db.execute(
        sql`select count(*) from devices where coalesce(last_seen, created_at) < ${now}::timestamptz - interval '30 minutes'`,
      );
      baselineRuns.push(performance.now() - b0);
    }
    const baselineMs = median(baselineRuns);

    const t0 = performance.now();
    const first = await evaluateAll(db, NOW);
    const firstMs = performance.now() - t0;
    const t1 = performance.now();
    const second = await evaluateAll(db, new Date(NOW.getTime() + 60_000));
    const secondMs = performance.now() - t1;
    if (!first || first.opened === 0)
      throw new Error(`the first evaluation opened nothing: ${JSON.stringify(first)}`);
    if (second?.opened !== 0)
      throw new Error(`the second evaluation opened again: ${JSON.stringify(second)}`);

    console.log(
      `alerts: periodic evaluation of ${DEVICES.toLocaleString('en')} devices in ${COMPANIES} companies on PostgreSQL`,
    );
    console.log(`  first evaluation (opens ${first.opened} alerts):   ${Math.round(firstMs)} ms`);
    console.log(`  second evaluation (same conditions, repeats): ${Math.round(secondMs)} ms`);
    console.log(`  baseline (one pass over every device):        ${baselineMs.toFixed(1)} ms`);
    console.log(
      `  ratio to baseline: ${(firstMs / baselineMs).toFixed(1)}× / ${(secondMs / baselineMs).toFixed(1)}×`,
    );
    console.log(`  target < ${TARGET_MS} ms: ${Math.max(firstMs, secondMs) < TARGET_MS ? 'met' : 'MISSED'}`);
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
