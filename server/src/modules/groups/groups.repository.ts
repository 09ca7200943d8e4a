/** Group queries; every query is scoped by company id. */
import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/contains-pattern.ts';
import { naturally } from '../../db/natural-sort.ts';
import { groups, heatingPlans, units } from '../../db/schema.ts';

export type GroupRow = typeof groups.$inferSelect;

export async function listGroups(db: Db, companyId: string, f: { q?: string; page: number; size: number }) {
  const where = and(
    eq(groups.companyId, companyId),
    f.q ? ilike(groups.name, containsPattern(f.q)) : undefined,
  );
  const rows = await db
    .select()
    .from(groups)
    .where(where)
    .orderBy(naturally(groups.name), asc(groups.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(groups).where(where);
  return { rows, count: total?.n ?? 0 };
}

/** The company's group `groupId`; null when it is not the company's. */
export async function findGroup(db: Db, companyId: string, groupId: string): Promise<GroupRow | null> {
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.companyId, companyId), eq(groups.id, groupId)));
  return row ?? null;
}

export async function findGroupByName(db: Db, companyId: string, name: string): Promise<GroupRow | null> {
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.companyId, companyId), eq(groups.name, name)));
  return row ?? null;
}

/** Unit counts and the units with an own active plan, per group id. */
export async function groupMembership(db: Db, groupIds: string[]) {
  const counts = new Map<string, number>();
  const blocking = new Map<string, { id: string; name: string }[]>();
  if (groupIds.length === 0) return { counts, blocking };
  const countRows = await db
    .select({ groupId: units.groupId, n: count() })
    .from(units)
    .where(inArray(units.groupId, groupIds))
    .groupBy(units.groupId);
  for (const r of countRows) if (r.groupId) counts.set(r.groupId, r.n);
  const blockingRows = await db
    .select({ groupId: units.groupId, id: units.id, name: units.name })
    .from(units)
    .where(
      and(
        inArray(units.groupId, groupIds),
        sql`exists (select 1 from ${heatingPlans} where ${heatingPlans.unitId} = ${units.id} and ${heatingPlans.active})`,
      ),
    )
    .orderBy(naturally(units.name));
  for (const r of blockingRows) {
    if (!r.groupId) continue;
    const list = blocking.get(r.groupId) ?? [];
    list.push({ id: r.id, name: r.name });
    blocking.set(r.groupId, list);
  }
  return { counts, blocking };
}

/** Ids of the company's units in group `groupId` (empty for an unknown group). */
export async function unitIdsOfGroup(db: Db, companyId: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.groupId, groupId)));
  return rows.map((r) => r.id);
}

/** The fields of a group its members set: name and the occupant limits of its rooms. */
export type GroupFields = Pick<
  typeof groups.$inferInsert,
  'name' | 'occupantMaxTemperature' | 'occupantBand'
>;

export async function insertGroup(db: Db, companyId: string, fields: GroupFields): Promise<GroupRow> {
  const [row] = await db
    .insert(groups)
    .values({ ...fields, companyId })
    .returning();
  if (!row) throw new Error('group insert returned no row');
  return row;
}

/** Sets the fields given (undefined ones stay). */
export async function updateGroup(db: Db, companyId: string, groupId: string, fields: Partial<GroupFields>) {
  await db
    .update(groups)
    .set(fields)
    .where(and(eq(groups.companyId, companyId), eq(groups.id, groupId)));
}

export async function deleteGroup(db: Db, companyId: string, groupId: string) {
  await db.delete(groups).where(and(eq(groups.companyId, companyId), eq(groups.id, groupId)));
}

/** Moves `unitIds` (already checked to belong to the company) into `groupId` (or out: null). */
export async function setUnitsGroup(db: Db, companyId: string, unitIds: string[], groupId: string | null) {
  if (unitIds.length === 0) return;
  await db
    .update(units)
    .set({ groupId })
    .where(and(eq(units.companyId, companyId), inArray(units.id, unitIds)));
}
