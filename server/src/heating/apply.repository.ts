/**
 * The queries of the engine's application to units (what it reads is in inputs.repository.ts):
 * what an evaluation writes (setpoints °C on `units`, `heating_log` entries, `setpoint_outbox`
 * rows), the units due and marking them due, the outbox's claim by the scheduler and the devices
 * the outbox's setpoints go to.
 */
import { and, eq, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import { devices, heatingLog, setpointOutbox, units } from '../db/schema.ts';
import type { LogKind } from './engine/types.ts';
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

/** The units due at a tick, and how many units there are in all (to judge how dense they lie). */
export interface DueUnits {
  /** Ids of the units due, in uuid order. */
  ids: string[];
  /** Every unit of every company. */
  unitCount: number;
}

/**
 * The units due at `now` (`next_change_at <= now`) in id order, answered as one row: one scan of
 * `units` per tick. There is no index on `next_change_at`, so the scheduler's and the ingest's
 * updates of units are HOT (docs/decisions/0035); the scan costs ~15 ms per 100,000 units. Only
 * when some are due, the number of all units as PostgreSQL's statistics have it (counted where
 * the table was never analysed), which the claim needs to judge how dense they lie.
 */
export async function dueUnits(db: Db, now: Date): Promise<DueUnits> {
  const [due] = rowsOf<{ ids: string | null }>(
    await db.execute(sql`
      select string_agg(id::text, ',' order by id) as ids from ${units}
      where next_change_at <= ${now.toISOString()}::timestamptz`),
  );
  if (!due?.ids) return { ids: [], unitCount: 0 };
  const ids = due.ids.split(',');
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      select case when c.reltuples >= 0 then c.reltuples::bigint else (select count(*) from ${units}) end as n
      from pg_class c where c.oid = 'units'::regclass`),
  );
  return { ids, unitCount: Math.max(Number(row?.n ?? 0), ids.length) };
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
