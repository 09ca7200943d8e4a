/**
 * Database connection for both backends (docs/architecture.md): PGlite in `$DATA_DIR/pglite`
 * when no DATABASE_URL is set, PostgreSQL through `pg` otherwise. Both get the same Drizzle
 * schema and the same generated migrations from `./migrations`, applied at start.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** A Drizzle database on either backend; repositories take this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw `db.execute(sql…)` result: both drivers answer `{ rows }`; Drizzle's common type does not say so. */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe to call repeatedly. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dir?: string;
      /** A data directory dumped by `dumpPglite` to start from (tests: a migrated template). */
      loadDataDir?: Blob;
    }
  | { kind: 'postgres'; url: string };

/**
 * The data directory of an open PGlite database as an uncompressed tarball, for
 * `openDatabase({ kind: 'pglite', loadDataDir })`. @throws for a PostgreSQL database.
 */
export async function dumpPglite(database: Database): Promise<Blob> {
  // Drizzle keeps the driver's client on the database object.
  const client = (database.db as { $client?: unknown }).$client;
  if (database.kind !== 'pglite' || !(client instanceof PGlite)) {
    throw new Error('dumpPglite: not a PGlite database');
  }
  return client.dumpDataDir('none');
}

/**
 * Opens the database. For PGlite `dir` undefined means in-memory (tests); the parent
 * folder is created because PGlite does not create it.
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      // A database that does not answer must fail requests and health checks, not hang them.
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      // No JIT compilation: the planner's estimates of the batch statements (thousands of ids,
      // a subquery per device) pass `jit_above_cost`, and compiling took 460 of a statement's
      // 480 ms in the scheduler bench, for queries that run in milliseconds (decision 0073).
      options: '-c jit=off',
    });
    // A connection that breaks (PostgreSQL restarted, network cut) emits 'error': on the pool
    // while idle, on the client while a transaction holds it between two queries. Without a
    // listener either ends the process. The pool drops the connection, the transaction's next
    // query fails, and the callers log their failures while the database is away.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        // Instances starting together would each apply a pending migration; the first one to
        // get the lock applies it, the others then find it applied.
        const lock = await pool.connect();
        try {
          await lock.query("select pg_advisory_lock(hashtext('heizplan:migrate'))");
          await migratePg(db as never, { migrationsFolder });
        } finally {
          await lock.query("select pg_advisory_unlock(hashtext('heizplan:migrate'))").catch(() => {});
          lock.release();
        }
      },
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  if (target.dir) await mkdir(path.dirname(target.dir), { recursive: true });
  const options = {
    // A bigint (`count(*)`, `sum` over integers) as the string `pg` gives, not a number (or a
    // BigInt past 2^53): raw SQL then reads the same on both drivers (db/driver-parity.pg.test.ts).
    parsers: { [types.INT8]: (value: string) => value },
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  };
  const client = target.dir ? new PGlite(target.dir, options) : new PGlite(options);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: async () => {
      if (client.closed) throw new Error('PGlite is closed');
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}
