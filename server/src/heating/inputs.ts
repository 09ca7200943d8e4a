/**
 * Loads what the pure heating engine needs for a set of units — company zone, range, frost
 * protection and closure setpoints, the unit's own plans, its group's plans, the latest manual
 * change and the pause — with one-time events, closures (recurring ones as occurrences), the
 * public and school holidays and own days of the units' buildings as closures or days like a
 * Sunday (decision 0052) and the bookings of fresh booking feeds (decision 0053), in a fixed number
 * of queries however many units there are (the scheduler evaluates thousands per tick). Every
 * query comes from inputs.repository.ts, the one repository of the engine's inputs (decision 0073).
 */
import { FEED_STALE_AFTER_MS } from '@heizplan/contracts/booking-feeds';
import type { Db } from '../db/client.ts';
import type { companies, heatingPlans, units } from '../db/schema.ts';
import { type BuildingCalendar, buildingCalendar } from './calendar-closures.ts';
import { closuresForUnits, type UnitClosure } from './closure-coverage.ts';
import type {
  HeatingClosure,
  HeatingEvent,
  HeatingPlan,
  ManualChange,
  UnitHeatingInput,
} from './engine/types.ts';
import { outsideClosures } from './holidays.ts';
import {
  bookingsForUnits,
  buildingDaysFor,
  companiesHeating,
  type EngineUnit,
  eventsForUnits,
  holidayBuildings,
  plansOf,
} from './inputs.repository.ts';

/** What the feature modules use of the inputs' queries: they reach them here, not in the repository. */
export { buildingDaysFor, closureNames, endsAfter, findCompanyHeating } from './inputs.repository.ts';

export type UnitRow = typeof units.$inferSelect;

/** The unit columns an evaluation reads (inputs.repository.ts). */
export type { EngineUnit };
export type PlanRow = typeof heatingPlans.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

/**
 * Company settings the engine reads: IANA zone, range °C, frost protection °C and the °C of the
 * closures' economy and standby modes.
 */
export type CompanyHeating = Pick<
  CompanyRow,
  | 'id'
  | 'timeZone'
  | 'minTemperature'
  | 'maxTemperature'
  | 'frostProtection'
  | 'economyTemperature'
  | 'standbyTemperature'
>;

/** °C a closure's heating mode keeps in `company` (decision 0051); the engine clamps it to the range. */
export function modeTemperature(company: CompanyHeating, mode: UnitClosure['mode']): number {
  switch (mode) {
    case 'frost':
      return company.frostProtection;
    case 'economy':
      return company.economyTemperature;
    case 'standby':
      return company.standbyTemperature;
  }
}

/** The engine's closures for a unit of `company`: each mode turned into its °C. */
export function heatingClosures(company: CompanyHeating, closures: UnitClosure[]): HeatingClosure[] {
  return closures.map((c) => ({
    id: c.id,
    start: c.start,
    end: c.end,
    temperature: modeTemperature(company, c.mode),
  }));
}

export function toHeatingPlan(
  row: Pick<PlanRow, 'id' | 'kind' | 'active' | 'validFrom' | 'validTo' | 'dates' | 'switchPoints'>,
): HeatingPlan {
  return {
    id: row.id,
    kind: row.kind,
    active: row.active,
    ...(row.validFrom ? { validFrom: row.validFrom } : {}),
    ...(row.validTo ? { validTo: row.validTo } : {}),
    ...(row.dates ? { dates: row.dates } : {}),
    switchPoints: row.switchPoints,
  };
}

function manualChangesOf(unit: EngineUnit): ManualChange[] {
  if (!unit.manualKind || unit.manualSetpoint === null || !unit.manualAt) return [];
  return [
    { kind: unit.manualKind, at: unit.manualAt, temperature: unit.manualSetpoint, until: unit.manualUntil },
  ];
}

/** Builds one unit's engine input from already loaded rows. */
export function unitHeatingInput(
  unit: EngineUnit,
  company: CompanyHeating,
  ownPlans: HeatingPlan[],
  groupPlans: HeatingPlan[],
  events: HeatingEvent[] = [],
  closures: HeatingClosure[] = [],
): UnitHeatingInput {
  return {
    timeZone: company.timeZone,
    range: { min: company.minTemperature, max: company.maxTemperature },
    frostProtection: company.frostProtection,
    ownPlans,
    groupPlans,
    events,
    manualChanges: manualChangesOf(unit),
    pause: unit.pausedAt ? { since: unit.pausedAt, resumedAt: unit.resumedAt } : null,
    closures,
  };
}

/**
 * Engine plans by `id@updatedAt`. The engine memoises compiled plans per plan object, so
 * handing it the same object for an unchanged plan across batches and ticks saves recompiling.
 */
export type PlanCache = Map<string, HeatingPlan>;
const PLAN_CACHE_LIMIT = 20_000;

function cachedPlan(row: PlanRow, cache?: PlanCache): HeatingPlan {
  if (!cache) return toHeatingPlan(row);
  const key = `${row.id}@${row.updatedAt.getTime()}`;
  let plan = cache.get(key);
  if (!plan) {
    if (cache.size >= PLAN_CACHE_LIMIT) cache.clear();
    plan = toHeatingPlan(row);
    cache.set(key, plan);
  }
  return plan;
}

/**
 * Events (and closures) that ended more than this before `now` are left out: they can only
 * still matter for the `one_time_end` label, and any plan switch point relabels a unit within a
 * week (a unit without any plan may then log one `no_plan` entry with an unchanged setpoint).
 */
