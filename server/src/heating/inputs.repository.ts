/**
 * Every query the heating engine's inputs need, in one place: whatever the engine weighs for a
 * unit is read here, and the feature modules that write those tables (plans, events, closures,
 * buildings and their own days, booking feeds, units) no longer hold the engine's reads. In order:
 * - the units themselves (their manual and occupant changes and the pause live on the unit row),
 *   locked where an evaluation writes them back;
 * - the companies' heating settings (zone, range and the closures' °C);
 * - the unit and group plans;
 * - one-time events, resolved through the units' current groups;
 * - entered closures (with their chosen groups, units, buildings and exceptions);
 * - the buildings' public and school holiday settings and the company's own days;
 * - the bookings of fresh booking feeds (decision 0053);
 * - optimum start: the companies' mode, the learned warm-up models and the devices' models (the
 *   outdoor temperature is read through weather/, which is no feature module).
 * The batch reads take the units of any companies and answer in a fixed number of queries however
 * many units (the scheduler evaluates thousands per tick); the reads a member's request reaches
 * (names for a preview, one company's settings) are scoped by company id.
 */
import type { HeatingMode } from '@heizplan/contracts/closures';
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { anyOf, sqlArray } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import {
  bookingFeeds,
  bookings,
  buildingDays,
  buildings,
  closureBuildings,
  closureGroups,
  closures,
  closureUnits,
  companies,
  devices,
  heatingEventGroups,
  heatingEvents,
  heatingEventUnits,
  heatingPlans,
  units,
  unitWarmUpModels,
} from '../db/schema.ts';
import type { HeatingEvent as EngineEvent, HeatingBooking } from './engine/types.ts';
import type { HolidayBuilding } from './holidays.ts';
import type { CompanyHeating } from './inputs.ts';

// Units: the rows carry the manual and occupant changes and the pause.

/** Locks the company's units `unitIds` for update (waiting for a running tick), by id. */
export async function lockUnits(tx: Db, companyId: string, unitIds: string[]) {
  return tx
    .select()
    .from(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, unitIds)))
    .orderBy(asc(units.id))
    .for('update');
}

/** The company's units `unitIds` that have a setpoint applied. */
export async function appliedUnits(tx: Db, companyId: string, unitIds: string[]) {
  return tx
    .select()
    .from(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, unitIds), isNotNull(units.setpoint)));
}

/** The fields of an `EngineUnit`: the only columns of `units` the scheduler's claim selects. */
export const ENGINE_UNIT_KEYS = [
  'id',
  'companyId',
  'groupId',
  'buildingId',
  'floor',
  'wallControlMin',
  'wallControlMax',
  'pausedAt',
  'resumedAt',
  'manualKind',
  'manualSetpoint',
  'manualAt',
  'manualUntil',
  'setpoint',
  'setpointSource',
  'ignoreWallControl',
  'optimumStart',
  'roomTemperature',
  'createdAt',
] as const;

/**
 * What an evaluation reads of a unit and compares with what it resolves: where the unit is
 * (company, group, building, floor), its wall control limits (°C), pause, latest manual change,
 * optimum start and room temperature (°C), and what was applied last. The scheduler claims only
 * these columns: mapping a whole `units` row per unit was a tenth of a tick (decision 0073).
 */
export type EngineUnit = Pick<typeof units.$inferSelect, (typeof ENGINE_UNIT_KEYS)[number]>;

/** The columns of an `EngineUnit`, as the claim selects them. */
const engineUnitColumns = sql.raw(ENGINE_UNIT_KEYS.map((key) => units[key].name).join(', '));

const dateOrNull = (value: unknown) => (value === null ? null : new Date(value as string | Date));
const numberOrNull = (value: unknown) => (value === null ? null : Number(value));

