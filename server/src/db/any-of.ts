/**
 * Sets of values as ONE array parameter. Drizzle's `inArray` sends one parameter per value; with
 * the scheduler's batches of thousands of units that is thousands of parameters to bind and plan
 * per statement (docs/decisions/0015), and PostgreSQL allows at most 65,535 of them.
 */
import { type Column, type SQL, sql } from 'drizzle-orm';

const NEEDS_ESCAPE = /["\\]/;

/**
 * The PostgreSQL array literal of `values` (strings quoted, numbers as they print, null as NULL),
 * or undefined when one of them needs escaping or is of another kind (the driver's own
 * serialiser takes those). The driver escapes every element with two replacements; a batch of
 * the scheduler or the downlink queue sends tens of thousands of ids, numbers and hex payloads,
 * none of which needs it.
 */
function arrayLiteral(values: readonly unknown[]): string | undefined {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value === 'string') {
      if (NEEDS_ESCAPE.test(value)) return undefined;
      parts[i] = `"${value}"`;
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      parts[i] = String(value);
    } else if (value === null) {
      parts[i] = 'NULL';
    } else {
      return undefined;
    }
  }
  return `{${parts.join(',')}}`;
}

/** `$1::type[]`: `values` as one array parameter of the PostgreSQL type `type` (e.g. `uuid`, `real`). */
export const sqlArray = (values: readonly unknown[], type: string): SQL =>
  sql`${sql.param(arrayLiteral(values) ?? values)}::${sql.raw(type)}[]`;

/** `column = any($1::uuid[])`. */
export function anyOf(
  column: Column,
  values: readonly string[],
  type: 'uuid' | 'text' | 'timestamptz' = 'uuid',
): SQL {
  return sql`${column} = any(${sqlArray(values, type)})`;
}
