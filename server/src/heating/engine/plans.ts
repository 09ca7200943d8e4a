/**
 * Plan expansion: which plan governs a local day and which of its switch points are in force
 * (docs/architecture.md, docs/decisions/0004-heating-engine-semantics.md).
 *
 * - On each local date, an active own `specific_days` plan covering the date wins over an own
 *   `seasonal` plan; with no own plan covering the date the group plans apply the same way
 *   (source `group_plan`). Among several plans of the same kind the first in input order wins.
 * - A seasonal range is 'MM-DD'..'MM-DD', inclusive, recurring yearly; validTo < validFrom
 *   crosses New Year.
 * - The plan timeline is the union over dates of the governing plan's switch points placed on
 *   that date; the latest point at or before t is in force (it carries over midnight).
 * - On a day treated like a Sunday (a public holiday, decision 0052) a seasonal plan uses its
 *   Sunday switch points.
 * - A date no plan covers, following a covered date, starts at local midnight with the default
 *   point (frost protection, source `no_plan`, no planId; decision 0041). With no covered date at all the
 *   default holds forever.
 *
 * Plans are compiled once per engine call (coverage bounds parsed, switch points grouped and
 * sorted per weekday on first use); the UTC instant of each (zone, local day, minute) is memoised
 * for the process in time.ts. Plans are deliberately not memoised per plan object across calls:
 * with 100,000 units a WeakMap of compiled plans cost more (GC of the long-lived entries) than
 * compiling again saves — see docs/decisions/0004-heating-engine-semantics.md.
 */
import {
  civilDate,
  dayNumber,
  dayStart,
  daysInMonth,
  type LocalDay,
  localDay,
  localDayAt,
  minuteInstant,
  monthDayOf,
} from './time.ts';
import type { HeatingPlan, SwitchPoint } from './types.ts';

/** How many governed days a search walks without finding a switch point before it gives up. */
const MAX_COVERED_DAYS = 400;
/** Leap years are at most 8 years apart, so a 29 Feb boundary recurs within this many years. */
const MAX_YEARS = 9;

interface CompiledPlan {
  id: string;
  seasonal: boolean;
  /** Month·100 + day bounds of a seasonal plan; NaN when missing or malformed (covers nothing). */
  from: number;
  to: number;
  /** Sorted day numbers of a specific_days plan. */
  dates: number[];
  switchPoints: SwitchPoint[];
  /**
   * Well-formed points sorted by local time, per ISO weekday (index 1–7) of a seasonal plan or
   * at index 0 for specific_days; built on first use within a call.
   */
  byDay: (SwitchPoint[] | undefined)[];
}

/** A switch point placed on the timeline (epoch ms), or the default when `planId` is absent. */
export interface PlanPoint {
  /** Epoch ms; -Infinity for the default that has held forever. */
  at: number;
  /** °C, not yet clamped. */
  temperature: number;
  ignoreWallControl: boolean;
  source: 'regular_plan' | 'group_plan' | 'no_plan';
  planId?: string;
}

/** The active plans of one unit, compiled. */
export interface UnitPlans {
  zone: string;
  /** °C used on dates no plan covers. */
  defaultTemperature: number;
  own: CompiledPlan[];
  group: CompiledPlan[];
  /** Local day numbers on which seasonal plans use their Sunday switch points; null for none. */
  sundays: Set<number> | null;
}

/**
 * Compiles a unit's plans; inactive plans are dropped. `sundayDates` ('YYYY-MM-DD', local) are
 * days treated like a Sunday: a seasonal plan uses its Sunday switch points on them (a
 * specific_days plan names its dates itself and is left alone); malformed dates are ignored.
 */
export function compileUnitPlans(
  zone: string,
  defaultTemperature: number,
  ownPlans: HeatingPlan[],
  groupPlans: HeatingPlan[],
  sundayDates: readonly string[] = [],
): UnitPlans {
  const days = sundayDates.map(parseDate).filter(Number.isFinite);
  const sundays = days.length > 0 ? new Set(days) : null;
  return {
    zone,
    defaultTemperature,
    own: compileActive(ownPlans),
    group: compileActive(groupPlans),
    sundays,
  };
}

function compileActive(plans: HeatingPlan[]): CompiledPlan[] {
  const compiled: CompiledPlan[] = [];
  for (const plan of plans) if (plan.active) compiled.push(compilePlan(plan));
  return compiled;
}

const NO_DATES: number[] = [];

