/**
 * Natural order for names (decision 0040): "Raum 2" before "Raum 10", case and
 * accents compared the way people read them. Uses the ICU collation `natural_sort` created by
 * migration 0011; it works the same on PGlite and PostgreSQL >= 15.
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** `column` compared naturally, for `orderBy` and sort expressions. */
export function naturally(column: AnyColumn | SQL): SQL {
  return sql`${column} collate "natural_sort"`;
}

/** Ascending/descending natural order; empty values last either way. */
export function naturalOrder(column: AnyColumn | SQL, order: 'asc' | 'desc'): SQL {
  return order === 'asc'
    ? sql`${naturally(column)} asc nulls last`
    : sql`${naturally(column)} desc nulls last`;
}