const EVENT_LOOKBACK_MS = 8 * 86_400_000;
/**
 * Room bookings whose heating starts up to this far ahead are handed to the engine (past the
 * 14-day preview); of later ones only each unit's next (a feed holds up to 400 days of them).
 */
const BOOKING_HORIZON_MS = 15 * 86_400_000;
const NO_CALENDAR: BuildingCalendar = { closures: [], sundays: [] };

/** The UTC date of `at` moved by `days`, as 'YYYY-MM-DD': a bound safe in any zone with a day to spare. */
const localDate = (at: Date, days: number) =>
  new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Public and school holidays up to this far ahead become closures: past the scheduler's next change and
 * any preview window (14 days), whatever the year's end.
 */
const HOLIDAY_LOOKAHEAD_MS = 400 * 86_400_000;

/**
 * Engine inputs for `unitRows`, keyed by unit id.
 *
 * Two times, never one for the other ("as of" apart from "for when"): `now` is the instant the
 * inputs are read at — which booking feeds are fresh (decision 0053) — and `window` the instants
 * the caller evaluates (UTC; default: from `now` on). The scheduler passes no window; the preview
 * of a later week passes its window, so it weighs the bookings the scheduler will weigh then, not
 * none because the feed's last fetch lies more than a day before the window.
 */
export async function loadHeatingInputs(
  db: Db,
  unitRows: EngineUnit[],
  planCache?: PlanCache,
  now: Date = new Date(),
  window?: { from: Date; to: Date },
): Promise<Map<string, UnitHeatingInput>> {
  const result = new Map<string, UnitHeatingInput>();
  // Guard against running an invalid `in ()` query when there is nothing to load.
  if (unitRows.length === 0) return result;
  const companyIds = [...new Set(unitRows.map((u) => u.companyId))];
  const unitIds = unitRows.map((u) => u.id);
  const groupIds = [...new Set(unitRows.flatMap((u) => (u.groupId ? [u.groupId] : [])))];
  // One query after the other: inside a transaction they share one connection, and `pg`
  // deprecates overlapping queries on a client.
  const companyRows = await companiesHeating(db, companyIds);
  const planRows = await plansOf(db, unitIds, groupIds);
  // The inputs that can matter from the earlier of now and the window's start to the later of now
  // and its end.
  const first = Math.min(now.getTime(), window?.from.getTime() ?? now.getTime());
  const last = Math.max(now.getTime(), window?.to.getTime() ?? now.getTime());
  const lookback = new Date(first - EVENT_LOOKBACK_MS);
  const until = new Date(last + HOLIDAY_LOOKAHEAD_MS);
  const eventsByUnit = await eventsForUnits(db, unitRows, lookback, null);
  // Recurring closures are expanded as far ahead as the holidays (decision 0051).
  const closuresByUnit = await closuresForUnits(db, unitRows, lookback, until);
  // Room bookings of fresh feeds (decision 0053): those heating within the horizon, and each
  // unit's next one after it so the scheduler still wakes for it.
  const bookingsByUnit = await bookingsForUnits(db, unitIds, {
    since: lookback,
    until: new Date(last + BOOKING_HORIZON_MS),
    now,
    staleAfterMs: FEED_STALE_AFTER_MS,
  });
  const buildingIds = [...new Set(unitRows.flatMap((u) => (u.buildingId ? [u.buildingId] : [])))];
  const buildingById = await holidayBuildings(db, buildingIds);
  const companyById = new Map(companyRows.map((c) => [c.id, c]));
  const daysByBuilding = await buildingDaysFor(
    db,
    [...buildingById.keys()],
    localDate(lookback, -1),
    localDate(until, 1),
  );
  // Per building once: its public and school holidays and own days as closures, and the days it
  // treats like a Sunday, in its company's zone.
  const calendarByBuilding = new Map<string, BuildingCalendar>();
  const calendarOf = (buildingId: string | null, zone: string): BuildingCalendar => {
    const building = buildingId ? buildingById.get(buildingId) : undefined;
    if (!building) return NO_CALENDAR;
    let calendar = calendarByBuilding.get(building.id);
    if (!calendar) {
      calendar = buildingCalendar(building, daysByBuilding.get(building.id) ?? [], zone, lookback, until);
      calendarByBuilding.set(building.id, calendar);
    }
    return calendar;
  };
  const plansByOwner = new Map<string, HeatingPlan[]>();
  for (const row of planRows) {
    const owner = row.unitId ?? row.groupId;
    if (!owner) continue;
    const list = plansByOwner.get(owner) ?? [];
    list.push(cachedPlan(row, planCache));
    plansByOwner.set(owner, list);
  }
  for (const unit of unitRows) {
    const company = companyById.get(unit.companyId);
    if (!company) continue;
    const own = plansByOwner.get(unit.id) ?? [];
    const group = unit.groupId ? (plansByOwner.get(unit.groupId) ?? []) : [];
    const entered = closuresByUnit.get(unit.id) ?? [];
    const calendar = calendarOf(unit.buildingId, company.timeZone);
    // An entered closure outranks a holiday where they overlap (the engine would let the one
    // that started last win: a holiday inside the Christmas break).
    const holidays = outsideClosures(calendar.closures, entered);
    const closures = holidays.length > 0 ? [...entered, ...holidays] : entered;
    const input = unitHeatingInput(
      unit,
      company,
      own,
      group,
      eventsByUnit.get(unit.id),
      closures.length > 0 ? heatingClosures(company, closures) : [],
    );
    if (calendar.sundays.length > 0) input.sundayDates = calendar.sundays;
    const bookings = bookingsByUnit.get(unit.id);
    if (bookings) input.bookings = bookings;
    result.set(unit.id, input);
  }
  return result;
}