function compilePlan(plan: HeatingPlan): CompiledPlan {
  const seasonal = plan.kind === 'seasonal';
  const dates: number[] = seasonal ? NO_DATES : [];
  if (!seasonal) {
    for (const date of plan.dates ?? []) {
      const dayNum = parseDate(date);
      if (Number.isFinite(dayNum) && !dates.includes(dayNum)) dates.push(dayNum);
    }
    dates.sort(ascending);
  }
  return {
    id: plan.id,
    seasonal,
    from: seasonal ? parseMonthDay(plan.validFrom) : Number.NaN,
    to: seasonal ? parseMonthDay(plan.validTo) : Number.NaN,
    dates,
    switchPoints: plan.switchPoints,
    byDay: new Array(8),
  };
}

function ascending(a: number, b: number): number {
  return a - b;
}

function byLocalTime(a: SwitchPoint, b: SwitchPoint): number {
  return a.hour * 60 + a.minute - (b.hour * 60 + b.minute);
}

/** Whether `value` is an integer in [min, max]. */
export function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

function isWellFormed(point: SwitchPoint): boolean {
  return (
    isIntegerIn(point.hour, 0, 23) && isIntegerIn(point.minute, 0, 59) && Number.isFinite(point.temperature)
  );
}

/** 'MM-DD' → month·100 + day, NaN when malformed (29 Feb is allowed). */
export function parseMonthDay(value: string | undefined): number {
  const match = /^(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!match) return Number.NaN;
  const month = Number(match[1]);
  const day = Number(match[2]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(2000, month)) return Number.NaN;
  return month * 100 + day;
}

/** 'YYYY-MM-DD' → day number, NaN when malformed or not a real date. */
export function parseDate(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return Number.NaN;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  return dayNumber(year, month, day);
}

function covers(plan: CompiledPlan, dayNum: number, monthDay: number): boolean {
  if (!plan.seasonal) return plan.dates.includes(dayNum);
  if (plan.from <= plan.to) return monthDay >= plan.from && monthDay <= plan.to;
  return monthDay >= plan.from || monthDay <= plan.to;
}

/** The first plan of `plans` covering the day, specific_days before seasonal. */
function governingIn(plans: CompiledPlan[], day: LocalDay): CompiledPlan | null {
  for (const plan of plans) {
    if (!plan.seasonal && covers(plan, day.dayNum, day.monthDay)) return plan;
  }
  for (const plan of plans) {
    if (plan.seasonal && covers(plan, day.dayNum, day.monthDay)) return plan;
  }
  return null;
}

/** The plan governing a local day (own before group), or null when no active plan covers it. */
function governingPlan(unit: UnitPlans, day: LocalDay): CompiledPlan | null {
  return governingIn(unit.own, day) ?? governingIn(unit.group, day);
}

const SUNDAY = 7;

function pointsOn(unit: UnitPlans, plan: CompiledPlan, day: LocalDay): SwitchPoint[] {
  const index = plan.seasonal ? (unit.sundays?.has(day.dayNum) ? SUNDAY : day.weekday) : 0;
  let points = plan.byDay[index];
  if (!points) {
    points = [];
    for (const point of plan.switchPoints) {
      if (isWellFormed(point) && (!plan.seasonal || point.day === index)) points.push(point);
    }
    points.sort(byLocalTime);
    plan.byDay[index] = points;
  }
  return points;
}

/** Largest covered day number ≤ `dayNum` of one plan, or -Infinity. */
function lastCoveredUpTo(plan: CompiledPlan, dayNum: number): number {
  if (!plan.seasonal) {
    let best = Number.NEGATIVE_INFINITY;
    for (const date of plan.dates) if (date <= dayNum) best = date;
    return best;
  }
  if (Number.isNaN(plan.from) || Number.isNaN(plan.to)) return Number.NEGATIVE_INFINITY;
  if (covers(plan, dayNum, monthDayOf(dayNum))) return dayNum;
  const { year } = civilDate(dayNum);
  const month = Math.floor(plan.to / 100);
  for (let y = year; y > year - MAX_YEARS; y--) {
    const candidate = dayNumber(y, month, Math.min(plan.to % 100, daysInMonth(y, month)));
    if (candidate <= dayNum && covers(plan, candidate, monthDayOf(candidate))) return candidate;
  }
  return Number.NEGATIVE_INFINITY;
}

