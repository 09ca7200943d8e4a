/**
 * HTTP throughput and latency: autocannon with 10 connections against, side by side
 * in one run, a hello-world Fastify (the ceiling of the framework here), `GET /api/health` (no
 * login, one database ping), an authenticated trivial route (`GET /api/licenses/current`: bearer
 * verification and user lookup, no company) and the units page
 * (`GET /api/companies/{id}/units?page=1&size=10`) of a company with 200 units, on PostgreSQL.
 * Targets: the units page at ≥ 0.35 × the health route's requests per second of the same run,
 * and p99 ≤ 25 ms when 500 requests per second are offered (autocannon `overallRate`).
 *
 * Run: `npm run bench -- http.bench.ts`. PostgreSQL at BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a throw-away database is
 * created and dropped; without PostgreSQL it says it skipped). The server runs in a child process
 * (`http-server.ts`), the load generator here. The four routes are measured in BENCH_HTTP_ROUNDS
 * (default 3) interleaved rounds of BENCH_HTTP_SECONDS (default 4) each, after 2 s of warm-up
 * each, and the medians reported — other work on a shared machine comes and goes, and a ratio
 * taken within one round sees the same conditions on both sides. Besides the measured company
 * the database holds 10 others of the same size, so the queries select from tables that are not
 * all one company's.
 * BENCH_HTTP_PROFILE=<folder> writes a V8 CPU profile of the server process there (open it in
 * Chrome DevTools) — how the units page's time was found (docs/decisions/0035);
 * BENCH_HTTP_ONLY=units measures the units page alone (for such a profile).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import type { Database } from '../server/src/db/client.ts';
import { createBenchDatabase } from './bench-database.ts';
import type { HttpServerReady } from './http-server.ts';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const UNITS = 200;
const OTHER_COMPANIES = 10;
const CONNECTIONS = 10;
const OFFERED_RATE = 500;

/**
 * Companies of UNITS units each, in a group with a plan, one valve per unit and three downlinks
 * per valve (the newest still queued on every fifth); `bench-user` is admin of the first.
 * @returns the first company's id.
 */
async function seed(db: Database['db']) {
  await db.execute(
    sql`insert into users (id, name, email) values ('bench-user', 'Bench', 'bench@example.test')`,
  );
  await db.execute(sql`
    insert into companies (name) select 'Hausverwaltung ' || i from generate_series(1, ${OTHER_COMPANIES + 1}) i`);
  const [first] = (
    (await db.execute(sql`select id from companies order by name limit 1`)) as unknown as {
      rows: { id: string }[];
    }
  ).rows;
  const companyId = first?.id as string;
  await db.execute(
    sql`insert into memberships (company_id, user_id, role) values (${companyId}, 'bench-user', 'admin')`,
  );
  await db.execute(sql`insert into groups (company_id, name) select id, 'Schule' from companies`);
  await db.execute(sql`
    insert into heating_plans (company_id, group_id, name, kind, valid_from, valid_to, switch_points)
    select company_id, id, 'Winter', 'seasonal', '10-01', '04-30',
      '[{"day":1,"hour":6,"minute":0,"temperature":21,"ignoreWallControl":false},
        {"day":1,"hour":22,"minute":0,"temperature":17,"ignoreWallControl":false}]'::jsonb
    from groups`);
  await db.execute(sql`
    insert into units (company_id, group_id, name, setpoint, setpoint_source, setpoint_since,
                       next_change_at, room_temperature, valve_opening)
    select g.company_id, g.id, 'Raum ' || i, 21, 'group_plan', now() - interval '1 hour',
           now() + interval '1 day', 20 + (i % 30) / 10.0, i % 100
    from groups g, generate_series(1, ${UNITS}) i`);
  await db.execute(sql`
    insert into devices (id, company_id, dev_eui, model, unit_id)
    select lpad(to_hex(n), 16, '0'), company_id, lpad(to_hex(n), 16, '0'), 'mclimate-vicki', id
    from (select row_number() over () as n, id, company_id from units) u`);
  await db.execute(sql`
    insert into downlinks (company_id, unit_id, device_id, dev_eui, setpoint, f_port, payload, state,
                           reason, applied_at, published_at, created_at)
    select d.company_id, d.unit_id, d.id, d.dev_eui, 17 + k, 1, '51',
           case when k = 3 and n % 5 = 0 then 'queued' else 'acknowledged' end,
           'group_plan', now() - (4 - k) * interval '1 hour', now() - (4 - k) * interval '1 hour',
           now() - (4 - k) * interval '1 hour'
    from (select row_number() over () as n, * from devices) d, generate_series(1, 3) k`);
  await db.execute(sql`analyze`);
  return companyId;
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
}