/** A row of `engineUnitColumns` as the driver returns it (timestamps as text or Date) → an `EngineUnit`. */
function toEngineUnit(r: Record<string, unknown>): EngineUnit {
  return {
    id: r.id as string,
    companyId: r.company_id as string,
    groupId: r.group_id as string | null,
    buildingId: r.building_id as string | null,
    floor: r.floor as string | null,
    wallControlMin: numberOrNull(r.wall_control_min),
    wallControlMax: numberOrNull(r.wall_control_max),
    pausedAt: dateOrNull(r.paused_at),
    resumedAt: dateOrNull(r.resumed_at),
    manualKind: r.manual_kind as EngineUnit['manualKind'],
    manualSetpoint: numberOrNull(r.manual_setpoint),
    manualAt: dateOrNull(r.manual_at),
    manualUntil: dateOrNull(r.manual_until),
    setpoint: numberOrNull(r.setpoint),
    setpointSource: r.setpoint_source as EngineUnit['setpointSource'],
    ignoreWallControl: r.ignore_wall_control as boolean,
    optimumStart: r.optimum_start as boolean,
    roomTemperature: numberOrNull(r.room_temperature),
    createdAt: new Date(r.created_at as string | Date),
  };
}

/** The first 48 bits of a uuid as a fraction of the uuid space: where it lies, 0 ≤ x < 1. */
const uuidPosition = (id: string) => Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) / 2 ** 48;

/**
 * Whether `ids` (random uuids in uuid order) make up at least a quarter of the `unitCount` units
 * expected between the first and the last of them.
 */
export function lieDense(ids: readonly string[], unitCount: number): boolean {
  const first = ids[0];
  const last = ids.at(-1);
  if (!first || !last) return false;
  return ids.length * 4 >= unitCount * (uuidPosition(last) - uuidPosition(first));
}

/**
 * Locks those of `ids` (in uuid order) that are still due at `now`, skipping units another
 * instance is working on; one that instance committed meanwhile is no longer due when its lock is
 * taken, so it is left out. Reads only what an evaluation needs, mapped by hand.
 *
 * How it finds them depends on how dense they lie among the `unitCount` units (random uuids
 * spread evenly): a batch that makes up at least a quarter of the units between its first and
 * last id is claimed as that id range, one scan of the primary key (and any unit of the range due
 * by now with it); a sparse one by its ids. PostgreSQL scans the whole table for thousands of ids
 * given as one array: 31 of the claim's 36 ms at 100,000 units, where the range takes 11
 * (decision 0073).
 */
export async function claimUnits(tx: Db, ids: string[], now: Date, unitCount: number): Promise<EngineUnit[]> {
  const first = ids[0];
  const last = ids.at(-1);
  if (!first || !last) return [];
  const which = lieDense(ids, unitCount)
    ? sql`id >= ${first}::uuid and id <= ${last}::uuid`
    : sql`id = any(${sqlArray(ids, 'uuid')})`;
  const result = await tx.execute(sql`
    select ${engineUnitColumns} from ${units}
    where ${which} and next_change_at <= ${now.toISOString()}::timestamptz
    for update skip locked`);
  return rowsOf<Record<string, unknown>>(result).map(toEngineUnit);
}

/** The units of `buildingIds`. */
export async function unitsOfBuildings(db: Db, buildingIds: string[]) {
  return db.select().from(units).where(anyOf(units.buildingId, buildingIds));
}

// Companies' heating settings.

const companyHeatingColumns = {
  id: companies.id,
  timeZone: companies.timeZone,
  minTemperature: companies.minTemperature,
  maxTemperature: companies.maxTemperature,
  frostProtection: companies.frostProtection,
  economyTemperature: companies.economyTemperature,
  standbyTemperature: companies.standbyTemperature,
};

/** The engine's settings (`CompanyHeating`) of `companyIds`. */
export async function companiesHeating(db: Db, companyIds: string[]): Promise<CompanyHeating[]> {
  return db.select(companyHeatingColumns).from(companies).where(inArray(companies.id, companyIds));
}

