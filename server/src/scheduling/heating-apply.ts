/**
 * Applies the engine's verdict to units (docs/architecture.md): for every unit whose
 * setpoint in force differs from what was last applied it writes exactly one heating log entry
 * and one outbox row, and it stores the new setpoint and the next instant to look again.
 * Callers hold row locks on the units (the scheduler with `FOR UPDATE SKIP LOCKED`, services
 * with `FOR UPDATE`) and run this inside the same transaction, so a change is recorded once
 * even with several server instances. Re-applying an unchanged unit writes nothing, which
 * also makes catch-up after downtime a single change: only the setpoint now in force counts.
 */
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { anyOf } from '../db/any-of.ts';
import type { Db } from '../db/client.ts';
import { heatingLog, setpointOutbox, units } from '../db/schema.ts';
import { resolveSetpoint } from '../heating/engine.ts';
import type { LogKind, SetpointResolution } from '../heating/types.ts';
import { loadHeatingInputs, type PlanCache, type UnitRow } from './heating-inputs.ts';
import { addPlanShifts } from './optimum-inputs.ts';

/** The member whose request caused changes of these kinds (e.g. `web_change`); others stay anonymous. */
export interface Actor {
  userId: string;
  kinds: LogKind[];
}

export interface AppliedChange {
  unitId: string;
  companyId: string;
  kind: LogKind;
  oldSetpoint: number | null;
  newSetpoint: number;
}

/** A next change not after `now` would make the scheduler spin; look again a minute later. */
const MIN_RECHECK_MS = 60_000;

/**
 * A change is a different setpoint, source or wall-control override. A later `since` with the
 * same state (e.g. after downtime the plan is back where it was) is not: nothing to send.
 */
function isChange(unit: UnitRow, res: SetpointResolution): boolean {
  return (
    unit.setpoint !== res.setpoint ||
    unit.setpointSource !== res.source ||
    unit.ignoreWallControl !== res.ignoreWallControl
  );
}

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

/**
 * Resolves each locked unit at `now` and persists the result. `planCache` (kept by the
 * scheduler across batches) lets the engine reuse compiled plans. The setpoints to send go to
 * `deliver` when given (the scheduler sends them in this transaction), else to the outbox for
 * the scheduler's next drain.
 * @returns the changes written (one log entry and one setpoint to send each).
 */
