/**
 * Sets of values as ONE array parameter. Drizzle's `inArray` sends one parameter per value; with
 * the scheduler's batches of thousands of units that is thousands of parameters to bind and plan
 * per statement (docs/decisions/0015), and PostgreSQL allows at most 65,535 of them.
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

/** `$1::type[]`: `values` as one array parameter of the PostgreSQL type `type` (e.g. `uuid`, `real`). */
export const sqlArray = (values: readonly unknown[], type: string): SQL =>
  sql`${sql.param(values)}::${sql.raw(type)}[]`;

/** `column = any($1::uuid[])`. */
export function anyOf(
  column: Column,
  values: readonly string[],
  type: 'uuid' | 'text' | 'timestamptz' = 'uuid',
): SQL {
  return sql`${column} = any(${sqlArray(values, type)})`;
}
