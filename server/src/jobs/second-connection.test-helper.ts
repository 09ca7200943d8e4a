/**
 * Test helper for multi-instance scheduler tests: a second, independent connection pool to the
 * same PostgreSQL database (like a second server process), or the same PGlite instance, which
 * has a single connection and serialises the two schedulers' transactions.
 */
import { sql } from 'drizzle-orm';
import { onPostgres } from '../../test/helpers.ts';
import { type Database, openDatabase } from '../db/client.ts';

export async function secondConnection(database: Database): Promise<Database> {
  if (!onPostgres) return database;
  const result = await database.db.execute(sql`select current_database() as name`);
  const name = (result as unknown as { rows: { name: string }[] }).rows[0]?.name;
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return openDatabase({ kind: 'postgres', url: url.toString() });
}