export async function applyUnits(
  tx: Db,
  unitRows: UnitRow[],
  now: Date,
  actor?: Actor,
  planCache?: PlanCache,
  deliver?: (setpoints: PendingSetpoint[]) => Promise<void>,
): Promise<AppliedChange[]> {
  if (unitRows.length === 0) return [];
  const inputs = await loadHeatingInputs(tx, unitRows, planCache, now);
  await addPlanShifts(tx, unitRows, inputs, now);
  const at = now.toISOString();
  const logs: object[] = [];
  const outbox: PendingSetpoint[] = [];
  const updates: object[] = [];
  const applied: AppliedChange[] = [];
  for (const unit of unitRows) {
    const input = inputs.get(unit.id);
    if (!input) continue;
    const res = resolveSetpoint(input, now);
    // A setpoint cannot be older than its unit: the engine's "held forever" (1970) and a plan
    // point before the unit existed both mean "since the unit was created".
    if (res.since.getTime() < unit.createdAt.getTime()) res.since = unit.createdAt;
    let next = res.nextChangeAt;
    if (next && next.getTime() <= now.getTime()) next = new Date(now.getTime() + MIN_RECHECK_MS);
    updates.push({
      id: unit.id,
      setpoint: res.setpoint,
      source: res.source,
      since: res.since.toISOString(),
      ignore: res.ignoreWallControl,
      next: next?.toISOString() ?? null,
    });
    if (!isChange(unit, res)) continue;
    logs.push({
      company_id: unit.companyId,
      unit_id: unit.id,
      kind: res.source,
      old_setpoint: unit.setpoint,
      new_setpoint: res.setpoint,
      at,
      actor_id: actor?.kinds.includes(res.source) ? actor.userId : null,
      details: {
        since: res.since.toISOString(),
        ignoreWallControl: res.ignoreWallControl,
        ...(res.planId ? { planId: res.planId } : {}),
        ...(res.eventId ? { eventId: res.eventId } : {}),
        ...(res.closureId ? { closureId: res.closureId } : {}),
        ...(res.bookingId ? { bookingId: res.bookingId } : {}),
      },
    });
    outbox.push({
      companyId: unit.companyId,
      unitId: unit.id,
      setpoint: res.setpoint,
      wallControlMin: unit.wallControlMin,
      wallControlMax: unit.wallControlMax,
      ignoreWallControl: res.ignoreWallControl,
      reason: res.source,
      at: now,
    });
    applied.push({
      unitId: unit.id,
      companyId: unit.companyId,
      kind: res.source,
      oldSetpoint: unit.setpoint,
      newSetpoint: res.setpoint,
    });
  }
  if (logs.length > 0) {
    await tx.execute(sql`
      insert into ${heatingLog} (company_id, unit_id, kind, old_setpoint, new_setpoint, at, actor_id, details)
      select company_id, unit_id, kind, old_setpoint, new_setpoint, at, actor_id, details
      from jsonb_to_recordset(${jsonRows(logs)}) as x(company_id uuid, unit_id uuid, kind text, old_setpoint real,
        new_setpoint real, at timestamptz, actor_id text, details jsonb)`);
  }
  await (deliver && outbox.length > 0 ? deliver(outbox) : insertOutbox(tx, outbox));
  await tx.execute(sql`
    update ${units} as u set
      setpoint = v.setpoint, setpoint_source = v.source, setpoint_since = v.since,
      ignore_wall_control = v.ignore, next_change_at = v.next
    from jsonb_to_recordset(${jsonRows(updates)}) as v(id uuid, setpoint real, source text, since timestamptz,
      ignore boolean, next timestamptz)
    where u.id = v.id`);
  return applied;
}

/**
 * Locks (waiting for a running scheduler tick) and re-evaluates units of one company right
 * after a change to them; call inside the transaction that made the change.
 */
export async function evaluateUnits(
  tx: Db,
  companyId: string,
  unitIds: string[],
  now: Date,
  actor?: Actor,
): Promise<AppliedChange[]> {
  if (unitIds.length === 0) return [];
  const rows = await tx
    .select()
    .from(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, unitIds)))
    .orderBy(asc(units.id))
    .for('update');
  return applyUnits(tx, rows, now, actor);
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

/**
 * Queues the setpoint now applied to each unit again, without a log entry (nothing changed for
 * the occupant): for new wall control limits, or a device newly assigned to the unit.
 * Call inside a transaction; the scheduler sends them on its next tick (or after `wake()`).
 */
export async function resendSetpoints(
  tx: Db,
  companyId: string,
  unitIds: string[],
  now: Date,
): Promise<number> {
  if (unitIds.length === 0) return 0;
  const rows = await tx
    .select()
    .from(units)
    .where(and(eq(units.companyId, companyId), anyOf(units.id, unitIds), isNotNull(units.setpoint)));
  const outbox: PendingSetpoint[] = rows.flatMap((u) =>
    u.setpoint === null || u.setpointSource === null
      ? []
      : [
          {
            companyId,
            unitId: u.id,
            setpoint: u.setpoint,
            wallControlMin: u.wallControlMin,
            wallControlMax: u.wallControlMax,
            ignoreWallControl: u.ignoreWallControl,
            reason: u.setpointSource,
            at: now,
          },
        ],
  );
  await insertOutbox(tx, outbox);
  return outbox.length;
}

/**
 * Makes every unit of the company due now, e.g. after its time zone, temperature range or
 * frost protection changed (`PATCH /companies/{id}/`); call `wake()` on the scheduler after
 * the transaction commits so the new setpoints apply at once.
 */
export async function markCompanyUnitsDue(db: Db, companyId: string, now: Date): Promise<void> {
  await db.update(units).set({ nextChangeAt: now }).where(eq(units.companyId, companyId));
}
