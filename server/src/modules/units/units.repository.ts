/**
 * Unit queries. Every function takes the company id and filters by it, so a unit
 * id of another company is simply not found (docs/architecture.md).
 */
import type { Role } from '@heizplan/contracts/account';
import { and, asc, count, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { secondFactorMissing } from '../../auth/auth.repository.ts';
import { anyOf } from '../../db/any-of.ts';
import { floorPosition } from '../../db/building-order.ts';
import type { Db } from '../../db/client.ts';
import { containsPattern } from '../../db/contains-pattern.ts';
import { naturally } from '../../db/natural-sort.ts';
import { executePrepared } from '../../db/prepared.ts';
import { buildings, companies, groups, heatingPlans, units, users } from '../../db/schema.ts';
import { heatingStartsChanged } from '../../heating/starts.repository.ts';
import { deliveredSetpoints, parseCarried } from '../../lorawan/delivered-setpoints.ts';
import type { UnitDownlinkStatus } from '../../lorawan/downlink-status.repository.ts';

export type UnitRecord = Awaited<ReturnType<typeof selectUnits>>[number];
export type UnitSort = 'name' | 'group' | 'building' | 'setpoint' | 'roomTemperature' | 'createdAt';

const hasOwnActivePlan = sql<boolean>`exists (select 1 from ${heatingPlans} where ${heatingPlans.unitId} = ${units.id} and ${heatingPlans.active})`;

function selectUnits(db: Db, where: SQL | undefined) {
  return db
    .select({
      unit: units,
      groupName: groups.name,
      buildingName: buildings.name,
      creatorName: users.name,
      hasOwnActivePlan,
    })
    .from(units)
    .leftJoin(groups, eq(groups.id, units.groupId))
    .leftJoin(buildings, eq(buildings.id, units.buildingId))
    .leftJoin(users, eq(users.id, units.createdBy))
    .where(where)
    .$dynamic();
}

export interface UnitListFilter {
  q?: string;
  groupId?: string;
  buildingId?: string;
  sort: UnitSort;
  order: 'asc' | 'desc';
  page: number;
  size: number;
}

/**
 * Sort keys of `unitsPage`'s statement: inside the page subquery (u = units, g = groups,
 * b = buildings) and on its result p, where the rows of the page are put in order once more.
 * By building: its name, then the floor's place in the building's own list of floors (the
 * order the user entered, cellar to roof), so the list reads as groups of building and floor.
 */
const pageSortColumns: Record<UnitSort, { inner: SQL[]; outer: SQL[] }> = {
  name: { inner: [naturally(sql`u.name`)], outer: [naturally(sql`p.name`)] },
  group: { inner: [naturally(sql`g.name`)], outer: [naturally(sql`p.group_name`)] },
  // The building's id keeps two buildings of one name apart.
  building: {
    inner: [naturally(sql`b.name`), sql`b.id`, floorPosition(sql`b.floors`, sql`u.floor`)],
    outer: [naturally(sql`p.building_name`), sql`p.building_id`, sql`p.floor_position`],
  },
  setpoint: { inner: [sql`u.setpoint`], outer: [sql`p.setpoint`] },
  roomTemperature: { inner: [sql`u.room_temperature`], outer: [sql`p.room_temperature`] },
  createdAt: { inner: [sql`u.created_at`], outer: [sql`p.created_at`] },
};

/** Pages 1 … this of each sort order, filter and size use a named prepared statement. */
const PREPARED_PAGES = 5;

const unitColumns = Object.entries(getTableColumns(units));

/** A `units` row as the driver returns it in a raw statement → the row Drizzle would map. */
function toUnitRow(raw: Record<string, unknown>): typeof units.$inferSelect {
  const row: Record<string, unknown> = {};
  for (const [key, column] of unitColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as typeof units.$inferSelect;
}

export interface UnitsPage {
  /** Whether the caller's user row is active; null when it does not exist (yet). */
  userActive: boolean | null;
  /** The caller's `users.tokens_valid_from` (last password reset or change). */
  tokensValidFrom: Date | null;
  /** The caller's role in the company; null when not a member. */
  role: Role | null;
  /** Whether the company's policy wants a second factor the caller lacks (decision 0078). */
  secondFactorMissing: boolean;
  /** Whether the caller's provider session (`sessionUid`) was ended in the session list (decision 0074). */
  sessionEnded: boolean;
  rows: UnitRecord[];
  /** Downlink status of each listed unit that has pending or failed devices or adjusted setpoints. */
  downlinks: Map<string, UnitDownlinkStatus>;
  /** Units matching the filter on all pages. */
  count: number;
}

/**
 * One page of the company's units (search `q` in unit and group names, `groupId`, `buildingId`,
 * sort, paging; the building's name from a left join inside the page subquery)
 * with the caller's membership, the total count and each listed unit's downlink status (newest
 * non-superseded downlink per device and the setpoints they carry, as `downlinkStatusByUnit`), in
 * one prepared statement
 * instead of five round trips: the units page is the most requested page of the app
 * (docs/decisions/0035). The page subquery stops at its limit on the company/name index; the
 * per-unit subqueries run for the listed units only. The caller's user row comes along, so the
 * route needs no lookup of its own (`checksUser`); nothing of the company is read for a
 * non-member.
 */
export async function unitsPage(
  db: Db,
  userId: string,
  companyId: string,
  f: UnitListFilter,
  sessionUid = '',
): Promise<UnitsPage> {
  // `m.role is not null`: for a non-member the page subqueries stop before reading anything.
  // The total joins the groups only to search their names: PostgreSQL does not drop the unused
  // join inside the lateral subquery, and it cost a quarter of the statement's time.
  const matching = sql`m.role is not null and u.company_id = ${companyId}
    ${f.groupId ? sql`and u.group_id = ${f.groupId}` : sql``}
    ${f.buildingId ? sql`and u.building_id = ${f.buildingId}` : sql``}
    ${f.q ? sql`and (u.name ilike ${containsPattern(f.q)} or g.name ilike ${containsPattern(f.q)})` : sql``}`;
  // Empty values sort last in both directions so the interesting rows come first.
  const direction = f.order === 'asc' ? sql`asc` : sql`desc`;
  const keys = (columns: SQL[]) =>
    sql.join(
      columns.map((column) => sql`${column} ${direction} nulls last`),
      sql`, `,
    );
  const { inner, outer } = pageSortColumns[f.sort];
  const byBuilding = f.sort === 'building';
  // Limit and offset are written into the text (validated integers): as parameters they kept
  // PostgreSQL on custom plans, planned anew each time. The first pages — nearly all requests —
  // are prepared statements; a deep page is one text more per connection, so it runs unnamed.
  const raw = await executePrepared(
    db,
    f.page <= PREPARED_PAGES ? 'units_page' : undefined,
    sql`
    select me.active as user_active, me.tokens_valid_from, m.role, t.total, p.*, c.name as creator_name,
      ${secondFactorMissing(companyId, sql`caller.id`, sql`m.role`)} as second_factor_missing,
      exists (select 1 from account_sessions s where s.session_uid = ${sessionUid}
        and s.ended_at is not null) as session_ended,
      exists (select 1 from heating_plans hp where hp.unit_id = p.id and hp.active) as has_own_active_plan,
      dl.pending, dl.failed, dl.carried
    from (select ${userId}::text as id) caller
    left join users me on me.id = caller.id
    left join memberships m on m.company_id = ${companyId} and m.user_id = caller.id
    left join lateral (
      select count(*) as total from units u
      ${f.q ? sql`left join groups g on g.id = u.group_id` : sql``}
      where ${matching}
    ) t on true
    left join lateral (
      select u.*, g.name as group_name, b.name as building_name
        ${byBuilding ? sql`, ${floorPosition(sql`b.floors`, sql`u.floor`)} as floor_position` : sql``}
      from units u left join groups g on g.id = u.group_id
        left join buildings b on b.id = u.building_id
      where ${matching}
      order by ${keys(inner)}, ${naturally(sql`u.name`)} asc, u.id asc
      limit ${sql.raw(String(f.size))} offset ${sql.raw(String((f.page - 1) * f.size))}
    ) p on true
    left join users c on c.id = p.created_by
    left join lateral (
      select count(*) filter (where l.state in ('queued', 'sent'))::int as pending,
             count(*) filter (where l.state = 'failed')::int as failed,
             -- Only values other than the unit's: what a device's step or range made of it.
             json_agg(json_build_array(l.setpoint, dv.model))
               filter (where l.state <> 'failed' and abs(l.setpoint - p.setpoint) > 0.001) as carried
      from (
        select distinct on (d.device_id) d.device_id, d.state, d.setpoint from downlinks d
        where d.company_id = ${companyId} and d.unit_id = p.id and d.state <> 'superseded'
        order by d.device_id, d.created_at desc
      ) l
      left join devices dv on dv.id = l.device_id
    ) dl on p.id is not null
    order by ${keys(outer)}, ${naturally(sql`p.name`)} asc, p.id asc`,
  );
  // Always one row at least: the caller's, with the page's rows beside it when there are any.
  const first = raw[0] ?? {};
  const downlinks = new Map<string, UnitDownlinkStatus>();
  // A page past the last one is the membership row alone.
  const rows = raw
    .filter((r) => r.id !== null)
    .map((r) => {
      const unit = toUnitRow(r);
      const pending = Number(r.pending ?? 0);
      const failed = Number(r.failed ?? 0);
      const delivered = deliveredSetpoints(unit.setpoint, parseCarried(r.carried));
      if (pending + failed + delivered.length > 0) downlinks.set(unit.id, { pending, failed, delivered });
      return {
        unit,
        groupName: (r.group_name as string | null) ?? null,
        buildingName: (r.building_name as string | null) ?? null,
        creatorName: (r.creator_name as string | null) ?? null,
        hasOwnActivePlan: Boolean(r.has_own_active_plan),
      };
    });
  return {
    userActive: (first.user_active as boolean | null | undefined) ?? null,
    tokensValidFrom: first.tokens_valid_from ? new Date(first.tokens_valid_from as string) : null,
    role: (first.role as Role | null | undefined) ?? null,
    secondFactorMissing: first.second_factor_missing === true,
    sessionEnded: first.session_ended === true,
    rows,
    downlinks,
    count: Number(first.total ?? 0),
  };
}

export async function findUnits(db: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return selectUnits(db, and(eq(units.companyId, companyId), inArray(units.id, ids))).orderBy(
    naturally(units.name),
    asc(units.id),
  );
}

/**
 * The company's unit `id` with its group, building and creator names and whether it has an active
 * plan of its own; null when it is not the company's.
 */
export async function findUnit(db: Db, companyId: string, id: string) {
  const [row] = await findUnits(db, companyId, [id]);
  return row ?? null;
}

export async function insertUnits(db: Db, rows: (typeof units.$inferInsert)[]) {
  return db.insert(units).values(rows).returning({ id: units.id });
}

/**
 * Changes the unit's columns in `patch`; @returns false for an unknown unit. Naming a building
 * makes the kept heating start of the one it leaves stale (the caller's `inputsChanged` does the
 * one it enters): the old building may have lost its earliest room.
 */
export async function updateUnit(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<typeof units.$inferInsert>,
) {
  if (patch.buildingId !== undefined) await heatingStartsChanged(db, { unitIds: [id] });
  const rows = await db
    .update(units)
    .set(patch)
    .where(and(eq(units.companyId, companyId), eq(units.id, id)))
    .returning({ id: units.id });
  return rows.length > 0;
}

/** Deletes one unit as `deleteUnits` does, in a transaction of its own. @returns false for an unknown unit. */
export async function deleteUnit(db: Db, companyId: string, id: string) {
  return db.transaction(async (tx) => (await deleteUnits(tx, companyId, [id])) > 0);
}

/**
 * The company's stored names equal to one of `names` ignoring case and surrounding spaces, other
 * than `exceptId`'s; callers hold the company's row lock (`lockUnitNames`) so the answer stays true.
 */
export async function takenUnitNames(
  db: Db,
  companyId: string,
  names: string[],
  exceptId?: string,
): Promise<string[]> {
  // Guard against a query that could only answer nothing.
  if (names.length === 0) return [];
  const keys = names.map((name) => name.trim().toLowerCase());
  const rows = await db
    .select({ name: units.name })
    .from(units)
    .where(
      and(
        eq(units.companyId, companyId),
        // One array parameter, not one per name: a bulk request brings up to 500.
        sql`lower(trim(${units.name})) = any(${sql.param(keys)}::text[])`,
        exceptId ? sql`${units.id} <> ${exceptId}` : undefined,
      ),
    );
  return rows.map((r) => r.name);
}

/** Row-locks the company until the transaction ends: serialises unit name checks and writes. */
export async function lockUnitNames(db: Db, companyId: string) {
  await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

/** Ids of `ids` that belong to `companyId` (to reject foreign ids in bulk requests). */
export async function ownedUnitIds(db: Db, companyId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), inArray(units.id, ids)));
  return rows.map((r) => r.id);
}

