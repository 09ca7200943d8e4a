/** Heating log queries for the export; every query is scoped by company id. */
import { and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { buildings, groups, heatingLog, units, users } from '../../db/schema.ts';

/** The units whose log an export reads: all of the company's, or those every given filter matches. */
export interface LogUnitFilter {
  unitId?: string;
  groupId?: string;
  buildingId?: string;
}

/** The company's units `filter` matches with where they are, by name (naturally), then id. */
export async function logExportUnits(db: Db, companyId: string, filter: LogUnitFilter) {
  const conditions: SQL[] = [eq(units.companyId, companyId)];
  if (filter.unitId) conditions.push(eq(units.id, filter.unitId));
  if (filter.groupId) conditions.push(eq(units.groupId, filter.groupId));
  if (filter.buildingId) conditions.push(eq(units.buildingId, filter.buildingId));
  return db
    .select({
      id: units.id,
      name: units.name,
      groupName: groups.name,
      buildingName: buildings.name,
      floor: units.floor,
    })
    .from(units)
    .leftJoin(groups, eq(groups.id, units.groupId))
    .leftJoin(buildings, eq(buildings.id, units.buildingId))
    .where(and(...conditions))
    .orderBy(naturally(units.name), asc(units.id));
}
export type LogExportUnit = Awaited<ReturnType<typeof logExportUnits>>[number];

/**
 * Up to `limit` entries of one unit in `[from, to)`, oldest first, after the entry `after`
 * (keyset on `(at, id)`, which the index `heating_log_unit_at_idx` serves), with the actor's name.
 */
export async function logEntriesAfter(
  db: Db,
  companyId: string,
  unitId: string,
  window: { from: Date; to: Date },
  after: { at: Date; id: number } | null,
  limit: number,
) {
  return db
    .select({ entry: heatingLog, actorName: users.name })
    .from(heatingLog)
    .leftJoin(users, eq(users.id, heatingLog.actorId))
    .where(
      and(
        eq(heatingLog.companyId, companyId),
        eq(heatingLog.unitId, unitId),
        gte(heatingLog.at, window.from),
        lt(heatingLog.at, window.to),
        after
          ? sql`(${heatingLog.at}, ${heatingLog.id}) > (${after.at.toISOString()}::timestamptz, ${after.id}::bigint)`
          : undefined,
      ),
    )
    .orderBy(asc(heatingLog.at), asc(heatingLog.id))
    .limit(limit);
}