/** The company's heating settings, or null when it does not exist. */
export async function findCompanyHeating(db: Db, companyId: string): Promise<CompanyHeating | null> {
  const [row] = await db.select(companyHeatingColumns).from(companies).where(eq(companies.id, companyId));
  return row ?? null;
}

// Plans.

/** The plans of `unitIds` and of `groupIds`. */
export async function plansOf(db: Db, unitIds: string[], groupIds: string[]) {
  return db
    .select()
    .from(heatingPlans)
    .where(
      groupIds.length > 0
        ? or(anyOf(heatingPlans.unitId, unitIds), anyOf(heatingPlans.groupId, groupIds))
        : anyOf(heatingPlans.unitId, unitIds),
    );
}

// One-time events.

/** Events overlapping [from, to); `to` null = no upper bound. */
function eventOverlaps(from: Date, to: Date | null): SQL | undefined {
  return and(
    to ? lt(heatingEvents.start, to) : undefined,
    or(isNull(heatingEvents.end), gte(heatingEvents.end, from)),
  );
}

/**
 * Engine events per unit id for the units given (any companies), overlapping [from, to)
 * (`to` null = no upper bound), including deleted running events (their end is the deletion).
 * Group-mode events reach a unit through its current `groupId`. Each list is in creation order,
 * which the engine uses to break ties between events starting at the same instant.
 */
export async function eventsForUnits(
  db: Db,
  unitRows: { id: string; companyId: string; groupId: string | null }[],
  from: Date,
  to: Date | null,
): Promise<Map<string, EngineEvent[]>> {
  const result = new Map<string, EngineEvent[]>();
  if (unitRows.length === 0) return result;
  const companyIds = [...new Set(unitRows.map((u) => u.companyId))];
  const unitIds = unitRows.map((u) => u.id);
  const groupIds = [...new Set(unitRows.flatMap((u) => (u.groupId ? [u.groupId] : [])))];
  const window = and(inArray(heatingEvents.companyId, companyIds), eventOverlaps(from, to));
  const columns = {
    id: heatingEvents.id,
    start: heatingEvents.start,
    end: heatingEvents.end,
    temperature: heatingEvents.temperature,
    preventRegular: heatingEvents.preventRegular,
    createdAt: heatingEvents.createdAt,
  };
  const [direct, viaGroup] = await Promise.all([
    db
      .select({ ...columns, owner: heatingEventUnits.unitId })
      .from(heatingEventUnits)
      .innerJoin(heatingEvents, eq(heatingEvents.id, heatingEventUnits.eventId))
      .where(and(anyOf(heatingEventUnits.unitId, unitIds), window)),
    groupIds.length === 0
      ? []
      : db
          .select({ ...columns, owner: heatingEventGroups.groupId })
          .from(heatingEventGroups)
          .innerJoin(heatingEvents, eq(heatingEvents.id, heatingEventGroups.eventId))
          .where(and(anyOf(heatingEventGroups.groupId, groupIds), window)),
  ]);
  type Row = (typeof direct)[number];
  const byOwner = new Map<string, Row[]>();
  for (const row of [...direct, ...viaGroup])
    byOwner.set(row.owner, [...(byOwner.get(row.owner) ?? []), row]);
  for (const unit of unitRows) {
    const rows = [
      ...(byOwner.get(unit.id) ?? []),
      ...(unit.groupId ? (byOwner.get(unit.groupId) ?? []) : []),
    ];
    if (rows.length === 0) continue;
    rows.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    result.set(
      unit.id,
      rows.map((r) => ({
        id: r.id,
        start: r.start,
        end: r.end,
        temperature: r.temperature,
        preventRegular: r.preventRegular,
      })),
    );
  }
  return result;
}

// Entered closures.

/**
 * The closure (its last occurrence) ends after `at`: `end` for a closure that does not recur
 * (also one written without `last_end`, as the demo does), `last_end` for a recurring one, whose
 * null means the recurrence has no end.
 */
