/**
 * Named prepared statements for hot raw queries. node-postgres sends an unnamed statement by
 * default, which PostgreSQL parses and plans on every execution; for the units page's statement
 * planning took longer than running it (1.6 ms against 1.2 ms, EXPLAIN ANALYZE, decision 0035).
 * Named, each pool connection parses it once and, after five executions, keeps a generic plan.
 * PGlite has a single connection in this process and no such cost: there the statement simply runs.
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client.ts';

const dialect = new PgDialect();

/**
 * Runs `query` as a prepared statement named after `name` and its text (a statement differs per
 * sort order or filter, and one name must always mean one text); unnamed when `name` is undefined.
 * A parameter PostgreSQL needs to choose the plan (a LIMIT) belongs in the text: a generic plan is
 * only kept when it costs about what the custom ones did. Values come with the driver's own
 * parsers (node-postgres: timestamps as Date, bigint as string); map columns with
 * `mapFromDriverValue`. @returns the result rows.
 */
export async function executePrepared(
  db: Db,
  name: string | undefined,
  query: SQL,
): Promise<Record<string, unknown>[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (name === undefined || !(client instanceof pg.Pool)) {
    const result = await db.execute(query);
    return (result as unknown as { rows: Record<string, unknown>[] }).rows;
  }
  const { sql: text, params } = dialect.sqlToQuery(query);
  const result = await client.query({ name: statementName(name, text), text, values: params });
  return result.rows;
}

/** Statement names by text; each text is hashed once. Bounded like the statements it names. */
const names = new Map<string, string>();

function statementName(name: string, text: string): string {
  let known = names.get(text);
  if (!known) {
    if (names.size >= 1000) names.clear();
    known = `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
    names.set(text, known);
  }
  return known;
}
