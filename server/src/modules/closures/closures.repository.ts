/**
 * Closure queries (decision 0051). Every query a member can reach is scoped by company id;
 * `closuresForUnits` serves the engine (scheduler, preview, occupants' view) and resolves a
 * closure's units when it runs: all units of the company (scope `company`), the units whose
 * current group is chosen (scope `groups`, so a unit moved into the group later is covered) or
 * the chosen units (scope `units`), never the closure's exceptions.
 */
import type { ClosureScope, HeatingMode } from '@heizplan/contracts/closures';
import { and, asc, count, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { closureGroups, closures, closureUnits, groups, units, users } from '../../db/schema.ts';

export type ClosureRow = typeof closures.$inferSelect;
export type ClosureInsert = Omit<typeof closures.$inferInsert, 'id' | 'companyId'>;

/** The units and groups a closure names; `exceptionIds` keep their normal heating. */
export interface ClosureTargets {
  unitIds: string[];
  groupIds: string[];
  exceptionIds: string[];
}

export interface ClosureListFilter {
  unitId?: string;
  includePast: boolean;
  from?: Date;
  to?: Date;
  page: number;
  size: number;
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
    )`;
}

function listWhere(companyId: string, f: ClosureListFilter, now: Date) {
  return and(
    eq(closures.companyId, companyId),
    f.unitId ? coversUnit(companyId, f.unitId) : undefined,
    f.includePast ? undefined : gt(closures.end, now),
    // Overlapping [from, to); the end is exclusive.
    f.from ? gt(closures.end, f.from) : undefined,
    f.to ? lt(closures.start, f.to) : undefined,
  );
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

/** Chosen units, chosen groups and exceptions (id, name) of each closure, by closure id. */
export async function targetsOf(db: Db, closureIds: string[]) {
  const unitsBy = new Map<string, Ref[]>();
  const groupsBy = new Map<string, Ref[]>();
  const exceptionsBy = new Map<string, Ref[]>();
  if (closureIds.length === 0) return { unitsBy, groupsBy, exceptionsBy };
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
  const add = (by: Map<string, Ref[]>, closureId: string, ref: Ref) =>
    by.set(closureId, [...(by.get(closureId) ?? []), ref]);
  for (const { closureId, exception, id, name } of unitRows)
    add(exception ? exceptionsBy : unitsBy, closureId, { id, name });
  for (const { closureId, id, name } of groupRows) add(groupsBy, closureId, { id, name });
  return { unitsBy, groupsBy, exceptionsBy };
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
 * Units a closure of scope `groups` or `units` reaches now: the current units of its groups or
 * its chosen units, without its exceptions. (Scope `company` reaches every unit of the company.)
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
  const unitRows = [
    ...targets.unitIds.map((unitId) => ({ closureId, unitId, exception: false })),
    ...targets.exceptionIds.map((unitId) => ({ closureId, unitId, exception: true })),
  ];
  if (unitRows.length > 0) await tx.insert(closureUnits).values(unitRows);
  if (targets.groupIds.length > 0)
    await tx.insert(closureGroups).values(targets.groupIds.map((groupId) => ({ closureId, groupId })));
}

export async function deleteClosure(tx: Db, companyId: string, closureId: string) {
  await tx.delete(closures).where(and(eq(closures.companyId, companyId), eq(closures.id, closureId)));
}

/** Makes units due now so the scheduler re-evaluates them on its next tick (or `wake()`). */
export async function markUnitsDue(tx: Db, companyId: string, unitIds: string[], now: Date) {
  if (unitIds.length === 0) return;
  await tx
    .update(units)
    .set({ nextChangeAt: now })
    .where(and(eq(units.companyId, companyId), anyOf(units.id, unitIds)));
}

/** A closure as the engine's caller sees it: the mode still to be turned into °C. */
export interface UnitClosure {
  id: string;
  start: Date;
  end: Date;
  mode: HeatingMode;
}

/**
 * The closure's groups, or its units (`exception` false) or exceptions, as comma-joined text
 * for a select list: the same on both drivers (array and json results are not).
 */
type IdList = SQL<string | null>;
const groupList: IdList = sql`(select string_agg(${closureGroups.groupId}::text, ',')
  from ${closureGroups} where ${closureGroups.closureId} = ${closures.id})`;
function unitList(exception: boolean): IdList {
  const which = exception ? sql`${closureUnits.exception}` : sql`not ${closureUnits.exception}`;
  return sql`(select string_agg(${closureUnits.unitId}::text, ',')
    from ${closureUnits} where ${closureUnits.closureId} = ${closures.id} and ${which})`;
}

const idList = (joined: string | null): Set<string> =>
  new Set(joined ? joined.split(',').filter((id) => id !== '') : []);

/**
 * The closures covering each of the units given (any companies) that end after `since`, by unit
 * id, in ONE query however many units: the closures of the units' companies with their groups,
 * chosen units and exceptions as lists, resolved against each unit's current group here. Each
 * list is ordered by start, then creation.
 */
export async function closuresForUnits(
  db: Db,
  unitRows: { id: string; companyId: string; groupId: string | null }[],
  since: Date,
): Promise<Map<string, UnitClosure[]>> {
  const result = new Map<string, UnitClosure[]>();
  if (unitRows.length === 0) return result;
  const companyIds = [...new Set(unitRows.map((u) => u.companyId))];
  const rows = await db
    .select({
      id: closures.id,
      companyId: closures.companyId,
      start: closures.start,
      end: closures.end,
      mode: closures.mode,
      scope: closures.scope,
      groupIds: groupList,
      unitIds: unitList(false),
      exceptionIds: unitList(true),
    })
    .from(closures)
    .where(and(anyOf(closures.companyId, companyIds), gt(closures.end, since)))
    .orderBy(asc(closures.start), asc(closures.createdAt), asc(closures.id));
  if (rows.length === 0) return result;
  const byCompany = new Map<
    string,
    {
      closure: UnitClosure;
      scope: ClosureScope;
      groupIds: Set<string>;
      unitIds: Set<string>;
      exceptionIds: Set<string>;
    }[]
  >();
  for (const row of rows) {
    const list = byCompany.get(row.companyId) ?? [];
    list.push({
      closure: { id: row.id, start: row.start, end: row.end, mode: row.mode },
      scope: row.scope,
      groupIds: idList(row.groupIds),
      unitIds: idList(row.unitIds),
      exceptionIds: idList(row.exceptionIds),
    });
    byCompany.set(row.companyId, list);
  }
  for (const unit of unitRows) {
    const covering = (byCompany.get(unit.companyId) ?? []).filter(
      (c) =>
        !c.exceptionIds.has(unit.id) &&
        (c.scope === 'company' ||
          (c.scope === 'groups' && unit.groupId !== null && c.groupIds.has(unit.groupId)) ||
          (c.scope === 'units' && c.unitIds.has(unit.id))),
    );
    if (covering.length > 0)
      result.set(
        unit.id,
        covering.map((c) => c.closure),
      );
  }
  return result;
}

/** Name and mode of the closures given, for a preview naming them. */
export async function closureNames(
  db: Db,
  companyId: string,
  closureIds: string[],
): Promise<{ id: string; name: string; mode: HeatingMode }[]> {
  if (closureIds.length === 0) return [];
  return db
    .select({ id: closures.id, name: closures.name, mode: closures.mode })
    .from(closures)
    .where(and(eq(closures.companyId, companyId), inArray(closures.id, closureIds)))
    .orderBy(asc(closures.start), asc(closures.id));
}
