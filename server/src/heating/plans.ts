/**
 * Plan expansion: which plan governs a local day and which of its switch points are in force
 * (ARCHITECTURE.md §5 item 1; docs/decisions/0004-heating-engine-semantics.md).
 *
 * - On each local date, an active own `specific_days` plan covering the date wins over an own
 *   `seasonal` plan; with no own plan covering the date the group plans apply the same way
 *   (source `group_plan`). Among several plans of the same kind the first in input order wins.
 * - A seasonal range is 'MM-DD'..'MM-DD', inclusive, recurring yearly; validTo < validFrom
 *   crosses New Year.
 * - The plan timeline is the union over dates of the governing plan's switch points placed on
 *   that date; the latest point at or before t is in force (it carries over midnight).
 * - A date no plan covers, following a covered date, starts at local midnight with the default
 *   point (frost protection, source `regular_plan`, no planId). With no covered date at all the
 *   default holds forever.
 *
 * Compiled plans are memoised per plan object: plans are treated as immutable values.
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

interface CompiledPoint {
  /** Local minute of the day, 0–1439. */
  minute: number;
  temperature: number;
  ignoreWallControl: boolean;
}

interface CompiledPlan {
  id: string;
  seasonal: boolean;
  /** Month·100 + day bounds of a seasonal plan; NaN when missing or malformed (covers nothing). */
  from: number;
  to: number;
  /** Sorted day numbers of a specific_days plan. */
  dates: number[];
  dateSet: Set<number>;
  /** Points per ISO weekday (index 1–7) for seasonal plans; index 0 for specific_days. */
  byDay: CompiledPoint[][];
}

/** A switch point placed on the timeline (epoch ms), or the default when `planId` is absent. */
export interface PlanPoint {
  /** Epoch ms; -Infinity for the default that has held forever. */
  at: number;
  /** °C, not yet clamped. */
  temperature: number;
  ignoreWallControl: boolean;
  source: 'regular_plan' | 'group_plan';
  planId?: string;
}

/** The plans of one unit, compiled for fast per-day lookups. */
export interface UnitPlans {
  zone: string;
  /** °C used on dates no plan covers. */
  defaultTemperature: number;
  tiers: { plans: CompiledPlan[]; source: PlanPoint['source'] }[];
  all: CompiledPlan[];
}

const compiledPlans = new WeakMap<HeatingPlan, CompiledPlan>();

/** Compiles the active own and group plans of a unit (inactive plans are ignored). */
export function compileUnitPlans(
  zone: string,
  defaultTemperature: number,
  ownPlans: HeatingPlan[],
  groupPlans: HeatingPlan[],
): UnitPlans {
  const split = (plans: HeatingPlan[]) => {
    const compiled = plans.filter((plan) => plan.active).map(compilePlan);
    return [compiled.filter((p) => !p.seasonal), compiled.filter((p) => p.seasonal)];
  };
  const [ownSpecific = [], ownSeasonal = []] = split(ownPlans);
  const [groupSpecific = [], groupSeasonal = []] = split(groupPlans);
  return {
    zone,
    defaultTemperature,
    tiers: [
      { plans: ownSpecific, source: 'regular_plan' },
      { plans: ownSeasonal, source: 'regular_plan' },
      { plans: groupSpecific, source: 'group_plan' },
      { plans: groupSeasonal, source: 'group_plan' },
    ],
    all: [...ownSpecific, ...ownSeasonal, ...groupSpecific, ...groupSeasonal],
  };
}

function compilePlan(plan: HeatingPlan): CompiledPlan {
  const cached = compiledPlans.get(plan);
  if (cached) return cached;
  const seasonal = plan.kind === 'seasonal';
  const dates = seasonal ? [] : [...new Set((plan.dates ?? []).map(parseDate))].filter(Number.isFinite);
  dates.sort((a, b) => a - b);
  const byDay: CompiledPoint[][] = Array.from({ length: 8 }, () => []);
  for (const point of plan.switchPoints) {
    if (!isWellFormed(point, seasonal)) continue;
    const minute = point.hour * 60 + point.minute;
    byDay[seasonal ? point.day : 0]?.push({
      minute,
      temperature: point.temperature,
      ignoreWallControl: point.ignoreWallControl,
    });
  }
  for (const points of byDay) points.sort((a, b) => a.minute - b.minute);
  const compiled: CompiledPlan = {
    id: plan.id,
    seasonal,
    from: seasonal ? parseMonthDay(plan.validFrom) : Number.NaN,
    to: seasonal ? parseMonthDay(plan.validTo) : Number.NaN,
    dates,
    dateSet: new Set(dates),
    byDay,
  };
  compiledPlans.set(plan, compiled);
  return compiled;
}

