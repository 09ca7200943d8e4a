/** Heating plan queries; every query is scoped by company id. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { groups, heatingPlans, units } from '../../db/schema.ts';

export type PlanRow = typeof heatingPlans.$inferSelect;
export type PlanOwner = { unitId: string } | { groupId: string };

export async function listPlans(db: Db, companyId: string, owner: PlanOwner): Promise<PlanRow[]> {
  return db
    .select()
    .from(heatingPlans)
    .where(
      and(
        eq(heatingPlans.companyId, companyId),
        'unitId' in owner ? eq(heatingPlans.unitId, owner.unitId) : eq(heatingPlans.groupId, owner.groupId),
      ),
    )
    .orderBy(asc(heatingPlans.createdAt), asc(heatingPlans.id));
}

export async function findPlan(db: Db, companyId: string, planId: string): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(heatingPlans)
    .where(and(eq(heatingPlans.companyId, companyId), eq(heatingPlans.id, planId)));
  return row ?? null;
}

export async function insertPlan(db: Db, row: typeof heatingPlans.$inferInsert): Promise<PlanRow> {
  const [created] = await db.insert(heatingPlans).values(row).returning();
  if (!created) throw new Error('plan insert returned no row');
  return created;
}

export async function updatePlan(
  db: Db,
  companyId: string,
  planId: string,
  patch: Partial<typeof heatingPlans.$inferInsert>,
) {
  await db
    .update(heatingPlans)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(heatingPlans.companyId, companyId), eq(heatingPlans.id, planId)));
}

export async function deletePlan(db: Db, companyId: string, planId: string) {
  await db
    .delete(heatingPlans)
    .where(and(eq(heatingPlans.companyId, companyId), eq(heatingPlans.id, planId)));
}

/** Names of the group's units that have an own active plan (these block group plans). */
export async function unitsWithOwnActivePlan(db: Db, companyId: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ name: units.name })
    .from(units)
    .where(
      and(
        eq(units.companyId, companyId),
        eq(units.groupId, groupId),
        sql`exists (select 1 from ${heatingPlans} where ${heatingPlans.unitId} = ${units.id} and ${heatingPlans.active})`,
      ),
    )
    .orderBy(naturally(units.name));
  return rows.map((r) => r.name);
}

/**
 * One page of the company's plans with their owner's name for the plans export: group plans
 * first, then unit plans, each by owner name (naturally), then oldest plan first.
 */
export async function pagePlansWithOwners(
  db: Db,
  companyId: string,
  page: { limit: number; offset: number },
): Promise<{ plan: PlanRow; unitName: string | null; groupName: string | null }[]> {
  return db
    .select({ plan: heatingPlans, unitName: units.name, groupName: groups.name })
    .from(heatingPlans)
    .leftJoin(units, eq(units.id, heatingPlans.unitId))
    .leftJoin(groups, eq(groups.id, heatingPlans.groupId))
    .where(eq(heatingPlans.companyId, companyId))
    .orderBy(
      sql`${heatingPlans.groupId} is null`,
      naturally(sql`coalesce(${groups.name}, ${units.name})`),
      asc(heatingPlans.createdAt),
      asc(heatingPlans.id),
    )
    .limit(page.limit)
    .offset(page.offset);
}
