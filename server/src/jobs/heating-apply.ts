/**
 * Applies the engine's verdict to units (issue 5, ARCHITECTURE.md §5): for every unit whose
 * setpoint in force differs from what was last applied it writes exactly one heating log entry
 * and one outbox row, and it stores the new setpoint and the next instant to look again.
 * Callers hold row locks on the units (the scheduler with `FOR UPDATE SKIP LOCKED`, services
 * with `FOR UPDATE`) and run this inside the same transaction, so a change is recorded once
 * even with several server instances. Re-applying an unchanged unit writes nothing, which
 * also makes catch-up after downtime a single change: only the setpoint now in force counts.
 */
import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { heatingLog, setpointOutbox, units } from '../db/schema.ts';
import { resolveSetpoint } from '../heating/engine.ts';
import type { LogKind, SetpointResolution } from '../heating/types.ts';
import { loadHeatingInputs, type UnitRow } from './heating-inputs.ts';

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
const WRITE_CHUNK = 1000;

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

function chunks<T>(items: T[], size = WRITE_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Resolves each locked unit at `now` and persists the result.
 * @returns the changes written (one log entry and one outbox row each).
 */
export async function applyUnits(
  tx: Db,
  unitRows: UnitRow[],
  now: Date,
  actor?: Actor,
): Promise<AppliedChange[]> {
  const inputs = await loadHeatingInputs(tx, unitRows);
  const logs: (typeof heatingLog.$inferInsert)[] = [];
  const outbox: (typeof setpointOutbox.$inferInsert)[] = [];
  const updates: { id: string; res: SetpointResolution; next: Date | null }[] = [];
  const applied: AppliedChange[] = [];
  for (const unit of unitRows) {
    const input = inputs.get(unit.id);
    if (!input) continue;
    const res = resolveSetpoint(input, now);
    let next = res.nextChangeAt;
    if (next && next.getTime() <= now.getTime()) next = new Date(now.getTime() + MIN_RECHECK_MS);
    updates.push({ id: unit.id, res, next });
    if (!isChange(unit, res)) continue;
    logs.push({
      companyId: unit.companyId,
      unitId: unit.id,
      kind: res.source,
      oldSetpoint: unit.setpoint,
      newSetpoint: res.setpoint,
      at: now,
      actorId: actor?.kinds.includes(res.source) ? actor.userId : null,
      details: {
        since: res.since.toISOString(),
        ignoreWallControl: res.ignoreWallControl,
        ...(res.planId ? { planId: res.planId } : {}),
        ...(res.eventId ? { eventId: res.eventId } : {}),
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
  for (const part of chunks(logs)) await tx.insert(heatingLog).values(part);
  for (const part of chunks(outbox)) await tx.insert(setpointOutbox).values(part);
  for (const part of chunks(updates)) {
    const values = sql.join(
      part.map(
        (u) =>
          sql`(${u.id}::uuid, ${u.res.setpoint}::real, ${u.res.source}::text, ${u.res.since.toISOString()}::timestamptz, ${u.res.ignoreWallControl}::boolean, ${u.next?.toISOString() ?? null}::timestamptz)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      update ${units} as u set
        setpoint = v.setpoint, setpoint_source = v.source, setpoint_since = v.since,
        ignore_wall_control = v.ignore, next_change_at = v.next
      from (values ${values}) as v(id, setpoint, source, since, ignore, next)
      where u.id = v.id`);
  }
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
    .where(and(eq(units.companyId, companyId), inArray(units.id, unitIds)))
    .orderBy(asc(units.id))
    .for('update');
  return applyUnits(tx, rows, now, actor);
}

/** Claims up to `limit` due units, skipping those another instance is working on. */
export async function claimDueUnits(tx: Db, now: Date, limit: number): Promise<UnitRow[]> {
  return tx
    .select()
    .from(units)
    .where(lte(units.nextChangeAt, now))
    .orderBy(asc(units.nextChangeAt))
    .limit(limit)
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
    .where(and(eq(units.companyId, companyId), inArray(units.id, unitIds), isNotNull(units.setpoint)));
  const outbox = rows.flatMap((u) =>
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
  for (const part of chunks(outbox)) await tx.insert(setpointOutbox).values(part);
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
