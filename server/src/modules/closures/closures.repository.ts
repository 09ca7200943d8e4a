/**
 * Closure queries (decision 0051). Every query a member can reach is scoped by company id. The
 * engine's reads of the closures (`coveringClosures`, `closureBuildingChoices`, `closureNames`)
 * live in heating/inputs.repository.ts; the list's filter shares its `endsAfter` from there.
 */
import { and, asc, count, eq, inArray, isNotNull, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import {
  buildings,
  closureBuildings,
  closureGroups,
  closures,
  closureUnits,
  companies,
  groups,
  units,
  users,
} from '../../db/schema.ts';
import { endsAfter } from '../../heating/inputs.ts';

export type ClosureRow = typeof closures.$inferSelect;
export type ClosureInsert = Omit<typeof closures.$inferInsert, 'id' | 'companyId'>;

/** A chosen building; `floor` '' = the whole building. */
export interface BuildingTarget {
  buildingId: string;
  floor: string;
}

/** The buildings, units and groups a closure names; `exceptionIds` keep their normal heating. */
export interface ClosureTargets {
  buildings: BuildingTarget[];
  unitIds: string[];
  groupIds: string[];
  exceptionIds: string[];
}

export interface ClosureListFilter {
  unitId?: string;
  /** A building of the company (the service checks it). */
  buildingId?: string;
  includePast: boolean;
  from?: Date;
  to?: Date;
  /** Recurring closures the service found without an occurrence in the range. */
  excludeIds?: string[];
  page: number;
  size: number;
}

/** The company's IANA zone, in which recurring closures repeat; null for an unknown company. */
export async function companyZone(db: Db, companyId: string): Promise<string | null> {
  const [row] = await db
    .select({ timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.timeZone ?? null;
}

/** Closures covering `unitId` (a unit of `companyId`), not as an exception. */
function coversUnit(companyId: string, unitId: string): SQL {
  return sql`not exists (select 1 from ${closureUnits} where ${closureUnits.closureId} = ${closures.id}
      and ${closureUnits.unitId} = ${unitId} and ${closureUnits.exception})
    and (
      (${closures.scope} = 'company' and exists (select 1 from ${units} where ${units.id} = ${unitId} and ${units.companyId} = ${companyId}))
      or (${closures.scope} = 'units' and exists (select 1 from ${closureUnits} where ${closureUnits.closureId} = ${closures.id}
        and ${closureUnits.unitId} = ${unitId} and not ${closureUnits.exception}))
      or (${closures.scope} = 'groups' and exists (select 1 from ${closureGroups} join ${units} on ${units.groupId} = ${closureGroups.groupId}
        where ${closureGroups.closureId} = ${closures.id} and ${units.id} = ${unitId}))
      or (${closures.scope} = 'buildings' and exists (select 1 from ${closureBuildings} join ${units} on ${units.buildingId} = ${closureBuildings.buildingId}
        where ${closureBuildings.closureId} = ${closures.id} and ${units.id} = ${unitId}
          and (${closureBuildings.floor} = '' or ${closureBuildings.floor} = ${units.floor})))
    )`;
}

/**
 * Closures reaching `buildingId`, a building of `companyId`: scope `company`; scope `buildings`
 * naming it (whole or any floor); scope `groups` with a unit in it now; scope `units` with a unit
 * in it. Exceptions are not subtracted: the list shows what concerns the building.
 */
function reachesBuilding(companyId: string, buildingId: string): SQL {
  const rooms = sql`select u.id from units u where u.company_id = ${companyId} and u.building_id = ${buildingId}`;
  return sql`exists (select 1 from ${buildings} where ${buildings.id} = ${buildingId} and ${buildings.companyId} = ${companyId})
    and (
      ${closures.scope} = 'company'
      or (${closures.scope} = 'buildings' and exists (select 1 from ${closureBuildings}
        where ${closureBuildings.closureId} = ${closures.id} and ${closureBuildings.buildingId} = ${buildingId}))
      or (${closures.scope} = 'groups' and exists (select 1 from ${closureGroups}
        where ${closureGroups.closureId} = ${closures.id}
          and exists (${rooms} and u.group_id = ${closureGroups.groupId})))
      or (${closures.scope} = 'units' and exists (select 1 from ${closureUnits}
        where ${closureUnits.closureId} = ${closures.id} and not ${closureUnits.exception}
          and ${closureUnits.unitId} in (${rooms})))
    )`;
}

/**
 * The list's filters. With the end of the last occurrence and the first start they are exact for
 * closures that do not recur; a recurring one may have no occurrence inside a range although it
 * spans it: the service finds those (`recurringListed`) and names them in `excludeIds`.
 */
function listWhere(companyId: string, f: ClosureListFilter, now: Date) {
  return and(
    eq(closures.companyId, companyId),
    f.unitId ? coversUnit(companyId, f.unitId) : undefined,
    f.buildingId ? reachesBuilding(companyId, f.buildingId) : undefined,
    f.includePast ? undefined : endsAfter(now),
    // Overlapping [from, to); the end is exclusive.
    f.from ? endsAfter(f.from) : undefined,
    f.to ? lt(closures.start, f.to) : undefined,
    f.excludeIds && f.excludeIds.length > 0 ? notInArray(closures.id, f.excludeIds) : undefined,
  );
}

/** Every recurring closure of the company, with the end of its last occurrence as stored. */
export async function recurringClosures(db: Db, companyId: string) {
  return db
    .select({
      id: closures.id,
      start: closures.start,
      end: closures.end,
      recurrence: closures.recurrence,
      lastEnd: closures.lastEnd,
    })
    .from(closures)
    .where(and(eq(closures.companyId, companyId), isNotNull(closures.recurrence)));
}

/** Stores each closure's `lastEnd` (the end of its last occurrence; null = none). */
export async function setLastEnds(db: Db, companyId: string, rows: { id: string; lastEnd: Date | null }[]) {
  for (const { id, lastEnd } of rows) {
    await db
      .update(closures)
      .set({ lastEnd })
      .where(and(eq(closures.companyId, companyId), eq(closures.id, id)));
  }
}

/** The recurring closures the list's filters pass (all pages), for the service's exact check. */
export async function recurringListed(db: Db, companyId: string, f: ClosureListFilter, now: Date) {
  return db
    .select({ id: closures.id, start: closures.start, end: closures.end, recurrence: closures.recurrence })
    .from(closures)
    .where(and(listWhere(companyId, f, now), isNotNull(closures.recurrence)));
}

/** One page of closures, by start then id, with the creator's name. */
export async function listClosures(db: Db, companyId: string, f: ClosureListFilter, now: Date) {
  const where = listWhere(companyId, f, now);
  const rows = await db
    .select({ closure: closures, creatorName: users.name })
    .from(closures)
    .leftJoin(users, eq(users.id, closures.createdBy))
    .where(where)
    .orderBy(asc(closures.start), asc(closures.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(closures).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findClosure(db: Db, companyId: string, closureId: string) {
  const [row] = await db
    .select({ closure: closures, creatorName: users.name })
    .from(closures)
    .leftJoin(users, eq(users.id, closures.createdBy))
    .where(and(eq(closures.companyId, companyId), eq(closures.id, closureId)));
  return row ?? null;
}

type Ref = { id: string; name: string };

type BuildingRef = Ref & { floor: string | null };

/** Chosen buildings, units and groups and the exceptions (id, name) of each closure, by closure id. */
export async function targetsOf(db: Db, closureIds: string[]) {
  const unitsBy = new Map<string, Ref[]>();
  const groupsBy = new Map<string, Ref[]>();
  const exceptionsBy = new Map<string, Ref[]>();
  const buildingsBy = new Map<string, BuildingRef[]>();
  if (closureIds.length === 0) return { unitsBy, groupsBy, exceptionsBy, buildingsBy };
  const unitRows = await db
    .select({
      closureId: closureUnits.closureId,
      exception: closureUnits.exception,
      id: units.id,
      name: units.name,
    })
    .from(closureUnits)
    .innerJoin(units, eq(units.id, closureUnits.unitId))
    .where(inArray(closureUnits.closureId, closureIds))
    .orderBy(naturally(units.name), asc(units.id));
  const groupRows = await db
    .select({ closureId: closureGroups.closureId, id: groups.id, name: groups.name })
    .from(closureGroups)
    .innerJoin(groups, eq(groups.id, closureGroups.groupId))
    .where(inArray(closureGroups.closureId, closureIds))
    .orderBy(naturally(groups.name), asc(groups.id));
  const buildingRows = await db
    .select({
      closureId: closureBuildings.closureId,
      id: buildings.id,
      name: buildings.name,
      floor: closureBuildings.floor,
      floors: buildings.floors,
    })
    .from(closureBuildings)
    .innerJoin(buildings, eq(buildings.id, closureBuildings.buildingId))
    .where(inArray(closureBuildings.closureId, closureIds))
    .orderBy(naturally(buildings.name), asc(buildings.id));
  const add = <T>(by: Map<string, T[]>, closureId: string, ref: T) =>
    by.set(closureId, [...(by.get(closureId) ?? []), ref]);
  for (const { closureId, exception, id, name } of unitRows)
    add(exception ? exceptionsBy : unitsBy, closureId, { id, name });
  for (const { closureId, id, name } of groupRows) add(groupsBy, closureId, { id, name });
  // Buildings by name; of one building the whole first, then its floors in the building's order.
  const rank = new Map<string, number>();
  buildingRows.forEach((row, i) => {
    if (!rank.has(row.id)) rank.set(row.id, i);
  });
  const floorIndex = (row: { floors: string[]; floor: string }) =>
    row.floor === '' ? -1 : row.floors.indexOf(row.floor);
  buildingRows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0) || floorIndex(a) - floorIndex(b));
  for (const { closureId, id, name, floor } of buildingRows)
    add(buildingsBy, closureId, { id, name, floor: floor === '' ? null : floor });
  return { unitsBy, groupsBy, exceptionsBy, buildingsBy };
}

/** The floors of each of `ids` that is a building of `companyId`, by building id. */
export async function ownedBuildingFloors(
  db: Db,
  companyId: string,
  ids: string[],
): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: buildings.id, floors: buildings.floors })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), inArray(buildings.id, ids)));
  return new Map(rows.map((r) => [r.id, r.floors]));
}

