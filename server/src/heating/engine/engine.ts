/**
 * Public entry points of the heating engine:
 * `resolveSetpoint` (state at an instant, when it came into force, when it may change next)
 * and `expandTimeline` (the list of changes in a window, for the 7-day preview and the
 * scheduler). Pure: no clock, no I/O. Both derive from the same state function, so evaluating
 * `resolveSetpoint` at any instant agrees with the change list (checked by property tests).
 *
 * The state can only change at a candidate instant: a plan switch point (or the default at the
 * midnight of an uncovered date), an event start/end, a manual change or its `until`, a pause
 * or a resume, a closure's or booking's start or end. A candidate whose state equals the previous one is not a change.
 */
import { nextPlanPointAfter, planPointAt } from './plans.ts';
import { type Context, contextOf, isPaused, type State, sameState, stateAt } from './state.ts';
import type { SetpointChange, SetpointResolution, UnitHeatingInput } from './types.ts';

export { validatePlan } from './validate.ts';

/**
 * How far (ms) `nextChangeAt` and `since` look for a change that alters the state. Beyond it
 * they answer with the first candidate instant past the horizon: an early, safe wake-up ("may
 * change") for plans whose switch points repeat the same state day after day. Longer than the
 * 7-day preview, so every change inside a preview window is found exactly.
 */
const HORIZON_MS = 8 * 86_400_000;
/** `since` when the state has held for as long as the engine can see (no change found). */
const SINCE_EVER = 0;

function nextCandidateAfter(context: Context, t: number): number {
  const plan = nextPlanPointAfter(context.plans, t) ?? Number.POSITIVE_INFINITY;
  for (const instant of context.fixedInstants) {
    if (instant > t) return Math.min(plan, instant);
  }
  return plan;
}

function latestCandidateAtOrBefore(context: Context, t: number): number {
  let fixed = Number.NEGATIVE_INFINITY;
  for (const instant of context.fixedInstants) {
    if (instant > t) break;
    fixed = instant;
  }
  return Math.max(planPointAt(context.plans, t).at, fixed);
}

function nextChangeAfter(context: Context, t: number, current: State): number | null {
  if (isPaused(context, t)) {
    const resumedAt = context.pause?.resumedAt ?? Number.POSITIVE_INFINITY;
    return Number.isFinite(resumedAt) ? resumedAt : null;
  }
  for (let candidate = nextCandidateAfter(context, t); ; candidate = nextCandidateAfter(context, candidate)) {
    if (candidate === Number.POSITIVE_INFINITY) return null;
    if (!sameState(stateAt(context, candidate), current) || candidate > t + HORIZON_MS) return candidate;
  }
}

function changedSince(context: Context, t: number, current: State): number {
  if (isPaused(context, t)) return context.pause?.since ?? SINCE_EVER;
  for (let candidate = latestCandidateAtOrBefore(context, t); ; ) {
    if (candidate === Number.NEGATIVE_INFINITY) return SINCE_EVER;
    if (!sameState(stateAt(context, candidate - 1), current) || candidate < t - HORIZON_MS) return candidate;
    candidate = latestCandidateAtOrBefore(context, candidate - 1);
  }
}

/** Epoch ms of a Date. @throws RangeError for an invalid Date. */
function instant(date: Date): number {
  const t = date.getTime();
  if (Number.isNaN(t)) throw new RangeError('Invalid instant');
  return t;
}

function addIds<T extends { eventId?: string; planId?: string; closureId?: string; bookingId?: string }>(
  target: T,
  state: State,
): T {
  if (state.eventId !== undefined) target.eventId = state.eventId;
  if (state.planId !== undefined) target.planId = state.planId;
  if (state.closureId !== undefined) target.closureId = state.closureId;
  if (state.bookingId !== undefined) target.bookingId = state.bookingId;
  return target;
}

/**
 * The setpoint in force for a unit at `at`.
 * `since` is when this state came into force (1970-01-01 when it has held forever);
 * `nextChangeAt` is the next instant the state changes (null = never), so a scheduler can sleep
 * until then. Both are exact within 8 days of `at`; beyond that `nextChangeAt` may be an instant
 * at which nothing changes (an early wake-up, never a late one) and `since` may be later than the
 * true start. Setpoints are °C clamped to `input.range`.
 * @throws RangeError when `input.timeZone` is not a known IANA zone or `at` is an invalid Date.
 */
export function resolveSetpoint(input: UnitHeatingInput, at: Date): SetpointResolution {
  const t = instant(at);
  const context = contextOf(input);
  const state = stateAt(context, t);
  const next = nextChangeAfter(context, t, state);
  return addIds<SetpointResolution>(
    {
      setpoint: state.setpoint,
      source: state.source,
      since: new Date(changedSince(context, t, state)),
      ignoreWallControl: state.ignoreWallControl,
      nextChangeAt: next === null ? null : new Date(next),
    },
    state,
  );
}

/**
 * The changes of a unit's state in the window (from, to], in time order; the state at `from`
 * itself is `resolveSetpoint(input, from)`. Setpoints are °C clamped to `input.range`.
 * @throws RangeError when `input.timeZone` is not a known IANA zone or a bound is an invalid Date.
 */
export function expandTimeline(input: UnitHeatingInput, from: Date, to: Date): SetpointChange[] {
  const start = instant(from);
  const end = instant(to);
  const context = contextOf(input);
  const changes: SetpointChange[] = [];
  let previous = stateAt(context, start);
  for (let t = nextCandidateAfter(context, start); t <= end; t = nextCandidateAfter(context, t)) {
    const state = stateAt(context, t);
    if (sameState(state, previous)) continue;
    changes.push(
      addIds<SetpointChange>(
        {
          at: new Date(t),
          setpoint: state.setpoint,
          source: state.source,
          ignoreWallControl: state.ignoreWallControl,
        },
        state,
      ),
    );
    previous = state;
  }
  return changes;
}
