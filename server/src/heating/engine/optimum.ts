/**
 * Optimum start and stop (decision 0056): which plan switch points of a unit move earlier, and by
 * how much, as `PlanShift`s for the engine. Pure: the caller supplies the minutes per switch point
 * from the unit's learned warm-up model (`warm-up.ts`), so this module knows nothing of models,
 * outdoor temperatures or valves.
 *
 * Only the plan's own steps move: a rise of at least `MIN_RISE_K` into a plan switch point starts
 * early (optimum start), a fall out of a plan comfort period ends early (optimum stop). Events,
 * manual changes, closures and bookings keep their times — they are someone's explicit wish.
 * Instants are UTC, so a lead is the same span of real time on a DST morning.
 */
import { expandTimeline, resolveSetpoint } from './engine.ts';
import type { LogKind, PlanShift, UnitHeatingInput } from './types.ts';

/** A plan step smaller than this (K) is not worth pre-heating for; the warm-up sessions use the same 1 K. */
export const MIN_RISE_K = 1;

/** A plan step: at `at` the plan moves from `from` °C to `to` °C. */
export interface PlanStep {
  at: Date;
  from: number;
  to: number;
}

/** Minutes per step, from the unit's warm-up model; 0 leaves the step where it is. */
export interface OptimumEstimator {
  /** How long before a rise the comfort setpoint is sent, minutes. */
  startMinutes(step: PlanStep): number;
  /** How long before a fall the lower setpoint is sent, minutes. */
  stopMinutes(step: PlanStep): number;
}

const PLAN_SOURCES: ReadonlySet<LogKind> = new Set(['regular_plan', 'group_plan', 'no_plan']);
const MINUTE_MS = 60_000;

/**
 * The shifts of the plan steps at `(from, to]` of `input` (its own `planShifts` are ignored).
 * A shift never starts before the step before it, so a short set-back is filled rather than
 * skipped twice, and an early stop never swallows the comfort period it ends.
 * @throws RangeError like `expandTimeline` (unknown zone, invalid dates).
 */
export function optimumShifts(
  input: UnitHeatingInput,
  from: Date,
  to: Date,
  estimator: OptimumEstimator,
): PlanShift[] {
  const plain: UnitHeatingInput = { ...input, planShifts: [] };
  const initial = resolveSetpoint(plain, from);
  let previous = { at: initial.since.getTime(), setpoint: initial.setpoint, source: initial.source };
  const shifts: PlanShift[] = [];
  for (const change of expandTimeline(plain, from, to)) {
    const at = change.at.getTime();
    const planStep = PLAN_SOURCES.has(change.source) && PLAN_SOURCES.has(previous.source);
    if (planStep && change.source !== 'no_plan') {
      const step = { at: change.at, from: previous.setpoint, to: change.setpoint };
      const rise = change.setpoint - previous.setpoint >= MIN_RISE_K;
      const minutes = rise
        ? estimator.startMinutes(step)
        : change.setpoint < previous.setpoint
          ? estimator.stopMinutes(step)
          : 0;
      const start = Math.max(at - minutes * MINUTE_MS, previous.at);
      if (minutes > 0 && start < at) {
        shifts.push({
          kind: rise ? 'optimum_start' : 'optimum_stop',
          start: new Date(start),
          end: change.at,
          temperature: change.setpoint,
          ignoreWallControl: change.ignoreWallControl,
          ...(change.planId === undefined ? {} : { planId: change.planId }),
        });
      }
    }
    previous = { at, setpoint: change.setpoint, source: change.source };
  }
  return shifts;
}