export const endsAfter = (at: Date) =>
  or(
    and(isNull(closures.recurrence), gt(closures.end, at)),
    and(isNotNull(closures.recurrence), or(isNull(closures.lastEnd), gt(closures.lastEnd, at))),
  );

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

/**
 * The closures of `companyIds` that may have an occurrence in [`since`, `until`), with their
 * company's time zone and chosen groups, units and exceptions (comma-joined text), by start;
 * closure-coverage.ts turns them into occurrences per unit.
 */
export async function coveringClosures(db: Db, companyIds: string[], since: Date, until: Date) {
  return db
    .select({
      id: closures.id,
      companyId: closures.companyId,
      timeZone: companies.timeZone,
      start: closures.start,
      end: closures.end,
      recurrence: closures.recurrence,
      mode: closures.mode,
      scope: closures.scope,
      groupIds: groupList,
      unitIds: unitList(false),
      exceptionIds: unitList(true),
    })
    .from(closures)
    .innerJoin(companies, eq(companies.id, closures.companyId))
    .where(and(anyOf(closures.companyId, companyIds), endsAfter(since), lt(closures.start, until)))
    .orderBy(asc(closures.start), asc(closures.createdAt), asc(closures.id));
}

/** The buildings (and floors; '' for a whole building) chosen by the closures `closureIds`. */
export async function closureBuildingChoices(db: Db, closureIds: string[]) {
  return db
    .select({
      closureId: closureBuildings.closureId,
      buildingId: closureBuildings.buildingId,
      floor: closureBuildings.floor,
    })
    .from(closureBuildings)
    .where(anyOf(closureBuildings.closureId, closureIds));
}

// Public and school holidays and own days: the buildings' settings and the company's days.

/**
 * The buildings `buildingIds` (any companies) with what their calendars need, by id: one query
 * for a whole batch of units.
 */
export async function holidayBuildings(db: Db, buildingIds: string[]): Promise<Map<string, HolidayBuilding>> {
  if (buildingIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: buildings.id,
      state: buildings.state,
      region: buildings.region,
      publicHolidays: buildings.publicHolidays,
      holidayMode: buildings.holidayMode,
      schoolHolidays: buildings.schoolHolidays,
    })
    .from(buildings)
    .where(anyOf(buildings.id, buildingIds));
  return new Map(rows.map((r) => [r.id, r]));
}

/** State, region and holiday mode of the company's buildings among `buildingIds`. */
export async function buildingHolidaySettings(db: Db, companyId: string, buildingIds: string[]) {
  if (buildingIds.length === 0) return [];
  return db
    .select({
      id: buildings.id,
      state: buildings.state,
      region: buildings.region,
      holidayMode: buildings.holidayMode,
    })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), inArray(buildings.id, buildingIds)));
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

// Bookings of booking feeds.

/** Title and own times of the company's bookings given (a preview naming them). */
export async function bookingDetails(
  db: Db,
  companyId: string,
  ids: string[],
): Promise<{ id: string; title: string; start: Date; end: Date }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: bookings.id, title: bookings.title, start: bookings.start, end: bookings.end })
    .from(bookings)
    .innerJoin(bookingFeeds, eq(bookingFeeds.id, bookings.feedId))
    .where(and(eq(bookingFeeds.companyId, companyId), anyOf(bookings.id, ids)))
    .orderBy(asc(bookings.start), asc(bookings.id));
}

/**
 * The heating bookings of each of the units given, by unit id, in ONE query however many units:
 * the bookings of the units' own feeds and of the feeds linking them that heat, end after
 * `since` and begin heating before `until` — plus each unit's first one after `until`, so the
 * engine still wakes for a booking past the horizon — of feeds that are fresh at `now` (last
 * fetch succeeded less than `staleAfterMs` ago; decision 0053: a stale feed's bookings do not
 * count). Heating starts the feed's pre-heat minutes before the booking; the temperature is the
 * feed's (null: the highest switch point of the day's plan). Each list is ordered by start.
 */
