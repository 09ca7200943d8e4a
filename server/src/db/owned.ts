/**
 * Whether ids a caller names are the company's own: a building, group or unit of another company
 * is answered as unknown (404), never touched.
 */
import { sql } from 'drizzle-orm';
import { sqlArray } from './any-of.ts';
import { type Db, rowsOf } from './client.ts';

/** True when every one of `ids` is a row of `table` belonging to `companyId` (true for none). */
export async function allOwned(
  db: Db,
  table: 'buildings' | 'groups' | 'units',
  companyId: string,
  ids: readonly string[],
): Promise<boolean> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return true;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${sql.raw(table)}
      where company_id = ${companyId} and id = any(${sqlArray(distinct, 'uuid')})`),
  );
  return Number(row?.n ?? 0) === distinct.length;
}
