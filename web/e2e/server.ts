/**
 * Starts the real server (built web app; its database in `dataDir`) on a loopback port for
 * browser journeys. The global setup starts the shared one; a journey that must restart the
 * server with other configuration (e.g. a bumped agreement version) starts its own.
 *
 * Where TEST_DATABASE_URL names a PostgreSQL server, a journey server keeps its data there, in a
 * database of its own copied from the migrated template, as production does; elsewhere in the
 * embedded PGlite. The journeys are about the screens, not the driver, and PGlite runs PostgreSQL
 * in WebAssembly inside the server process: a third of the journey servers' CPU (decision 0065).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/client.ts';
import { createFromMigratedTemplate } from '../../server/test/postgres-template.ts';

/**
 * Where the global setup left a migrated, closed PGlite data directory (`preparePgliteTemplate`);
 * the variable reaches the journeys' workers, which start from the global setup's environment.
 */
const TEMPLATE_VARIABLE = 'HEIZPLAN_E2E_PGLITE_TEMPLATE';

/**
 * Creates and migrates an embedded database in `dir` and closes it, for every journey server to
 * start from a copy: initdb and the migrations cost 10–25 s per server start under the suite's
 * load, a copy well under one (decision 0065).
 */
export async function preparePgliteTemplate(dir: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dir });
  await database.migrate();
  await database.close();
  process.env[TEMPLATE_VARIABLE] = dir;
}

/** Names this run's journey databases on PostgreSQL, so the global teardown drops exactly them. */
const RUN_VARIABLE = 'HEIZPLAN_E2E_RUN';

/** Starts a run of journeys: its id, which the journeys' workers read from the environment. */
export function beginJourneyRun(): void {
  process.env[RUN_VARIABLE] ??= randomUUID().replaceAll('-', '').slice(0, 12);
}

/**
 * The PostgreSQL database of the journey server keeping its data in `dataDir` — the same one
 * again when a journey restarts its server over the same `dataDir` — or null without
 * TEST_DATABASE_URL. Created from the migrated template on first use.
 */
async function journeyDatabaseUrl(dataDir: string): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return null;
  const run = process.env[RUN_VARIABLE] ?? 'solo';
  const name = `heizplan_e2e_${run}_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!found.rowCount) await createFromMigratedTemplate(url, name);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Drops this run's journey databases (global teardown, after every server stopped). */
export async function dropJourneyDatabases(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  const run = process.env[RUN_VARIABLE];
  if (!url || !run) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`heizplan_e2e_${run}_%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await admin.end();
  }
}

export interface RunningServer {
  baseURL: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Waits for `/api/health` to answer. The deadline is for a server that hangs, not a slow one: with
 * a CPU hog on both cores beside the whole suite, the first server, which compiles the server's
 * TypeScript, once needed more than 120 s (decision 0065).
 */
async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const started = Date.now();
  const deadline = started + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `server did not become healthy within ${Math.round((Date.now() - started) / 1000)} s:\n${output()}`,
  );
}

/** Starts `server/src/main.ts` with `env` added; resolves once `/api/health` answers. */
export async function startServer({
  dataDir,
  port,
  env = {},
}: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<RunningServer> {
  const root = path.resolve(import.meta.dirname, '../..');
  const template = process.env[TEMPLATE_VARIABLE];
  const databaseUrl = await journeyDatabaseUrl(dataDir);
  const databaseDir = path.join(dataDir, 'pglite');
  if (!databaseUrl && template && !existsSync(databaseDir))
    cpSync(template, databaseDir, { recursive: true });
  const listenPort = port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${listenPort}`;
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(listenPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The embedded identity provider registers redirect URIs on this origin.
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Journeys build their own companies; the demo building would only add load.
      DEMO: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  await waitForHealth(baseURL, child, () => log);
  return {
    baseURL,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // The server drains HTTP and closes its database on SIGTERM; one still running after 15 s
      // is killed and reported, so a journey's teardown cannot hang the suite.
      const killer = setTimeout(() => {
        process.stderr.write(
          `teardown: the server on ${baseURL} did not stop within 15 s; killing it\n${log.slice(-2000)}\n`,
        );
        child.kill('SIGKILL');
      }, 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
