/**
 * The setpoint state of a unit at one instant: which claim wins (plan switch point, one-time
 * event, manual change, pause) and how the change is labelled. Pure; instants are epoch ms.
 *
 * Rules (docs/architecture.md, /8, sharpened in docs/decisions/0004-heating-engine-semantics.md):
 * - Claims: the plan switch point in force; each running event; the latest manual change.
 *   The claim with the latest origin wins; on equal origins manual > event > plan, and among
 *   events the later one in input order.
 * - An event runs from `start` to `end`; without `preventRegular` (or when open-ended) it stops
 *   earlier at the first effective switch point after its start ("the switch point takes over").
 *   With `preventRegular` (and an end) the switch points inside [start, end) are ignored.
 * - A manual change holds until the first effective switch point after it or `until`, whichever
 *   comes first. Effective switch point = one not inside a running `preventRegular` event.
 * - Paused (since ≤ t < resumedAt): frost protection, source `paused`, wall control ignored.
 * - A running booking (decision 0053; start is already moved earlier by the pre-heat lead) raises
 *   the plan: while start ≤ t < end its temperature (or the highest switch point of the day's
 *   plan) replaces the switch point in force when it is higher, with the booking's start as the
 *   claim's origin — switch points inside it do not end it, a later event or manual change wins
 *   over it, a running `preventRegular` event silences it like the plan. Of overlapping bookings
 *   the one that started last counts.
 * - A running plan shift (decision 0056: optimum start or stop, computed by the caller) replaces
 *   the switch point in force while start ≤ t < end when it raises it (`optimum_start`) or lowers
 *   it (`optimum_stop`), with the shift's start as the claim's origin: it acts like the next switch
 *   point moved earlier, so a manual change or event before it ends there and a later one wins.
 * - A running closure (start ≤ t < end; decision 0051) outranks plans, events and manual
 *   changes: its mode's setpoint, source `closure`, wall control ignored (nobody is there). Of
 *   overlapping closures the one that started last counts. A pause outranks a closure.
 * - When a claim comes back into force because an event ended or the unit was resumed, the state
 *   is labelled `one_time_end` (eventId = the ended event) or `resumed` until the next change.
 * - ignoreWallControl comes from the switch point in force: for an event or manual change, the
 *   one in force when it began; while paused wall control is ignored.
 */
import {
  compileUnitPlans,
  highestPointOn,
  nextPlanPointAfter,
  type PlanPoint,
  planPointAt,
  type UnitPlans,
} from './plans.ts';
import type { LogKind, UnitHeatingInput } from './types.ts';

interface EngineEvent {
  id: string;
  start: number;
  /** +Infinity when open-ended. */
  end: number;
  temperature: number;
  /** preventRegular with an end; an open-ended event never prevents. */
  prevent: boolean;
  order: number;
}

interface EngineClosure {
  id: string;
  start: number;
  end: number;
  temperature: number;
}

interface EngineBooking {
  id: string;
  start: number;
  end: number;
  /** °C; null when no plan governs the booking's day (it then raises nothing). */
  temperature: number | null;
}

interface EngineShift {
  kind: 'optimum_start' | 'optimum_stop';
  start: number;
  end: number;
  temperature: number;
  ignoreWallControl: boolean;
  planId?: string;
}

interface EngineManual {
  kind: 'web_change' | 'qr_change';
  at: number;
  temperature: number;
  until: number;
}

/** One unit's input, compiled for one engine call. */
export interface Context {
  plans: UnitPlans;
  min: number;
  max: number;
  frost: number;
  events: EngineEvent[];
  manual: EngineManual[];
  pause: { since: number; resumedAt: number } | null;
  closures: EngineClosure[];
  bookings: EngineBooking[];
  shifts: EngineShift[];
  /** Sorted distinct finite instants of events, manual changes, pause/resume, closures, bookings and shifts. */
  fixedInstants: number[];
  /** Memoised stop instants of events and manual changes, created on first use. */
  stops: Map<EngineEvent | EngineManual, number> | null;
}

/** The observable state; two states are the same change when all fields match. */
export interface State {
  setpoint: number;
  source: LogKind;
  ignoreWallControl: boolean;
  planId?: string;
  eventId?: string;
  closureId?: string;
  bookingId?: string;
}

type Claim =
  | { kind: 'plan'; origin: number; point: PlanPoint }
  | { kind: 'booking'; origin: number; booking: EngineBooking; temperature: number; point: PlanPoint }
  | { kind: 'shift'; origin: number; shift: EngineShift; point: PlanPoint }
  | { kind: 'event'; origin: number; event: EngineEvent }
  | { kind: 'manual'; origin: number; manual: EngineManual };

