/**
 * A throw-away PostgreSQL database for a bench, next to BENCH_DATABASE_URL (default
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test): created, opened and migrated
 * by `createBenchDatabase`, closed and dropped by its `drop()`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../server/src/db/client.ts';

const baseUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/** Runs one statement on the server's maintenance connection. */
async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  /** Connection URL of the new database (for child processes). */
  url: string;
  database: Database;
  /** Closes the connection pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates, opens and migrates a new database; without a reachable PostgreSQL it prints
 * "`bench`: skipped, …" and returns null.
 */
export async function createBenchDatabase(bench: string): Promise<BenchDatabase | null> {
  try {
    await admin('select 1');
  } catch (err) {
    console.log(`${bench}: skipped, no PostgreSQL at ${baseUrl} (${(err as Error).message})`);
    return null;
  }
  const name = `heizplan_bench_${randomUUID().replaceAll('-', '')}`;
  await admin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  const drop = async () => {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  };
  try {
    await database.migrate();
  } catch (err) {
    await drop();
    throw err;
  }
  return { url: url.toString(), database, drop };
}
