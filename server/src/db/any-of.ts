/**
 * `column = any($1::uuid[])`: a set of ids as ONE array parameter. Drizzle's `inArray` sends one
 * parameter per value; with the scheduler's batches of thousands of units that is thousands of
 * parameters to bind and plan per statement (docs/decisions/0015).
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

export function anyOf(
  column: Column,
  values: readonly string[],
  type: 'uuid' | 'text' | 'timestamptz' = 'uuid',
): SQL {
  return sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])`;
}