/** Smallest covered day number ≥ `dayNum` of one plan, or +Infinity. */
function firstCoveredFrom(plan: CompiledPlan, dayNum: number): number {
  if (!plan.seasonal) {
    for (const date of plan.dates) if (date >= dayNum) return date;
    return Number.POSITIVE_INFINITY;
  }
  if (Number.isNaN(plan.from) || Number.isNaN(plan.to)) return Number.POSITIVE_INFINITY;
  if (covers(plan, dayNum, monthDayOf(dayNum))) return dayNum;
  const { year } = civilDate(dayNum);
  for (let y = year; y < year + MAX_YEARS; y++) {
    // 29 Feb in a common year rolls over to 1 Mar, the first day of such a range that year.
    const candidate = dayNumber(y, Math.floor(plan.from / 100), plan.from % 100);
    if (candidate >= dayNum && covers(plan, candidate, monthDayOf(candidate))) return candidate;
  }
  return Number.POSITIVE_INFINITY;
}

function defaultPoint(unit: UnitPlans, at: number): PlanPoint {
  return { at, temperature: unit.defaultTemperature, ignoreWallControl: false, source: 'no_plan' };
}

/**
 * The plan switch point in force at instant `t` (epoch ms): the latest one at or before `t`,
 * the default from the midnight of an uncovered date, or the default forever (at -Infinity).
 */
export function planPointAt(unit: UnitPlans, t: number): PlanPoint {
  let dayNum = localDayAt(unit.zone, t).dayNum;
  for (let walked = 0; walked < MAX_COVERED_DAYS; walked++) {
    const day = localDay(unit.zone, dayNum);
    let governed = governingIn(unit.own, day);
    const source = governed ? 'regular_plan' : 'group_plan';
    governed ??= governingIn(unit.group, day);
    if (!governed) {
      let lastCovered = Number.NEGATIVE_INFINITY;
      for (const plans of [unit.own, unit.group]) {
        for (const plan of plans) lastCovered = Math.max(lastCovered, lastCoveredUpTo(plan, dayNum - 1));
      }
      if (lastCovered === Number.NEGATIVE_INFINITY) break;
      return defaultPoint(unit, dayStart(localDay(unit.zone, lastCovered + 1)));
    }
    const points = pointsOn(unit, governed, day);
    for (let i = points.length - 1; i >= 0; i--) {
      const point = points[i] as SwitchPoint;
      const at = minuteInstant(day, point.hour * 60 + point.minute);
      if (at <= t) {
        return {
          at,
          temperature: point.temperature,
          ignoreWallControl: point.ignoreWallControl,
          source,
          planId: governed.id,
        };
      }
    }
    dayNum--;
  }
  return defaultPoint(unit, Number.NEGATIVE_INFINITY);
}

/**
 * The first instant (epoch ms) after `t` at which a plan switch point (or the default at the
 * midnight of an uncovered date) fires, or null when none ever does.
 */
export function nextPlanPointAfter(unit: UnitPlans, t: number): number | null {
  const first = localDayAt(unit.zone, t);
  let dayNum = first.dayNum;
  let previousCovered = false;
  if (!governingPlan(unit, first)) dayNum = nextCoveredFrom(unit, dayNum + 1);
  for (let walked = 0; walked < MAX_COVERED_DAYS && Number.isFinite(dayNum); walked++) {
    const day = localDay(unit.zone, dayNum);
    const governed = governingPlan(unit, day);
    if (!governed) {
      if (previousCovered && dayStart(day) > t) return dayStart(day);
      dayNum = nextCoveredFrom(unit, dayNum + 1);
      previousCovered = false;
      continue;
    }
    for (const point of pointsOn(unit, governed, day)) {
      const at = minuteInstant(day, point.hour * 60 + point.minute);
      if (at > t) return at;
    }
    previousCovered = true;
    dayNum++;
  }
  return null;
}

/**
 * °C of the highest switch point on the local day of instant `t` (epoch ms) in the plan governing
 * that day, or null when no plan governs it or the plan has no switch point that day.
 */
export function highestPointOn(unit: UnitPlans, t: number): number | null {
  const day = localDayAt(unit.zone, t);
  const governed = governingPlan(unit, day);
  if (!governed) return null;
  let highest: number | null = null;
  for (const point of pointsOn(unit, governed, day)) {
    if (highest === null || point.temperature > highest) highest = point.temperature;
  }
  return highest;
}

function nextCoveredFrom(unit: UnitPlans, dayNum: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const plans of [unit.own, unit.group]) {
    for (const plan of plans) next = Math.min(next, firstCoveredFrom(plan, dayNum));
  }
  return next;
}
