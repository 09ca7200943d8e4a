/**
 * The queries of the engine's application to units: the units due and their locks, the engine's
 * inputs that live in tables (company settings, plans, warm-up models, device models), what an
 * evaluation writes (setpoints °C on `units`, `heating_log` entries, `setpoint_outbox` rows) and
 * the outbox's claim by the scheduler, and the warm-up learning's history (room °C from
 * `telemetry`, logged setpoints) and its stored model per unit.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import {
  companies,
  devices,
  heatingLog,
  heatingPlans,
  setpointOutbox,
  telemetry,
  units,
  unitWarmUpModels,
} from '../db/schema.ts';
import type { LogKind } from './engine/types.ts';
import type { CompanyHeating, UnitRow } from './inputs.ts';
import { heatingStartsChanged } from './starts.repository.ts';

/**
 * Rows go to PostgreSQL as one JSON parameter read with `jsonb_to_recordset`: one parameter
 * instead of one per value keeps thousands of rows per statement cheap to send and parse.
 */
const jsonRows = (rows: object[]) => sql`${JSON.stringify(rows)}::jsonb`;

/** A setpoint to send to every device of a unit (a setpoint_outbox row before it is sent). */
export interface PendingSetpoint {
  companyId: string;
  unitId: string;
  /** °C */
  setpoint: number;
  wallControlMin: number | null;
  wallControlMax: number | null;
  ignoreWallControl: boolean;
  reason: LogKind;
  at: Date;
}

/** Queues setpoints for the scheduler's next drain. */
export async function insertOutbox(tx: Db, rows: PendingSetpoint[]) {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    company_id: r.companyId,
    unit_id: r.unitId,
    setpoint: r.setpoint,
    wall_control_min: r.wallControlMin,
    wall_control_max: r.wallControlMax,
    ignore_wall_control: r.ignoreWallControl,
    reason: r.reason,
    at: r.at.toISOString(),
  }));
  await tx.execute(sql`
    insert into ${setpointOutbox} (company_id, unit_id, setpoint, wall_control_min, wall_control_max, ignore_wall_control, reason, at)
    select company_id, unit_id, setpoint, wall_control_min, wall_control_max, ignore_wall_control, reason, at
    from jsonb_to_recordset(${jsonRows(values)}) as x(company_id uuid, unit_id uuid, setpoint real, wall_control_min real,
      wall_control_max real, ignore_wall_control boolean, reason text, at timestamptz)`);
}

/** Writes the changes' heating log entries (`heating_log` columns, snake_case). */
export async function insertHeatingLog(tx: Db, logs: object[]): Promise<void> {
  await tx.execute(sql`
    insert into ${heatingLog} (company_id, unit_id, kind, old_setpoint, new_setpoint, at, actor_id, details)
    select company_id, unit_id, kind, old_setpoint, new_setpoint, at, actor_id, details
    from jsonb_to_recordset(${jsonRows(logs)}) as x(company_id uuid, unit_id uuid, kind text, old_setpoint real,
      new_setpoint real, at timestamptz, actor_id text, details jsonb)`);
}

/** Stores each unit's resolved setpoint (°C), source, since, wall control flag and next look. */
export async function storeResolutions(tx: Db, updates: object[]): Promise<void> {
  await tx.execute(sql`
    update ${units} as u set
      setpoint = v.setpoint, setpoint_source = v.source, setpoint_since = v.since,
      ignore_wall_control = v.ignore, next_change_at = v.next
    from jsonb_to_recordset(${jsonRows(updates)}) as v(id uuid, setpoint real, source text, since timestamptz,
      ignore boolean, next timestamptz)
    where u.id = v.id`);
}

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

/**
 * Ids of the units due at `now`, most overdue first: one scan of `units` per tick. There is no
 * index on `next_change_at`, so the scheduler's and the ingest's updates of units are HOT
 * (docs/decisions/0035); the scan costs ~15 ms per 100,000 units.
 */
export async function dueUnitIds(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(lte(units.nextChangeAt, now))
    .orderBy(asc(units.nextChangeAt));
  return rows.map((r) => r.id);
}

/**
 * Locks those of `ids` that are still due, skipping units another instance is working on; one
 * that instance committed meanwhile is no longer due when its lock is taken, so it is left out.
 */
export async function claimUnits(tx: Db, ids: string[], now: Date): Promise<UnitRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(units)
    .where(and(anyOf(units.id, ids), lte(units.nextChangeAt, now)))
    .orderBy(asc(units.nextChangeAt))
    .for('update', { skipLocked: true });
}

