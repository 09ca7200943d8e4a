/**
 * Applies the engine's verdict to units (docs/architecture.md): for every unit whose
 * setpoint in force differs from what was last applied it writes exactly one heating log entry
 * and one outbox row, and it stores the new setpoint and the next instant to look again.
 * Callers hold row locks on the units (the scheduler with `FOR UPDATE SKIP LOCKED`, services
 * with `FOR UPDATE`) and run this inside the same transaction, so a change is recorded once
 * even with several server instances. Re-applying an unchanged unit writes nothing, which
 * also makes catch-up after downtime a single change: only the setpoint now in force counts.
 */
import type { Db } from '../db/client.ts';
import {
  insertHeatingLog,
  insertOutbox,
  type PendingSetpoint,
  storeResolutions,
} from './apply.repository.ts';
import { resolveSetpoint } from './engine/engine.ts';
import type { LogKind, SetpointResolution } from './engine/types.ts';
import { appliedUnits, lockUnits } from './inputs.repository.ts';
import { type EngineUnit, loadHeatingInputs, type PlanCache } from './inputs.ts';
import { addPlanShifts } from './optimum-inputs.ts';
import { heatingStartsChanged } from './starts.repository.ts';

export type { PendingSetpoint };

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
function isChange(unit: EngineUnit, res: SetpointResolution): boolean {
  return (
    unit.setpoint !== res.setpoint ||
    unit.setpointSource !== res.source ||
    unit.ignoreWallControl !== res.ignoreWallControl
  );
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
  unitRows: EngineUnit[],
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
  if (logs.length > 0) await insertHeatingLog(tx, logs);
  await (deliver && outbox.length > 0 ? deliver(outbox) : insertOutbox(tx, outbox));
  await storeResolutions(tx, updates);
  return applied;
}

/**
 * Locks (waiting for a running scheduler tick) and re-evaluates units of one company right
 * after a change to them; call inside the transaction that made the change. Their buildings'
 * kept heating starts go stale with it (decision 0069): every service that changes a unit's
 * plans, group, building, pause or manual setpoint comes through here.
 */
export async function evaluateUnits(
  tx: Db,
  companyId: string,
  unitIds: string[],
  now: Date,
  actor?: Actor,
): Promise<AppliedChange[]> {
  if (unitIds.length === 0) return [];
  const applied = await applyUnits(tx, await lockUnits(tx, companyId, unitIds), now, actor);
  // Last, so the kept starts' rows are locked only from here to the commit.
  await heatingStartsChanged(tx, { unitIds });
  return applied;
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
  const rows = await appliedUnits(tx, companyId, unitIds);
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
