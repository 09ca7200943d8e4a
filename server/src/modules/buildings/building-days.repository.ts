/**
 * Queries of the company's own days per building (decision 0052: bridge days, movable days off).
 * Every query a member can reach is scoped by company id. The engine's reads of the days
 * (`buildingDaysFor`, `buildingDayNames`) live in heating/inputs.repository.ts.
 */
import { and, asc, count, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { buildingDays, users } from '../../db/schema.ts';

export type BuildingDayRow = typeof buildingDays.$inferSelect;

/** The days of one building of the company. */
const ofBuilding = (companyId: string, buildingId: string) =>
  and(eq(buildingDays.companyId, companyId), eq(buildingDays.buildingId, buildingId));

/** The building's own days from `from` to `to` (local dates, inclusive) by date, with their creators' names. */
export async function listBuildingDays(
  db: Db,
  companyId: string,
  buildingId: string,
  from: string,
  to: string,
): Promise<{ day: BuildingDayRow; creatorName: string | null }[]> {
  return db
    .select({ day: buildingDays, creatorName: users.name })
    .from(buildingDays)
    .leftJoin(users, eq(users.id, buildingDays.createdBy))
    .where(and(ofBuilding(companyId, buildingId), gte(buildingDays.date, from), lte(buildingDays.date, to)))
    .orderBy(asc(buildingDays.date));
}

export async function countBuildingDays(db: Db, companyId: string, buildingId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(buildingDays).where(ofBuilding(companyId, buildingId));
  return row?.n ?? 0;
}

/**
 * Adds the days the building does not have yet (one per date); returns the ids of those added.
 */
export async function insertBuildingDays(
  tx: Db,
  companyId: string,
  buildingId: string,
  days: { date: string; name: string }[],
  createdBy: string,
): Promise<string[]> {
  if (days.length === 0) return [];
  const rows = await tx
    .insert(buildingDays)
    .values(days.map((d) => ({ ...d, companyId, buildingId, createdBy })))
    .onConflictDoNothing({ target: [buildingDays.buildingId, buildingDays.date] })
    .returning({ id: buildingDays.id });
  return rows.map((r) => r.id);
}

export async function findBuildingDay(db: Db, companyId: string, buildingId: string, dayId: string) {
  const [row] = await db
    .select({ day: buildingDays, creatorName: users.name })
    .from(buildingDays)
    .leftJoin(users, eq(users.id, buildingDays.createdBy))
    .where(and(ofBuilding(companyId, buildingId), eq(buildingDays.id, dayId)));
  return row ?? null;
}

/** Deletes the day; false when the building has no such day. */
export async function deleteBuildingDay(tx: Db, companyId: string, buildingId: string, dayId: string) {
  const rows = await tx
    .delete(buildingDays)
    .where(and(ofBuilding(companyId, buildingId), eq(buildingDays.id, dayId)))
    .returning({ id: buildingDays.id });
  return rows.length > 0;
}