export async function groupExists(db: Db, companyId: string, groupId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), eq(groups.id, groupId)));
  return (row?.n ?? 0) > 0;
}

/**
 * Row-locks those of `ids` that are the company's units until the transaction ends (in id order,
 * as the scheduler locks them) and returns what a bulk change compares against: group and wall
 * control limits (°C). Another company's ids are simply not among them.
 */
export async function lockUnitsForChange(tx: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: units.id,
      groupId: units.groupId,
      wallControlMin: units.wallControlMin,
      wallControlMax: units.wallControlMax,
    })
    .from(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, ids)))
    .orderBy(asc(units.id))
    .for('update');
}

/** Sets `patch` on the company's units `ids` in one statement; @returns how many rows changed. */
export async function updateUnits(
  tx: Db,
  companyId: string,
  ids: string[],
  patch: Partial<typeof units.$inferInsert>,
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx
    .update(units)
    .set(patch)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, ids)))
    .returning({ id: units.id });
  return rows.length;
}

/**
 * Deletes the company's units `ids`; their plans, heating log, QR codes and the rest go with them
 * (foreign keys `on delete cascade`), devices stay without a unit (`set null`). Their buildings'
 * kept heating starts go stale in the same transaction: a building may have lost its earliest
 * room (decision 0069).
 * @returns how many were deleted.
 */
export async function deleteUnits(tx: Db, companyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx
    .delete(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, ids)))
    .returning({ buildingId: units.buildingId });
  await heatingStartsChanged(tx, { buildingIds: rows.map((r) => r.buildingId) });
  return rows.length;
}