const NO_EVENTS: EngineEvent[] = [];
const NO_MANUAL: EngineManual[] = [];
const NO_CLOSURES: EngineClosure[] = [];
const NO_BOOKINGS: EngineBooking[] = [];
const NO_SHIFTS: EngineShift[] = [];
const NO_INSTANTS: number[] = [];

/**
 * The compiled context of a unit input for one call. Not memoised per input: a scheduler builds
 * fresh inputs from the database, and 100,000 short-lived contexts cost the garbage collector
 * far less than 100,000 WeakMap entries (bench/engine.bench.ts).
 */
export function contextOf(input: UnitHeatingInput): Context {
  const events = input.events.length === 0 ? NO_EVENTS : compileEvents(input);
  const manual = input.manualChanges.length === 0 ? NO_MANUAL : compileManual(input);
  const pause = input.pause
    ? {
        since: input.pause.since.getTime(),
        resumedAt: input.pause.resumedAt ? input.pause.resumedAt.getTime() : Number.POSITIVE_INFINITY,
      }
    : null;
  const closures = input.closures?.length ? compileClosures(input) : NO_CLOSURES;
  const plans = compileUnitPlans(
    input.timeZone,
    input.frostProtection,
    input.ownPlans,
    input.groupPlans,
    input.sundayDates,
  );
  const bookings = input.bookings?.length ? compileBookings(input, plans) : NO_BOOKINGS;
  const shifts = input.planShifts?.length ? compileShifts(input) : NO_SHIFTS;
  const context: Context = {
    plans,
    min: input.range.min,
    max: input.range.max,
    frost: input.frostProtection,
    events,
    manual,
    pause,
    closures,
    bookings,
    shifts,
    fixedInstants: fixedInstantsOf(events, manual, pause, closures, [...bookings, ...shifts]),
    stops: null,
  };
  return context;
}

function compileEvents(input: UnitHeatingInput): EngineEvent[] {
  const events: EngineEvent[] = [];
  input.events.forEach((event, order) => {
    const start = event.start.getTime();
    const end = event.end ? event.end.getTime() : Number.POSITIVE_INFINITY;
    // An event ending before it starts never runs (the API rejects it).
    if (start >= end) return;
    const prevent = event.preventRegular && event.end !== null;
    events.push({ id: event.id, start, end, temperature: event.temperature, prevent, order });
  });
  return events;
}

function compileClosures(input: UnitHeatingInput): EngineClosure[] {
  return (input.closures ?? []).flatMap((closure) => {
    const start = closure.start.getTime();
    const end = closure.end.getTime();
    // An empty or inverted closure never runs (the API rejects it).
    return start < end ? [{ id: closure.id, start, end, temperature: closure.temperature }] : [];
  });
}

function compileBookings(input: UnitHeatingInput, plans: Context['plans']): EngineBooking[] {
  return (input.bookings ?? []).flatMap((booking) => {
    const start = booking.start.getTime();
    const end = booking.end.getTime();
    if (!(start < end)) return [];
    const temperature = booking.temperature ?? highestPointOn(plans, end - 1);
    return [{ id: booking.id, start, end, temperature }];
  });
}

function compileShifts(input: UnitHeatingInput): EngineShift[] {
  return (input.planShifts ?? []).flatMap((shift) => {
    const start = shift.start.getTime();
    const end = shift.end.getTime();
    if (!(start < end)) return [];
    return [
      {
        kind: shift.kind,
        start,
        end,
        temperature: shift.temperature,
        ignoreWallControl: shift.ignoreWallControl,
        ...(shift.planId === undefined ? {} : { planId: shift.planId }),
      },
    ];
  });
}

function compileManual(input: UnitHeatingInput): EngineManual[] {
  const manual: EngineManual[] = input.manualChanges.map((change) => ({
    kind: change.kind,
    at: change.at.getTime(),
    temperature: change.temperature,
    until: change.until ? change.until.getTime() : Number.POSITIVE_INFINITY,
  }));
  // Stable: of two changes at the same instant the later one in input order counts.
  return manual.sort((a, b) => a.at - b.at);
}