export async function bookingsForUnits(
  db: Db,
  unitIds: string[],
  window: { since: Date; until: Date; now: Date; staleAfterMs: number },
): Promise<Map<string, HeatingBooking[]>> {
  const result = new Map<string, HeatingBooking[]>();
  if (unitIds.length === 0) return result;
  const ids = sql`${sql.param(unitIds)}::uuid[]`;
  const since = window.since.toISOString();
  const until = window.until.toISOString();
  const freshAfter = new Date(window.now.getTime() - window.staleAfterMs).toISOString();
  const rows = rowsOf<{
    unit_id: string;
    id: string;
    start: string | Date;
    booked_start: string | Date;
    end: string | Date;
    temperature: number | null;
  }>(
    await db.execute(sql`
      with fu as (
        select f.id as feed_id, f.unit_id, f.preheat_minutes, f.temperature
        from booking_feeds f
        where f.unit_id = any(${ids}) and f.last_error is null and f.last_success_at > ${freshAfter}::timestamptz
        union
        select f.id, l.unit_id, f.preheat_minutes, f.temperature
        from booking_feed_units l join booking_feeds f on f.id = l.feed_id
        where l.unit_id = any(${ids}) and f.last_error is null and f.last_success_at > ${freshAfter}::timestamptz
      ), b as (
        select fu.unit_id, b.id, b.start - make_interval(mins => fu.preheat_minutes) as start, b.start as booked_start, b."end", fu.temperature
        from fu join bookings b on b.feed_id = fu.feed_id
        where b.heats and b."end" > ${since}::timestamptz
      )
      select unit_id, id, start, booked_start, "end", temperature from b where start < ${until}::timestamptz
      union all
      select * from (
        select distinct on (unit_id) unit_id, id, start, booked_start, "end", temperature from b
        where start >= ${until}::timestamptz order by unit_id, start, id
      ) later
      order by unit_id, start, id`),
  );
  for (const row of rows) {
    const list = result.get(row.unit_id) ?? [];
    list.push({
      id: row.id,
      start: new Date(row.start),
      bookedStart: new Date(row.booked_start),
      end: new Date(row.end),
      temperature: row.temperature === null ? null : Number(row.temperature),
    });
    result.set(row.unit_id, list);
  }
  return result;
}

// Optimum start: the mode, the learned warm-up models and the device models.

/** Optimum start mode and longest lead (minutes) of `companyIds`. */
export async function companiesOptimum(db: Db, companyIds: string[]) {
  return db
    .select({ id: companies.id, mode: companies.optimumStart, maxLead: companies.optimumMaxLeadMinutes })
    .from(companies)
    .where(inArray(companies.id, companyIds));
}

/** The company's optimum start mode, or null when the company does not exist. */
export async function findCompanyOptimum(db: Db, companyId: string): Promise<'shadow' | 'on' | 'off' | null> {
  const [row] = await db
    .select({ mode: companies.optimumStart })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.mode ?? null;
}

/** The learned warm-up models of `unitIds`. */
export async function warmUpModelsOf(db: Db, unitIds: string[]) {
  return db.select().from(unitWarmUpModels).where(anyOf(unitWarmUpModels.unitId, unitIds));
}

/** The learned model of one unit, or null when none is stored yet. */
export async function findWarmUpModel(db: Db, companyId: string, unitId: string) {
  const [row] = await db
    .select()
    .from(unitWarmUpModels)
    .where(and(eq(unitWarmUpModels.companyId, companyId), eq(unitWarmUpModels.unitId, unitId)));
  return row ?? null;
}

/** The device models in `unitIds`, one row per device. */
export async function deviceModelsOfUnits(db: Db, unitIds: string[]) {
  return db
    .select({ unitId: devices.unitId, model: devices.model })
    .from(devices)
    .where(and(anyOf(devices.unitId, unitIds), isNotNull(devices.unitId)));
}
