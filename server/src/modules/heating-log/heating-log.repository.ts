/** Heating log queries for the log screen and the export; every query is scoped by company id. */
import { and, asc, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
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
 * Up to `limit` entries of one unit with the actor's name, by keyset on `(at, id)` (which the
 * index `heating_log_unit_at_idx` serves): oldest first after `after` (the export, within
 * `window` = `[from, to)`), or newest first before it (the log screen's pages).
 */
export async function logEntries(
  db: Db,
  companyId: string,
  unitId: string,
  page: {
    order: 'asc' | 'desc';
    after: { at: Date | string; id: number } | null;
    window?: { from: Date; to: Date };
    limit: number;
  },
) {
  const { order, after, window, limit } = page;
  const at = after && (typeof after.at === 'string' ? after.at : after.at.toISOString());
  return db
    .select({ entry: heatingLog, actorName: users.name })
    .from(heatingLog)
    .leftJoin(users, eq(users.id, heatingLog.actorId))
    .where(
      and(
        eq(heatingLog.companyId, companyId),
        eq(heatingLog.unitId, unitId),
        window ? gte(heatingLog.at, window.from) : undefined,
        window ? lt(heatingLog.at, window.to) : undefined,
        after
          ? sql`(${heatingLog.at}, ${heatingLog.id}) ${sql.raw(order === 'asc' ? '>' : '<')} (${at}::timestamptz, ${after.id}::bigint)`
          : undefined,
      ),
    )
    .orderBy(
      ...(order === 'asc'
        ? [asc(heatingLog.at), asc(heatingLog.id)]
        : [desc(heatingLog.at), desc(heatingLog.id)]),
    )
    .limit(limit);
}