async function measure(target: Target, seconds: number, overallRate?: number): Promise<Result> {
  const r = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
    ...(overallRate ? { overallRate } : {}),
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

/** ROUNDS rounds over all targets (after one warm-up each); per target the median of each figure. */
async function interleaved(targets: Target[]): Promise<Result[][]> {
  for (const target of targets) await measure(target, 2);
  const rounds: Result[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const results: Result[] = [];
    for (const target of targets) results.push(await measure(target, SECONDS));
    rounds.push(results);
  }
  return rounds;
}

async function main() {
  const bench = await createBenchDatabase('http');
  if (!bench) return;
  const { database } = bench;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-bench-http-'));
  const profile = process.env.BENCH_HTTP_PROFILE;
  const server = fork(new URL('./http-server.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    env: { ...process.env, BENCH_HTTP_DATABASE_URL: bench.url, BENCH_HTTP_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const companyId = await seed(database.db);
    const [ready] = (await once(server, 'message')) as [HttpServerReady];
    const app = `http://127.0.0.1:${ready.app}`;
    const auth = { authorization: `Bearer ${ready.token}` };
    const loadBefore = loadavg();

    const units: Target = {
      label: 'GET …/units?page=1&size=10 (bearer)',
      url: `${app}/api/companies/${companyId}/units?page=1&size=10`,
      headers: auth,
    };
    if (process.env.BENCH_HTTP_ONLY === 'units') {
      const r = await measure(units, SECONDS * ROUNDS);
      console.log(`http: units page only: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
      return;
    }
    const targets: Target[] = [
      { label: 'hello-world Fastify', url: `http://127.0.0.1:${ready.hello}/`, headers: {} },
      { label: 'GET /api/health', url: `${app}/api/health`, headers: {} },
      { label: 'GET /api/licenses/current (bearer)', url: `${app}/api/licenses/current`, headers: auth },
      units,
    ];
    const rounds = await interleaved(targets);
    await measure(units, 2, OFFERED_RATE);
    const fixed = await measure(units, SECONDS * ROUNDS, OFFERED_RATE);
    const loadAfter = loadavg();

    const fmt = (n: number) => Math.round(n).toLocaleString('en');
    console.log(
      `http: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per route (medians), PostgreSQL; ` +
        `the company has ${UNITS} units (the database ${fmt(UNITS * (OTHER_COMPANIES + 1))}); server in its own process`,
    );
    const ratio = (index: number) => median(rounds.map((r) => (r[index]?.rps ?? 0) / (r[1]?.rps ?? 1)));
    targets.forEach((target, index) => {
      const of = (pick: (r: Result) => number) => median(rounds.map((r) => pick(r[index] as Result)));
      const failures = rounds.reduce((sum, r) => sum + (r[index]?.failures ?? 0), 0);
      console.log(
        `  ${target.label.padEnd(38)} ${fmt(of((r) => r.rps)).padStart(7)} req/s  p50 ${String(of((r) => r.p50)).padStart(3)} ms  ` +
          `p99 ${String(of((r) => r.p99)).padStart(3)} ms  ${ratio(index).toFixed(2)} × health` +
          (failures ? `  ${failures} FAILED` : ''),
      );
    });
    const unitsRatio = ratio(3);
    console.log(
      `  units page ≥ 0.35 × health: ${unitsRatio.toFixed(2)} ${unitsRatio >= 0.35 ? 'PASS' : 'MISS'} ` +
        `(per round: ${rounds.map((r) => ((r[3]?.rps ?? 0) / (r[1]?.rps ?? 1)).toFixed(2)).join(', ')})`,
    );
    console.log(
      `  units page at ${OFFERED_RATE} req/s offered: ${fmt(fixed.rps)} req/s served, p50 ${fixed.p50} ms, ` +
        `p99 ${fixed.p99} ms; p99 ≤ 25 ms: ${fixed.p99 <= 25 && fixed.failures === 0 ? 'PASS' : 'MISS'}` +
        (fixed.failures ? ` (${fixed.failures} failed)` : ''),
    );
    const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
    console.log(
      `  load average (1/5/15 min) before ${avg(loadBefore)}, after ${avg(loadAfter)} on ${cpus().length} cores` +
        ' — load generator, server and PostgreSQL share them, and so do other processes',
    );
  } finally {
    server.send('close');
    await once(server, 'exit');
    await bench.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
