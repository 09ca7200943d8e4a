/**
 * Unit queries (issue 5). Every function takes the company id and filters by it, so a unit
 * id of another company is simply not found (ARCHITECTURE.md §6).
 */
import { type AnyColumn, and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { groups, heatingPlans, units, users } from '../../db/schema.ts';

export type UnitRecord = Awaited<ReturnType<typeof selectUnits>>[number];
export type UnitSort = 'name' | 'group' | 'setpoint' | 'roomTemperature' | 'createdAt';

/** `ilike` pattern matching `text` literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const hasOwnActivePlan = sql<boolean>`exists (select 1 from ${heatingPlans} where ${heatingPlans.unitId} = ${units.id} and ${heatingPlans.active})`;

function selectUnits(db: Db, where: SQL | undefined) {
  return db
    .select({
      unit: units,
      groupName: groups.name,
      creatorName: users.name,
      hasOwnActivePlan,
    })
    .from(units)
    .leftJoin(groups, eq(groups.id, units.groupId))
    .leftJoin(users, eq(users.id, units.createdBy))
    .where(where)
    .$dynamic();
}

const sortColumns: Record<UnitSort, AnyColumn> = {
  name: units.name,
  group: groups.name,
  setpoint: units.setpoint,
  roomTemperature: units.roomTemperature,
  createdAt: units.createdAt,
};

export interface UnitListFilter {
  q?: string;
  groupId?: string;
  sort: UnitSort;
  order: 'asc' | 'desc';
  page: number;
  size: number;
}

export async function listUnits(db: Db, companyId: string, f: UnitListFilter) {
  const conditions = [eq(units.companyId, companyId)];
  if (f.groupId) conditions.push(eq(units.groupId, f.groupId));
  if (f.q) {
    const pattern = containsPattern(f.q);
    const match = or(ilike(units.name, pattern), ilike(groups.name, pattern));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const column = sortColumns[f.sort];
  // Empty values sort last in both directions so the interesting rows come first.
  const primary = f.order === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
  const rows = await selectUnits(db, where)
    .orderBy(primary, asc(units.name), asc(units.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db
    .select({ n: count() })
    .from(units)
    .leftJoin(groups, eq(groups.id, units.groupId))
    .where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findUnits(db: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return selectUnits(db, and(eq(units.companyId, companyId), inArray(units.id, ids))).orderBy(
    asc(units.name),
    asc(units.id),
  );
}

export async function findUnit(db: Db, companyId: string, id: string) {
  const [row] = await findUnits(db, companyId, [id]);
  return row ?? null;
}

export async function insertUnits(db: Db, rows: (typeof units.$inferInsert)[]) {
  return db.insert(units).values(rows).returning({ id: units.id });
}

export async function updateUnit(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<typeof units.$inferInsert>,
) {
  const rows = await db
    .update(units)
    .set(patch)
    .where(and(eq(units.companyId, companyId), eq(units.id, id)))
    .returning({ id: units.id });
  return rows.length > 0;
}

export async function deleteUnit(db: Db, companyId: string, id: string) {
  const rows = await db
    .delete(units)
    .where(and(eq(units.companyId, companyId), eq(units.id, id)))
    .returning({ id: units.id });
  return rows.length > 0;
}

/** Ids of `ids` that belong to `companyId` (to reject foreign ids in bulk requests). */
export async function ownedUnitIds(db: Db, companyId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), inArray(units.id, ids)));
  return rows.map((r) => r.id);
}

export async function groupExists(db: Db, companyId: string, groupId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), eq(groups.id, groupId)));
  return (row?.n ?? 0) > 0;
}
