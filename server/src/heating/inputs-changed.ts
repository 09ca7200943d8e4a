/**
 * The one way a change to heating inputs reaches the valves. Every service that changes what the
 * engine weighs (plans, groups, a unit's building, pause or manual setpoint, events, closures,
 * buildings' holidays and own days, booking calendars, company settings) calls `inputsChanged`
 * inside the transaction that made the change, and wakes the scheduler after the commit; the
 * scheduler's tick and this call evaluate through the same `applyUnits`, so both give the same
 * setpoints, log entries and outbox rows.
 *
 * - `evaluate: true` (a list of units only): the units are locked (waiting for a running tick)
 *   and evaluated now, so the answer to the change already shows their new setpoint; for changes
 *   of a few units a person waits for (a unit's own plan, its group, a pause).
 * - otherwise the units are marked due at `now` and the next tick evaluates them: for changes
 *   that may reach a whole building or company (an event, a closure, a holiday rule, a feed's
 *   bookings, the company's time zone), which would hold a request for seconds.
 *
 * Either way the buildings' kept heating starts of those units go stale (decision 0069).
 */
import type { Db } from '../db/client.ts';
import { type DueScope, markUnitsDue } from './apply.repository.ts';
import { type Actor, type AppliedChange, evaluateUnits } from './apply.ts';

export type { DueScope };

/**
 * Makes the change to `scope`'s heating inputs take effect: evaluated now (`evaluate`, units
 * only) or due at `now`. @returns the setpoint changes applied now (none when only marked due).
 */
export async function inputsChanged(
  tx: Db,
  scope: DueScope,
  now: Date,
  options: { evaluate?: boolean; actor?: Actor } = {},
): Promise<AppliedChange[]> {
  if (options.evaluate && 'unitIds' in scope) {
    return evaluateUnits(tx, scope.companyId, [...scope.unitIds], now, options.actor);
  }
  await markUnitsDue(tx, scope, now);
  return [];
}
