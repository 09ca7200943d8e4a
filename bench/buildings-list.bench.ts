/**
 * The buildings list (`GET /api/companies/{id}/buildings`, page size 200) with tomorrow's heating
 * start of each building (decision 0056), on PostgreSQL: a company of 5,000 rooms in 200
 * buildings (25 rooms each) against, as the baseline of the same run, a company of 8 rooms in
 * one building. Every room follows its group's weekday plan (21 °C from 07:00, 17 °C from 16:00)
 * and the big company runs optimum start `on`, so each building has a start to compute.
 * Figures, per request (median of BENCH_LIST_ROUNDS, default 5, interleaved rounds of
 * BENCH_LIST_REQUESTS, default 10, sequential requests each):
 * 1. the 8-room company's list (the baseline);
 * 2. the 5,000-room company's list, and its ratio to (1);
 * 3. the same list right after one building's rooms were marked due (what a plan edit, an event
 *    or a closure in that building does), and its ratio to (1);
 * 4. computing the 200 buildings' starts from their rooms' inputs (`heatingStartsTomorrow`, what
 *    every list request did before the starts were kept, decision 0069), and its ratio to (1).
 * Goal: (2) ≤ 0.1 × (4) — a list request computes nothing for buildings whose inputs did not
 * change. Timings never fail the test suite.
 *
 * The service is called in-process (no HTTP, no membership cache in front): what it costs is
 * the figure, not the framework's. Run: `npm run bench -- buildings-list.bench.ts`. PostgreSQL at
 * BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a
 * throw-away database is created and dropped; without PostgreSQL it says it skipped).
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/src/db/client.ts';
import { markUnitsDue } from '../server/src/heating/apply.repository.ts';
import { heatingStartsTomorrow } from '../server/src/heating/starts.ts';
import { BuildingsService } from '../server/src/modules/buildings/buildings.service.ts';
import { createBenchDatabase } from './bench-database.ts';

const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 10);
const BIG = { buildings: 200, rooms: 25 };
const SMALL = { buildings: 1, rooms: 8 };
const USER = 'bench-user';
/**
 * A Tuesday forenoon: the plan heats on weekdays, so "tomorrow" has a start. The wall clock failed
 * the bench on Fridays and Saturdays ("a building without a heating start").
 */