function isWellFormed(point: SwitchPoint, seasonal: boolean): boolean {
  const inRange = (value: number, min: number, max: number) =>
    Number.isInteger(value) && value >= min && value <= max;
  return (
    inRange(point.hour, 0, 23) &&
    inRange(point.minute, 0, 59) &&
    Number.isFinite(point.temperature) &&
    (!seasonal || inRange(point.day, 1, 7))
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
  if (!plan.seasonal) return plan.dateSet.has(dayNum);
  if (plan.from <= plan.to) return monthDay >= plan.from && monthDay <= plan.to;
  return monthDay >= plan.from || monthDay <= plan.to;
}

interface Governing {
  plan: CompiledPlan;
  source: PlanPoint['source'];
}

/** The plan governing a local day, or null when no active plan covers it. */
function governing(unit: UnitPlans, day: LocalDay): Governing | null {
  for (const tier of unit.tiers) {
    for (const plan of tier.plans) {
      if (covers(plan, day.dayNum, day.monthDay)) return { plan, source: tier.source };
    }
  }
  return null;
}

function pointsOn(governed: Governing, day: LocalDay): CompiledPoint[] {
  return governed.plan.byDay[governed.plan.seasonal ? day.weekday : 0] as CompiledPoint[];
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
  return { at, temperature: unit.defaultTemperature, ignoreWallControl: false, source: 'regular_plan' };
}

/**
 * The plan switch point in force at instant `t` (epoch ms): the latest one at or before `t`,
 * the default from the midnight of an uncovered date, or the default forever (at -Infinity).
 */
export function planPointAt(unit: UnitPlans, t: number): PlanPoint {
  let dayNum = localDayAt(unit.zone, t).dayNum;
  for (let walked = 0; walked < MAX_COVERED_DAYS; walked++) {
    const day = localDay(unit.zone, dayNum);
    const governed = governing(unit, day);
    if (!governed) {
      let lastCovered = Number.NEGATIVE_INFINITY;
      for (const plan of unit.all) lastCovered = Math.max(lastCovered, lastCoveredUpTo(plan, dayNum - 1));
      if (lastCovered === Number.NEGATIVE_INFINITY) break;
      return defaultPoint(unit, dayStart(localDay(unit.zone, lastCovered + 1)));
    }
    const points = pointsOn(governed, day);
    for (let i = points.length - 1; i >= 0; i--) {
      const point = points[i] as CompiledPoint;
      const at = minuteInstant(day, point.minute);
      if (at <= t) {
        return {
          at,
          temperature: point.temperature,
          ignoreWallControl: point.ignoreWallControl,
          source: governed.source,
          planId: governed.plan.id,
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
  if (!governing(unit, first)) dayNum = nextCoveredFrom(unit, dayNum + 1);
  for (let walked = 0; walked < MAX_COVERED_DAYS && Number.isFinite(dayNum); walked++) {
    const day = localDay(unit.zone, dayNum);
    const governed = governing(unit, day);
    if (!governed) {
      if (previousCovered && dayStart(day) > t) return dayStart(day);
      dayNum = nextCoveredFrom(unit, dayNum + 1);
      previousCovered = false;
      continue;
    }
    for (const point of pointsOn(governed, day)) {
      const at = minuteInstant(day, point.minute);
      if (at > t) return at;
    }
    previousCovered = true;
    dayNum++;
  }
  return null;
}

function nextCoveredFrom(unit: UnitPlans, dayNum: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const plan of unit.all) next = Math.min(next, firstCoveredFrom(plan, dayNum));
  return next;
}