/** Which units of one company a change of heating inputs concerns (see `inputsChanged`). */
export type DueScope =
  | { companyId: string; unitIds: readonly string[] }
  | { companyId: string; buildingId: string }
  | { companyId: string; all: true };

/**
 * Makes the company's units in `scope` due at `now` (the scheduler's next tick evaluates them)
 * and their buildings' kept heating starts stale (decision 0069), in one statement each. Scoped by
 * the company: ids of another company's units are ignored.
 */
export async function markUnitsDue(db: Db, scope: DueScope, now: Date): Promise<void> {
  const { companyId } = scope;
  if ('unitIds' in scope) {
    if (scope.unitIds.length === 0) return;
    await db
      .update(units)
      .set({ nextChangeAt: now })
      .where(and(eq(units.companyId, companyId), anyOf(units.id, [...scope.unitIds])));
    await heatingStartsChanged(db, { unitIds: [...scope.unitIds] });
  } else if ('buildingId' in scope) {
    await db
      .update(units)
      .set({ nextChangeAt: now })
      .where(and(eq(units.companyId, companyId), eq(units.buildingId, scope.buildingId)));
    await heatingStartsChanged(db, { buildingIds: [scope.buildingId] });
  } else {
    await db.update(units).set({ nextChangeAt: now }).where(eq(units.companyId, companyId));
    await heatingStartsChanged(db, { companyId });
  }
}

export interface OutboxEntry extends PendingSetpoint {
  id: number;
  /** A newer row for the same unit is pending: this setpoint is stale and is not sent. */
  superseded: boolean;
}

/**
 * Claims and deletes up to `limit` outbox rows in one statement (a throwing sink rolls the
 * delete back). A row with a newer pending row for its unit — in this batch or another
 * instance's — is marked superseded, so a device never gets an old setpoint after a new one
 * and no LoRaWAN downlink is spent on a value already replaced.
 */
export async function claimOutbox(tx: Db, limit: number): Promise<OutboxEntry[]> {
  const result = await tx.execute(sql`
    with claimed as (
      select id from ${setpointOutbox} order by id limit ${limit} for update skip locked
    ), deleted as (
      delete from ${setpointOutbox} o using claimed c where o.id = c.id returning o.*
    )
    select d.*, exists (
      select 1 from ${setpointOutbox} n where n.unit_id = d.unit_id and n.id > d.id
    ) as superseded
    from deleted d order by d.id`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: String(r.company_id),
    unitId: String(r.unit_id),
    setpoint: Number(r.setpoint),
    wallControlMin: r.wall_control_min === null ? null : Number(r.wall_control_min),
    wallControlMax: r.wall_control_max === null ? null : Number(r.wall_control_max),
    ignoreWallControl: Boolean(r.ignore_wall_control),
    reason: r.reason as LogKind,
    at: new Date(r.at as string | Date),
    superseded: Boolean(r.superseded),
  }));
}

/** Deletes the outbox rows of `unitIds`: setpoints sent now replace what waited for them. */
export async function deleteOutboxOfUnits(tx: Db, unitIds: string[]): Promise<void> {
  await tx.delete(setpointOutbox).where(anyOf(setpointOutbox.unitId, unitIds));
}

/** The devices (id and unit) assigned to `unitIds`, by device id. */
export async function devicesOfUnitIds(db: Db, unitIds: string[]) {
  return db
    .select({ id: devices.id, unitId: devices.unitId })
    .from(devices)
    .where(anyOf(devices.unitId, unitIds))
    .orderBy(devices.id);
}

/** The units of `buildingIds`. */
export async function unitsOfBuildings(db: Db, buildingIds: string[]) {
  return db.select().from(units).where(anyOf(units.buildingId, buildingIds));
}

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

/** The company's heating settings, or null when it does not exist. */
export async function findCompanyHeating(db: Db, companyId: string): Promise<CompanyHeating | null> {
  const [row] = await db.select(companyHeatingColumns).from(companies).where(eq(companies.id, companyId));
  return row ?? null;
}

/** Optimum start mode and longest lead (minutes) of `companyIds`. */
export async function companiesOptimum(db: Db, companyIds: string[]) {
  return db
    .select({ id: companies.id, mode: companies.optimumStart, maxLead: companies.optimumMaxLeadMinutes })
    .from(companies)
    .where(inArray(companies.id, companyIds));
}

/** The learned warm-up models of `unitIds`. */
export async function warmUpModelsOf(db: Db, unitIds: string[]) {
  return db.select().from(unitWarmUpModels).where(anyOf(unitWarmUpModels.unitId, unitIds));
}