function fixedInstantsOf(
  events: EngineEvent[],
  manual: EngineManual[],
  pause: Context['pause'],
  closures: EngineClosure[],
  intervals: { start: number; end: number }[],
): number[] {
  if (
    events.length === 0 &&
    manual.length === 0 &&
    pause === null &&
    closures.length === 0 &&
    intervals.length === 0
  )
    return NO_INSTANTS;
  const instants = new Set<number>();
  for (const closure of closures) instants.add(closure.start).add(closure.end);
  for (const interval of intervals) instants.add(interval.start).add(interval.end);
  for (const event of events) instants.add(event.start).add(event.end);
  for (const change of manual) instants.add(change.at).add(change.until);
  if (pause) instants.add(pause.since).add(pause.resumedAt);
  return [...instants].filter(Number.isFinite).sort((a, b) => a - b);
}

/** Whether the unit is paused at `t`. */
export function isPaused(context: Context, t: number): boolean {
  const pause = context.pause;
  return pause !== null && pause.since <= t && t < pause.resumedAt;
}

/** The closure running at `t` (the one that started last), if any. */
function closureAt(context: Context, t: number): EngineClosure | undefined {
  let running: EngineClosure | undefined;
  for (const closure of context.closures) {
    if (closure.start <= t && t < closure.end && (!running || closure.start >= running.start))
      running = closure;
  }
  return running;
}

/**
 * The booking running at `t` that raises the plan's `point` (the one that started last), with
 * the °C it asks for, if any.
 */
function raisingBookingAt(
  context: Context,
  t: number,
  point: PlanPoint,
): { booking: EngineBooking; temperature: number } | undefined {
  let running: EngineBooking | undefined;
  for (const booking of context.bookings) {
    if (
      booking.start <= t &&
      t < booking.end &&
      booking.temperature !== null &&
      booking.temperature > point.temperature &&
      (!running || booking.start >= running.start)
    )
      running = booking;
  }
  return running ? { booking: running, temperature: running.temperature as number } : undefined;
}

/** The plan shift running at `t` that moves the switch point in force (the one that started last). */
function shiftAt(context: Context, t: number, point: PlanPoint): EngineShift | undefined {
  let running: EngineShift | undefined;
  for (const shift of context.shifts) {
    if (
      shift.start <= t &&
      t < shift.end &&
      (shift.kind === 'optimum_start'
        ? shift.temperature > point.temperature
        : shift.temperature < point.temperature) &&
      (!running || shift.start >= running.start)
    )
      running = shift;
  }
  return running;
}

function clamp(context: Context, temperature: number): number {
  return Math.min(Math.max(temperature, context.min), context.max);
}

function preventingAt(context: Context, t: number): EngineEvent | undefined {
  for (const event of context.events) {
    if (event.prevent && event.start <= t && t < event.end) return event;
  }
  return undefined;
}

/** First switch point after `t` that is not inside a running preventRegular event; +Infinity if none. */
function nextEffectivePlanPointAfter(context: Context, t: number): number {
  let at = nextPlanPointAfter(context.plans, t);
  for (;;) {
    if (at === null) return Number.POSITIVE_INFINITY;
    const preventing = preventingAt(context, at);
    if (!preventing) return at;
    at = nextPlanPointAfter(context.plans, preventing.end - 1);
  }
}

/** Whether a running preventRegular event that started by the switch point hides it at `t`. */
function suppressesPoint(context: Context, t: number, pointAt: number): boolean {
  for (const event of context.events) {
    if (event.prevent && event.start <= t && t < event.end && event.start <= pointAt) return true;
  }
  return false;
}

/** When an event or manual change stops being a claim (epoch ms, exclusive). */
function stopOf(context: Context, claim: EngineEvent | EngineManual): number {
  context.stops ??= new Map();
  let stop = context.stops.get(claim);
  if (stop === undefined) {
    if ('prevent' in claim) {
      stop = claim.prevent
        ? claim.end
        : Math.min(claim.end, nextEffectivePlanPointAfter(context, claim.start));
    } else {
      stop = Math.min(claim.until, nextEffectivePlanPointAfter(context, claim.at));
    }
    context.stops.set(claim, stop);
  }
  return stop;
}

function outranks(origin: number, priority: number, best: Claim | null, bestPriority: number): boolean {
  return best === null || origin > best.origin || (origin === best.origin && priority >= bestPriority);
}