/** Ids of `ids` that are groups of `companyId`. */
export async function ownedGroupIds(db: Db, companyId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), inArray(groups.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * Units a closure reaches now: every unit of the company, the current units of its buildings
 * (or floors) or groups, or its chosen units — without its exceptions.
 */
export async function affectedUnitIds(db: Db, companyId: string, closureId: string): Promise<string[]> {
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(
      and(
        eq(units.companyId, companyId),
        sql`exists (select 1 from ${closures} where ${closures.id} = ${closureId} and ${closures.companyId} = ${companyId} and (
          ${closures.scope} = 'company'
          or (${closures.scope} = 'groups' and ${units.groupId} in (select ${closureGroups.groupId} from ${closureGroups} where ${closureGroups.closureId} = ${closureId}))
          or (${closures.scope} = 'buildings' and exists (select 1 from ${closureBuildings} where ${closureBuildings.closureId} = ${closureId}
            and ${closureBuildings.buildingId} = ${units.buildingId} and (${closureBuildings.floor} = '' or ${closureBuildings.floor} = ${units.floor})))
          or (${closures.scope} = 'units' and ${units.id} in (select ${closureUnits.unitId} from ${closureUnits} where ${closureUnits.closureId} = ${closureId} and not ${closureUnits.exception}))
        ))`,
        sql`${units.id} not in (select ${closureUnits.unitId} from ${closureUnits} where ${closureUnits.closureId} = ${closureId} and ${closureUnits.exception})`,
      ),
    );
  return rows.map((r) => r.id);
}

/** Inserts the closure and its targets; call inside a transaction. */
export async function insertClosure(
  tx: Db,
  companyId: string,
  values: ClosureInsert,
  targets: ClosureTargets,
): Promise<string> {
  const [row] = await tx
    .insert(closures)
    .values({ ...values, companyId })
    .returning({ id: closures.id });
  if (!row) throw new Error('closure insert returned no row');
  await replaceTargets(tx, row.id, targets);
  return row.id;
}

/** Updates the closure's columns and, when given, replaces its targets; call inside a transaction. */
export async function updateClosure(
  tx: Db,
  companyId: string,
  closureId: string,
  values: Partial<ClosureInsert>,
  targets?: ClosureTargets,
) {
  await tx
    .update(closures)
    .set(values)
    .where(and(eq(closures.companyId, companyId), eq(closures.id, closureId)));
  if (targets) await replaceTargets(tx, closureId, targets);
}

async function replaceTargets(tx: Db, closureId: string, targets: ClosureTargets) {
  await tx.delete(closureUnits).where(eq(closureUnits.closureId, closureId));
  await tx.delete(closureGroups).where(eq(closureGroups.closureId, closureId));
  await tx.delete(closureBuildings).where(eq(closureBuildings.closureId, closureId));
  const unitRows = [
    ...targets.unitIds.map((unitId) => ({ closureId, unitId, exception: false })),
    ...targets.exceptionIds.map((unitId) => ({ closureId, unitId, exception: true })),
  ];
  if (unitRows.length > 0) await tx.insert(closureUnits).values(unitRows);
  if (targets.groupIds.length > 0)
    await tx.insert(closureGroups).values(targets.groupIds.map((groupId) => ({ closureId, groupId })));
  if (targets.buildings.length > 0)
    await tx.insert(closureBuildings).values(targets.buildings.map((b) => ({ closureId, ...b })));
}

export async function deleteClosure(tx: Db, companyId: string, closureId: string) {
  await tx.delete(closures).where(and(eq(closures.companyId, companyId), eq(closures.id, closureId)));
}