/** The device models in `unitIds`, one row per device. */
export async function deviceModelsOfUnits(db: Db, unitIds: string[]) {
  return db
    .select({ unitId: devices.unitId, model: devices.model })
    .from(devices)
    .where(and(anyOf(devices.unitId, unitIds), isNotNull(devices.unitId)));
}

/** The company's optimum start mode, or null when the company does not exist. */
export async function findCompanyOptimum(db: Db, companyId: string): Promise<'shadow' | 'on' | 'off' | null> {
  const [row] = await db
    .select({ mode: companies.optimumStart })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.mode ?? null;
}

/** The learned model of one unit, or null when none is stored yet. */
export async function findWarmUpModel(db: Db, companyId: string, unitId: string) {
  const [row] = await db
    .select()
    .from(unitWarmUpModels)
    .where(and(eq(unitWarmUpModels.companyId, companyId), eq(unitWarmUpModels.unitId, unitId)));
  return row ?? null;
}

/** Units taking part in optimum start of companies that run it, not learned since `learnedBefore`. */
export async function unitsToLearn(db: Db, learnedBefore: Date) {
  return db
    .select({
      id: units.id,
      companyId: units.companyId,
      buildingId: units.buildingId,
      learnedThrough: unitWarmUpModels.learnedThrough,
    })
    .from(units)
    .innerJoin(companies, eq(companies.id, units.companyId))
    .leftJoin(unitWarmUpModels, eq(unitWarmUpModels.unitId, units.id))
    .where(
      and(
        eq(units.optimumStart, true),
        ne(companies.optimumStart, 'off'),
        sql`(${unitWarmUpModels.learnedThrough} is null or ${unitWarmUpModels.learnedThrough} < ${learnedBefore.toISOString()})`,
      ),
    );
}

/**
 * Makes those of `unitIds` due at `now` whose company acts on optimum start (mode 'on'), and
 * their buildings' kept heating starts stale: a new model moves the pre-heat.
 */
export async function markOptimumUnitsDue(db: Db, unitIds: string[], now: Date): Promise<void> {
  // `in ()` is no SQL: nothing to mark.
  if (unitIds.length === 0) return;
  const marked = rowsOf<{ building_id: string | null }>(
    await db.execute(sql`
      update ${units} set next_change_at = ${now.toISOString()}
      from ${companies}
      where ${companies.id} = ${units.companyId} and ${companies.optimumStart} = 'on'
        and ${units.id} in (${sql.join(
          unitIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
      returning ${units.buildingId} as building_id`),
  );
  await heatingStartsChanged(db, { buildingIds: marked.map((r) => r.building_id) });
}

/** The unit's room temperatures (°C) in [`since`, `until`), oldest first. */
export async function roomReadings(db: Db, unitId: string, since: Date, until: Date) {
  return db
    .select({ at: telemetry.time, temperature: telemetry.roomTemperature })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.unitId, unitId),
        gte(telemetry.time, since),
        lt(telemetry.time, until),
        isNotNull(telemetry.roomTemperature),
      ),
    )
    .orderBy(asc(telemetry.time));
}

/** The unit's last logged setpoint (°C) before `at`, with its source. */
export async function setpointBefore(db: Db, unitId: string, at: Date) {
  const [before] = await db
    .select({ at: heatingLog.at, setpoint: heatingLog.newSetpoint, source: heatingLog.kind })
    .from(heatingLog)
    .where(and(eq(heatingLog.unitId, unitId), lt(heatingLog.at, at)))
    .orderBy(sql`${heatingLog.at} desc`)
    .limit(1);
  return before;
}

/** The unit's logged setpoints (°C) in [`since`, `until`), in log order. */
export async function setpointsBetween(db: Db, unitId: string, since: Date, until: Date) {
  return db
    .select({ at: heatingLog.at, setpoint: heatingLog.newSetpoint, source: heatingLog.kind })
    .from(heatingLog)
    .where(and(eq(heatingLog.unitId, unitId), gte(heatingLog.at, since), lt(heatingLog.at, until)))
    .orderBy(asc(heatingLog.at), asc(heatingLog.id));
}

export async function storedWarmUpModel(db: Db, unitId: string) {
  const [stored] = await db.select().from(unitWarmUpModels).where(eq(unitWarmUpModels.unitId, unitId));
  return stored;
}

export async function saveWarmUpModel(db: Db, values: typeof unitWarmUpModels.$inferInsert): Promise<void> {
  await db
    .insert(unitWarmUpModels)
    .values(values)
    .onConflictDoUpdate({ target: unitWarmUpModels.unitId, set: values });
}
