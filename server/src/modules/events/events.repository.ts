/**
 * Heating event queries. Every query a member can reach is scoped by company id. The engine's
 * read of the events (`eventsForUnits`) lives with its other inputs in
 * heating/inputs.repository.ts.
 */
import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import {
  groups,
  heatingEventGroups,
  heatingEvents,
  heatingEventUnits,
  units,
  users,
} from '../../db/schema.ts';

export type EventRow = typeof heatingEvents.$inferSelect;
export type EventInsert = Omit<typeof heatingEvents.$inferInsert, 'id' | 'companyId'>;

export interface EventListFilter {
  unitId?: string;
  includePast: boolean;
  hideOpenEnded: boolean;
  from?: Date;
  to?: Date;
  page: number;
  size: number;
}

const live = isNull(heatingEvents.deletedAt);

function listWhere(companyId: string, f: EventListFilter, now: Date) {
  const coversUnit = f.unitId
    ? or(
        sql`exists (select 1 from ${heatingEventUnits} where ${heatingEventUnits.eventId} = ${heatingEvents.id} and ${heatingEventUnits.unitId} = ${f.unitId})`,
        sql`exists (select 1 from ${heatingEventGroups} join ${units} on ${units.groupId} = ${heatingEventGroups.groupId} where ${heatingEventGroups.eventId} = ${heatingEvents.id} and ${units.id} = ${f.unitId})`,
      )
    : undefined;
  return and(
    eq(heatingEvents.companyId, companyId),
    live,
    coversUnit,
    f.includePast ? undefined : or(isNull(heatingEvents.end), gt(heatingEvents.end, now)),
    f.hideOpenEnded ? isNotNull(heatingEvents.end) : undefined,
    f.from ? or(isNull(heatingEvents.end), gte(heatingEvents.end, f.from)) : undefined,
    f.to ? lt(heatingEvents.start, f.to) : undefined,
  );
}

/** One page of live events, by start then id, with the creator's name. */
export async function listEvents(db: Db, companyId: string, f: EventListFilter, now: Date) {
  const where = listWhere(companyId, f, now);
  const rows = await db
    .select({ event: heatingEvents, creatorName: users.name })
    .from(heatingEvents)
    .leftJoin(users, eq(users.id, heatingEvents.createdBy))
    .where(where)
    .orderBy(asc(heatingEvents.start), asc(heatingEvents.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(heatingEvents).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findEvent(db: Db, companyId: string, eventId: string) {
  const [row] = await db
    .select({ event: heatingEvents, creatorName: users.name })
    .from(heatingEvents)
    .leftJoin(users, eq(users.id, heatingEvents.createdBy))
    .where(and(eq(heatingEvents.companyId, companyId), eq(heatingEvents.id, eventId), live));
  return row ?? null;
}

/** Units and groups (id, name) targeted by each event, by event id. */
export async function targetsOf(db: Db, eventIds: string[]) {
  const unitsBy = new Map<string, { id: string; name: string }[]>();
  const groupsBy = new Map<string, { id: string; name: string }[]>();
  if (eventIds.length === 0) return { unitsBy, groupsBy };
  const [unitRows, groupRows] = await Promise.all([
    db
      .select({ eventId: heatingEventUnits.eventId, id: units.id, name: units.name })
      .from(heatingEventUnits)
      .innerJoin(units, eq(units.id, heatingEventUnits.unitId))
      .where(inArray(heatingEventUnits.eventId, eventIds))
      .orderBy(naturally(units.name), asc(units.id)),
    db
      .select({ eventId: heatingEventGroups.eventId, id: groups.id, name: groups.name })
      .from(heatingEventGroups)
      .innerJoin(groups, eq(groups.id, heatingEventGroups.groupId))
      .where(inArray(heatingEventGroups.eventId, eventIds))
      .orderBy(naturally(groups.name), asc(groups.id)),
  ]);
  for (const [rows, by] of [
    [unitRows, unitsBy],
    [groupRows, groupsBy],
  ] as const) {
    for (const { eventId, id, name } of rows) by.set(eventId, [...(by.get(eventId) ?? []), { id, name }]);
  }
  return { unitsBy, groupsBy };
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

/** Units an event reaches now: its own units, or the current units of its groups. */
export async function affectedUnitIds(db: Db, companyId: string, eventId: string): Promise<string[]> {
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(
      and(
        eq(units.companyId, companyId),
        or(
          sql`${units.id} in (select ${heatingEventUnits.unitId} from ${heatingEventUnits} where ${heatingEventUnits.eventId} = ${eventId})`,
          sql`${units.groupId} in (select ${heatingEventGroups.groupId} from ${heatingEventGroups} where ${heatingEventGroups.eventId} = ${eventId})`,
        ),
      ),
    );
  return rows.map((r) => r.id);
}

/** Inserts the event and its targets; call inside a transaction. */
export async function insertEvent(
  tx: Db,
  companyId: string,
  values: EventInsert,
  unitIds: string[],
  groupIds: string[],
): Promise<string> {
  const [row] = await tx
    .insert(heatingEvents)
    .values({ ...values, companyId })
    .returning({ id: heatingEvents.id });
  if (!row) throw new Error('event insert returned no row');
  await replaceTargets(tx, row.id, unitIds, groupIds);
  return row.id;
}

/** Updates the event's columns and, when given, replaces its targets; call inside a transaction. */
export async function updateEvent(
  tx: Db,
  companyId: string,
  eventId: string,
  values: Partial<EventInsert>,
  targets?: { unitIds: string[]; groupIds: string[] },
) {
  await tx
    .update(heatingEvents)
    .set(values)
    .where(and(eq(heatingEvents.companyId, companyId), eq(heatingEvents.id, eventId)));
  if (targets) await replaceTargets(tx, eventId, targets.unitIds, targets.groupIds);
}

async function replaceTargets(tx: Db, eventId: string, unitIds: string[], groupIds: string[]) {
  await tx.delete(heatingEventUnits).where(eq(heatingEventUnits.eventId, eventId));
  await tx.delete(heatingEventGroups).where(eq(heatingEventGroups.eventId, eventId));
  if (unitIds.length > 0)
    await tx.insert(heatingEventUnits).values(unitIds.map((unitId) => ({ eventId, unitId })));
  if (groupIds.length > 0) {
    await tx.insert(heatingEventGroups).values(groupIds.map((groupId) => ({ eventId, groupId })));
  }
}

export async function deleteEvent(tx: Db, companyId: string, eventId: string) {
  await tx
    .delete(heatingEvents)
    .where(and(eq(heatingEvents.companyId, companyId), eq(heatingEvents.id, eventId)));
}

/** Titles of the company's events among `eventIds` (unknown ids are left out). */
export async function eventTitles(
  db: Db,
  companyId: string,
  eventIds: string[],
): Promise<{ id: string; title: string }[]> {
  if (eventIds.length === 0) return [];
  return db
    .select({ id: heatingEvents.id, title: heatingEvents.title })
    .from(heatingEvents)
    .where(and(eq(heatingEvents.companyId, companyId), anyOf(heatingEvents.id, eventIds)));
}
