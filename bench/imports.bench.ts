/**
 * Bulk import of 10,000 devices on PostgreSQL (decision 0063), next to a baseline measured in the
 * same run: a plain multi-row `insert` of the same device rows (AppKeys encrypted beforehand), in
 * statements of 1,000 rows in one transaction — the least any import must do.
 *
 * The import runs as the service does it: a semicolon CSV (DevEUI, JoinEUI, AppKey, model, unit
 * of 40 schools' 3,000 rooms) is parsed, mapped, checked row by row against the company's data
 * (dry run), then checked again under the company's lock and written with AppKeys encrypted,
 * the mapping remembered and an audit entry added (commit). Goal: the commit's rows per second
 * ≥ 0.5 × the baseline's. Peak RSS while each runs is printed against the RSS before.
 *
 * Run: `npm run bench -- imports.bench.ts`. PostgreSQL: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a throw-away database).
 * BENCH_IMPORT_ROWS overrides the 10,000 rows.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../server/src/db/client.ts';
import { companies, devices, memberships, users } from '../server/src/db/schema.ts';
import { licencePolicy } from '../server/src/modules/billing/licences.ts';
import { createAppKeyCipher } from '../server/src/modules/devices/app-key-cipher.ts';
import { ImportsService } from '../server/src/modules/imports/imports.service.ts';
import { createBenchDatabase } from './bench-database.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const SCHOOLS = 40;
const ROOMS = 3000;
const CHUNK = 1000;
const MODELS = ['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'elsys-ers'];
const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Runs `work` while sampling RSS every 10 ms. @returns its time and the peak RSS over the start. */
async function measured<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, ms, before, peak };
}

async function company(db: Db, name: string, userId: string) {
  const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
  const companyId = (row as { id: string }).id;
  await db.insert(users).values({ id: userId, name: userId }).onConflictDoNothing();
  await db.insert(memberships).values({ companyId, userId, role: 'admin' });
  await db.execute(sql`
    insert into buildings (company_id, name, state)
    select ${companyId}, 'Schule ' || n, 'BY' from generate_series(1, ${SCHOOLS}) n`);
  await db.execute(sql`
    insert into units (company_id, name, building_id)
    select ${companyId}, 'Raum ' || n, (select id from buildings where company_id = ${companyId} and name = 'Schule ' || (1 + n % ${SCHOOLS}))
    from generate_series(1, ${ROOMS}) n`);
  return companyId;
}

async function main() {
  const bench = await createBenchDatabase('imports bench');
  if (!bench) return;
  const db = bench.database.db;
  try {
    const cipher = createAppKeyCipher(randomBytes(32));
    const service = new ImportsService({
      db,
      now: () => new Date(),
      cipher: async () => cipher,
      licences: licencePolicy('none'),
      wake: () => {},
    });
    const importer = await company(db, 'Schulamt', 'bench-import');
    const baseline = await company(db, 'Vergleich', 'bench-baseline');
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      devEui: `70b3d57e${hex(i, 8)}`,
      joinEui: '70b3d57ed0000000',
      appKey: randomBytes(16).toString('hex').toUpperCase(),
      model: MODELS[i % MODELS.length] as string,
      unit: `Raum ${1 + (i % ROOMS)}`,
    }));
    const csv = Buffer.from(
      `\uFEFFdev_eui;join_eui;app_key;model;Raum\r\n${rows
        .map((r) => `${r.devEui.toUpperCase()};${r.joinEui};${r.appKey};${r.model};${r.unit}`)
        .join('\r\n')}\r\n`,
    );

    // The baseline: the same rows, keys encrypted and units resolved beforehand, as plain inserts.
    const unitIds = new Map(
      (await db.execute(sql`select id, name from units where company_id = ${baseline}`)).rows.map((r) => [
        (r as { name: string }).name,
        (r as { id: string }).id,
      ]),
    );
    const plain = rows.map((r) => {
      const id = `80b3d57e${r.devEui.slice(8)}`;
      return {
        id,
        devEui: id,
        companyId: baseline,
        joinEui: r.joinEui,
        appKeyEncrypted: cipher.encrypt(r.appKey.toLowerCase(), id),
        appKeyLast4: r.appKey.slice(-4).toLowerCase(),
        model: r.model,
        unitId: unitIds.get(r.unit) ?? null,
        createdBy: 'bench-baseline',
      };
    });
    // Warm-up, so neither side pays for the first statement's planning and a cold table alone.
    await db.insert(devices).values(plain.slice(0, 100));
    await db.execute(sql`delete from devices where company_id = ${baseline}`);
    const bare = await measured(() =>
      db.transaction(async (tx) => {
        for (let i = 0; i < plain.length; i += CHUNK)
          await tx.insert(devices).values(plain.slice(i, i + CHUNK));
      }),
    );

    const dry = await measured(() => service.dryRun('bench-import', importer, 'devices', csv, {}));
    if (dry.result.problemCount > 0)
      throw new Error(`dry run found problems: ${JSON.stringify(dry.result.problems[0])}`);
    let steps = 0;
    const commit = await measured(async () => {
      const prepared = await service.prepareCommit('bench-import', importer, 'devices', csv, {});
      return prepared.run(
        () => {},
        () => steps++,
      );
    });
    if (commit.result.created !== ROWS) throw new Error(`committed ${commit.result.created} of ${ROWS}`);

    const perSecond = (ms: number) => Math.round(ROWS / (ms / 1000));
    console.log(
      `baseline: plain multi-row insert of ${ROWS} device rows (${CHUNK} a statement, one transaction): ${bare.ms.toFixed(0)} ms → ${perSecond(bare.ms)} rows/s`,
    );
    console.log(
      `dry run: ${ROWS} rows (${(csv.length / 1e6).toFixed(2)} MB CSV) parsed, mapped and checked in ${dry.ms.toFixed(0)} ms → ${perSecond(dry.ms)} rows/s (${(perSecond(dry.ms) / perSecond(bare.ms)).toFixed(2)} × the baseline); RSS ${mib(dry.before)} before, peak ${mib(dry.peak)} (+${mib(dry.peak - dry.before)})`,
    );
    console.log(
      `commit: ${ROWS} rows checked, checked again under the lock, AppKeys encrypted, written in ${steps} chunks with the mapping and an audit entry in ${commit.ms.toFixed(0)} ms → ${perSecond(commit.ms)} rows/s = ${(perSecond(commit.ms) / perSecond(bare.ms)).toFixed(2)} × the baseline (goal ≥ 0.5); RSS ${mib(commit.before)} before, peak ${mib(commit.peak)} (+${mib(commit.peak - commit.before)})`,
    );
  } finally {
    await bench.drop();
  }
}

await main();
