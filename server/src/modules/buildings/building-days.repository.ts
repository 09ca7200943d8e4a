/**
 * Queries of the company's own days per building (decision 0052: bridge days, movable days off).
 * Every query a member can reach is scoped by company id; `buildingDaysFor` serves the engine's
 * inputs for the buildings of a batch of units in one query.
 */
import { and, asc, count, eq, gte, lte } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
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

/**
 * The own days of `buildingIds` (any companies) from `from` to `to` (local dates, inclusive), per
 * building by date: one query for a whole batch of units.
 */
export async function buildingDaysFor(
  db: Db,
  buildingIds: string[],
  from: string,
  to: string,
): Promise<Map<string, { date: string; name: string }[]>> {
  const result = new Map<string, { date: string; name: string }[]>();
  if (buildingIds.length === 0) return result;
  const rows = await db
    .select({ buildingId: buildingDays.buildingId, date: buildingDays.date, name: buildingDays.name })
    .from(buildingDays)
    .where(
      and(
        anyOf(buildingDays.buildingId, buildingIds),
        gte(buildingDays.date, from),
        lte(buildingDays.date, to),
      ),
    )
    .orderBy(asc(buildingDays.date));
  for (const row of rows) {
    const list = result.get(row.buildingId) ?? [];
    list.push({ date: row.date, name: row.name });
    result.set(row.buildingId, list);
  }
  return result;
}

/** The names of the company's own days by `buildingId:date`, for the preview. */
export async function buildingDayNames(
  db: Db,
  companyId: string,
  refs: { buildingId: string; date: string }[],
): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const rows = await db
    .select({ buildingId: buildingDays.buildingId, date: buildingDays.date, name: buildingDays.name })
    .from(buildingDays)
    .where(
      and(
        eq(buildingDays.companyId, companyId),
        anyOf(buildingDays.buildingId, [...new Set(refs.map((r) => r.buildingId))]),
        anyOf(buildingDays.date, [...new Set(refs.map((r) => r.date))], 'text'),
      ),
    );
  return new Map(rows.map((r) => [`${r.buildingId}:${r.date}`, r.name]));
}
