/**
 * Building queries (decision 0052). Every query a member can reach is scoped by company id. The
 * engine's reads of the buildings' holiday settings (`holidayBuildings`,
 * `buildingHolidaySettings`) live in heating/inputs.repository.ts.
 */
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { buildingOutdoorTemperatures, buildings, units, users } from '../../db/schema.ts';
import type { HolidayBuilding } from '../../heating/holidays.ts';

export type BuildingRow = typeof buildings.$inferSelect;
export type BuildingInsert = Omit<typeof buildings.$inferInsert, 'id' | 'companyId'>;

export interface BuildingRecord {
  building: BuildingRow;
  creatorName: string | null;
  unitCount: number;
}

const unitCount = sql<number>`(select count(*)::int from ${units} where ${units.buildingId} = ${buildings.id})`;

function selectBuildings(db: Db, where: SQL | undefined) {
  return db
    .select({ building: buildings, creatorName: users.name, unitCount })
    .from(buildings)
    .leftJoin(users, eq(users.id, buildings.createdBy))
    .where(where)
    .$dynamic();
}

/** One page of the company's buildings by name, with each one's number of units. */
export async function listBuildings(
  db: Db,
  companyId: string,
  page: number,
  size: number,
): Promise<{ rows: BuildingRecord[]; count: number }> {
  const where = eq(buildings.companyId, companyId);
  const rows = await selectBuildings(db, where)
    .orderBy(naturally(buildings.name), asc(buildings.id))
    .limit(size)
    .offset((page - 1) * size);
  const [total] = await db.select({ n: count() }).from(buildings).where(where);
  return { rows: rows.map(normalise), count: total?.n ?? 0 };
}

export async function findBuilding(db: Db, companyId: string, buildingId: string) {
  const [row] = await selectBuildings(
    db,
    and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)),
  );
  return row ? normalise(row) : null;
}

/** PGlite and node-postgres agree on `::int`, but a driver may still hand back text. */
function normalise(row: BuildingRecord): BuildingRecord {
  return { ...row, unitCount: Number(row.unitCount) };
}

/** The floors of the company's building, or null when it is not the company's. */
export async function buildingFloors(
  db: Db,
  companyId: string,
  buildingId: string,
): Promise<string[] | null> {
  const [row] = await db
    .select({ floors: buildings.floors })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)));
  return row ? row.floors : null;
}

/** Whether `buildingId` is a building of the company (a list filtering by it answers 404 else). */
export async function isCompanyBuilding(db: Db, companyId: string, buildingId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)));
  return row !== undefined;
}

export async function insertBuilding(tx: Db, companyId: string, values: BuildingInsert): Promise<string> {
  const [row] = await tx
    .insert(buildings)
    .values({ ...values, companyId })
    .returning({ id: buildings.id });
  if (!row) throw new Error('building insert returned no row');
  return row.id;
}

export async function updateBuilding(
  tx: Db,
  companyId: string,
  buildingId: string,
  values: Partial<BuildingInsert>,
) {
  await tx
    .update(buildings)
    .set(values)
    .where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)));
}

/**
 * Forgets the building's stored outdoor temperatures — all of them (it moved), or only its
 * outdoor sensor's (another sensor) — and makes its sync due at once.
 */
export async function resetOutdoor(tx: Db, companyId: string, buildingId: string, only?: 'sensor') {
  await tx
    .delete(buildingOutdoorTemperatures)
    .where(
      and(
        eq(buildingOutdoorTemperatures.companyId, companyId),
        eq(buildingOutdoorTemperatures.buildingId, buildingId),
        only ? eq(buildingOutdoorTemperatures.kind, only) : undefined,
      ),
    );
  await tx
    .update(buildings)
    .set({ outdoorSyncAt: null })
    .where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)));
}

/** Deletes the building; its units stay, without building and floor. */
export async function deleteBuilding(tx: Db, companyId: string, buildingId: string) {
  await tx
    .update(units)
    .set({ buildingId: null, floor: null })
    .where(and(eq(units.companyId, companyId), eq(units.buildingId, buildingId)));
  await tx.delete(buildings).where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)));
}

/** Clears the floor of the building's units that are on one of `floors` (floors removed). */
export async function clearUnitFloors(tx: Db, companyId: string, buildingId: string, floors: string[]) {
  if (floors.length === 0) return;
  await tx
    .update(units)
    .set({ floor: null })
    .where(
      and(
        eq(units.companyId, companyId),
        eq(units.buildingId, buildingId),
        anyOf(units.floor, floors, 'text'),
      ),
    );
}

/** A building as the events calendar's layers need it: its name and what its calendar needs. */
export type CalendarBuilding = HolidayBuilding & { name: string };

/**
 * The company's buildings (only `buildingId` when given) with what their calendars need, in
 * natural name order; empty when `buildingId` is not the company's.
 */
export async function calendarBuildings(
  db: Db,
  companyId: string,
  buildingId?: string,
): Promise<CalendarBuilding[]> {
  return db
    .select({
      id: buildings.id,
      name: buildings.name,
      state: buildings.state,
      region: buildings.region,
      publicHolidays: buildings.publicHolidays,
      holidayMode: buildings.holidayMode,
      schoolHolidays: buildings.schoolHolidays,
    })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), buildingId ? eq(buildings.id, buildingId) : undefined))
    .orderBy(naturally(buildings.name), asc(buildings.id));
}

/** The units of the company's building with what decides which closures cover them. */
export async function unitsInBuilding(db: Db, companyId: string, buildingId: string) {
  return db
    .select({
      id: units.id,
      companyId: units.companyId,
      groupId: units.groupId,
      buildingId: units.buildingId,
      floor: units.floor,
    })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.buildingId, buildingId)));
}