const NOW = new Date('2026-11-24T09:00:00Z');
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A company of `buildings` × `rooms` units in one group with a weekday plan; `USER` reads it. */
async function seedCompany(db: Db, name: string, size: typeof BIG, optimum: 'off' | 'on') {
  const [company] = rowsOf<{ id: string }>(
    await db.execute(
      sql`insert into companies (name, optimum_start) values (${name}, ${optimum}) returning id`,
    ),
  );
  const companyId = (company as { id: string }).id;
  await db.execute(
    sql`insert into memberships (company_id, user_id, role) values (${companyId}, ${USER}, 'admin')`,
  );
  const [group] = rowsOf<{ id: string }>(
    await db.execute(
      sql`insert into groups (company_id, name) values (${companyId}, 'Unterricht') returning id`,
    ),
  );
  const groupId = (group as { id: string }).id;
  await db.execute(sql`
    insert into heating_plans (company_id, group_id, name, kind, valid_from, valid_to, switch_points)
    select ${companyId}, ${groupId}, 'Schuljahr', 'seasonal', '01-01', '12-31',
      jsonb_agg(p order by d, h)
    from generate_series(1, 5) d, (values (7, 21), (16, 17)) s(h, t),
      lateral (select jsonb_build_object('day', d, 'hour', h, 'minute', 0, 'temperature', t,
        'ignoreWallControl', false) as p) x`);
  await db.execute(sql`
    insert into buildings (company_id, name, state)
    select ${companyId}, 'Schule ' || b, 'BE' from generate_series(1, ${size.buildings}) b`);
  await db.execute(sql`
    insert into units (company_id, group_id, building_id, name, setpoint, setpoint_source,
                       setpoint_since, next_change_at, room_temperature)
    select ${companyId}, ${groupId}, b.id, b.name || ' Raum ' || r, 17, 'group_plan',
      now() - interval '1 hour', now() + interval '1 day', 17 + (r % 30) / 10.0
    from buildings b, generate_series(1, ${size.rooms}) r where b.company_id = ${companyId}`);
  const buildings = rowsOf<{ id: string }>(
    await db.execute(sql`select id from buildings where company_id = ${companyId} order by name`),
  );
  return { companyId, buildingIds: buildings.map((b) => b.id) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

async function main() {
  const bench = await createBenchDatabase('buildings-list');
  if (!bench) return;
  const { db } = bench.database;
  try {
    await db.execute(
      sql`insert into users (id, name, email) values (${USER}, 'Bench', 'bench@example.test')`,
    );
    const small = await seedCompany(db, 'Kita', SMALL, 'off');
    const big = await seedCompany(db, 'Schulträger', BIG, 'on');
    await db.execute(sql`analyze`);
    const service = new BuildingsService({ db, now: () => NOW, wake: () => {} });
    const query = { page: 1, size: 200 };
    const list = async (companyId: string) => {
      const started = performance.now();
      const { results } = await service.list(USER, companyId, query);
      const ms = performance.now() - started;
      if (results.length === 0 || results.some((b) => b.unitCount > 0 && !b.heatingStartTomorrow))
        throw new Error('a building without a heating start: the seed is wrong');
      return ms;
    };
    // Warm-up: connections, prepared plans, and whatever a first request leaves behind.
    for (let i = 0; i < 3; i++) await Promise.all([list(small.companyId), list(big.companyId)]);
    const smallMs: number[] = [];
    const bigMs: number[] = [];
    const changedMs: number[] = [];
    const computeMs: number[] = [];
    const compute = async () => {
      const started = performance.now();
      await heatingStartsTomorrow(db, big.buildingIds, 'Europe/Berlin', NOW);
      return performance.now() - started;
    };
    const loadBefore = loadavg();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < REQUESTS; i++) smallMs.push(await list(small.companyId));
      for (let i = 0; i < REQUESTS; i++) bigMs.push(await list(big.companyId));
      for (let i = 0; i < REQUESTS; i++) {
        const building = big.buildingIds[(round * REQUESTS + i) % big.buildingIds.length] as string;
        await markUnitsDue(db, { companyId: big.companyId, buildingId: building }, NOW);
        changedMs.push(await list(big.companyId));
      }
      // Fewer: each is the whole company's computation.
      for (let i = 0; i < Math.ceil(REQUESTS / 5); i++) computeMs.push(await compute());
    }
    const loadAfter = loadavg();
    const base = median(smallMs);
    const fmt = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;
    console.log(
      `buildings-list: page of 200, ${ROUNDS} interleaved rounds of ${REQUESTS} sequential requests ` +
        '(medians), PostgreSQL, service in-process',
    );
    console.log(`  ${SMALL.rooms} rooms in ${SMALL.buildings} building (baseline)         ${fmt(base)}`);
    const all = median(computeMs);
    console.log(
      `  ${BIG.buildings * BIG.rooms} rooms in ${BIG.buildings} buildings                  ${fmt(median(bigMs))}  ` +
        `${(median(bigMs) / base).toFixed(1)} × baseline; ≤ 0.1 × computing all: ` +
        `${median(bigMs) / all <= 0.1 ? 'PASS' : 'MISS'} (${(median(bigMs) / all).toFixed(3)})`,
    );
    console.log(
      `  the same, one building's rooms marked due    ${fmt(median(changedMs))}  ` +
        `${(median(changedMs) / base).toFixed(1)} × baseline`,
    );
    console.log(
      `  computing all ${BIG.buildings} buildings' starts          ${fmt(all)}  ` +
        `${(all / base).toFixed(1)} × baseline`,
    );
    const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
    console.log(
      `  load average (1/5/15 min) before ${avg(loadBefore)}, after ${avg(loadAfter)} on ${cpus().length} cores`,
    );
  } finally {
    await bench.drop();
  }
}

await main();