/** The winning claim at `t`, ignoring pause and labels. */
function winnerAt(context: Context, t: number): Claim {
  const inForce = planPointAt(context.plans, t);
  let best: Claim | null = null;
  let bestPriority = 0;
  if (!suppressesPoint(context, t, inForce.at)) {
    const shift = context.shifts.length > 0 ? shiftAt(context, t, inForce) : undefined;
    const point = shift ? { ...inForce, temperature: shift.temperature } : inForce;
    const raising = context.bookings.length > 0 ? raisingBookingAt(context, t, point) : undefined;
    best = raising
      ? { kind: 'booking', origin: raising.booking.start, point, ...raising }
      : shift
        ? { kind: 'shift', origin: shift.start, shift, point }
        : { kind: 'plan', origin: point.at, point };
  }
  for (const event of context.events) {
    if (event.start <= t && t < stopOf(context, event) && outranks(event.start, 1, best, bestPriority)) {
      best = { kind: 'event', origin: event.start, event };
      bestPriority = 1;
    }
  }
  let latest: EngineManual | undefined;
  for (const change of context.manual) {
    if (change.at > t) break;
    latest = change;
  }
  if (latest && t < stopOf(context, latest) && outranks(latest.at, 2, best, bestPriority)) {
    best = { kind: 'manual', origin: latest.at, manual: latest };
  }
  // A preventing event is itself a running claim, so `best` is set whenever the plan is suppressed.
  return best as Claim;
}

/**
 * The switch point in force when an event or manual change began. Any later switch point either
 * ends that claim or is ignored by a preventRegular event, so it stays the point in force.
 */
function pointInForceAt(context: Context, origin: number): PlanPoint {
  return planPointAt(context.plans, origin);
}

function nativeState(context: Context, claim: Claim): State {
  switch (claim.kind) {
    case 'plan':
      return {
        setpoint: clamp(context, claim.point.temperature),
        source: claim.point.source,
        ignoreWallControl: claim.point.ignoreWallControl,
        ...(claim.point.planId === undefined ? {} : { planId: claim.point.planId }),
      };
    case 'booking':
      return {
        setpoint: clamp(context, claim.temperature),
        source: 'booking',
        ignoreWallControl: claim.point.ignoreWallControl,
        bookingId: claim.booking.id,
      };
    case 'shift':
      return {
        setpoint: clamp(context, claim.shift.temperature),
        source: claim.shift.kind,
        ignoreWallControl: claim.shift.ignoreWallControl,
        ...(claim.shift.planId === undefined ? {} : { planId: claim.shift.planId }),
      };
    case 'event':
      return {
        setpoint: clamp(context, claim.event.temperature),
        source: 'one_time_start',
        ignoreWallControl: pointInForceAt(context, claim.origin).ignoreWallControl,
        eventId: claim.event.id,
      };
    case 'manual':
      return {
        setpoint: clamp(context, claim.manual.temperature),
        source: claim.manual.kind,
        ignoreWallControl: pointInForceAt(context, claim.origin).ignoreWallControl,
      };
  }
}

/** The state in force at instant `t` (epoch ms). */
export function stateAt(context: Context, t: number): State {
  if (isPaused(context, t)) {
    return { setpoint: clamp(context, context.frost), source: 'paused', ignoreWallControl: true };
  }
  const closure = closureAt(context, t);
  if (closure) {
    return {
      setpoint: clamp(context, closure.temperature),
      source: 'closure',
      ignoreWallControl: true,
      closureId: closure.id,
    };
  }
  const winner = winnerAt(context, t);
  const state = nativeState(context, winner);
  let markerAt = Number.NEGATIVE_INFINITY;
  let endedEvent: string | undefined;
  const pause = context.pause;
  if (pause && pause.since < pause.resumedAt && pause.resumedAt <= t && pause.resumedAt >= winner.origin) {
    markerAt = pause.resumedAt;
  }
  for (const event of context.events) {
    if (event.end > t || event.end < winner.origin || event.end <= markerAt) continue;
    const before = winnerAt(context, event.end - 1);
    if (before.kind === 'event' && before.event === event) {
      markerAt = event.end;
      endedEvent = event.id;
    }
  }
  if (markerAt === Number.NEGATIVE_INFINITY) return state;
  if (endedEvent === undefined) return { ...state, source: 'resumed' };
  return { ...state, source: 'one_time_end', eventId: endedEvent };
}

/** Whether two states are the same (no change between them). */
export function sameState(a: State, b: State): boolean {
  return (
    a.setpoint === b.setpoint &&
    a.source === b.source &&
    a.ignoreWallControl === b.ignoreWallControl &&
    a.planId === b.planId &&
    a.eventId === b.eventId &&
    a.closureId === b.closureId &&
    a.bookingId === b.bookingId
  );
}
