/**
 * What optimum start and stop needs per unit (decision 0056), loaded in a fixed number of
 * queries: the company's mode and longest lead, the unit's learned warm-up model (the default
 * gradient until one is learned), the longest reporting interval of its valves (the Class A
 * delay) and its last room temperature. `planShiftsFor` turns it into the engine's plan shifts
 * and says, per shift, how it was computed, for the preview's explanation.
 *
 * Outdoor temperature (decision 0057): the hourly values of the unit's building (observed, then
 * forecast) give the lead and the early stop the temperature outside at the switch point; a unit
 * without building or a building without weather runs on indoor data alone (the rate at 0 °C
 * outdoor) and its explanations say `outdoor: null`.
 */
import type { Db } from '../db/client.ts';
import { getCodec, isModelId } from '../lorawan/codecs/registry.ts';
import { loadOutdoor } from '../weather/outdoor-store.repository.ts';
import { type OptimumEstimator, optimumShifts, type PlanStep } from './engine/optimum.ts';
import type { HeatingBooking, PlanShift, UnitHeatingInput } from './engine/types.ts';
import {
  DEFAULT_MODEL,
  earlyStopMinutes,
  leadTime,
  type OutdoorSample,
  outdoorAt,
  type WarmUpModel,
} from './engine/warm-up.ts';
import { companiesOptimum, deviceModelsOfUnits, warmUpModelsOf } from './inputs.repository.ts';
import type { EngineUnit } from './inputs.ts';

export { findCompanyOptimum, findWarmUpModel } from './inputs.repository.ts';

export interface UnitOptimum {
  /** `shadow`: shifts are computed and shown, never sent. */
  mode: 'shadow' | 'on';
  model: WarmUpModel;
  /** Company maximum of the heat-up part, minutes. */
  maxLeadMinutes: number;
  /** Longest reporting interval of the unit's valves, minutes; 0 without valves. */
  uplinkIntervalMinutes: number;
  /** The unit's last room temperature °C, or null. */
  roomTemperature: number | null;
  /** Hourly outdoor temperature of the unit's building around now; empty without one. */
  outdoor: OutdoorSample[];
}

/** How one shift was computed, for "Vorheizen ab 06:12 — 16,8 → 21 °C … gelernt 1,9 K/h, Sicherheit 85 %". */
export interface ShiftExplanation {
  kind: PlanShift['kind'];
  /** The switch point moved earlier. */
  switchAt: Date;
  /** When the new setpoint is sent. */
  start: Date;
  /** °C the room is expected at when heating starts (optimum start) or the comfort setpoint (stop). */
  from: number;
  /** °C of the switch point. */
  to: number;
  /** °C outside at the switch point (the building's forecast); null without one. */
  outdoor: number | null;
  /** K/h used (optimum start) or the learned cool-down rate (stop). */
  rate: number;
  /** Minutes of the Class A delay inside the lead. */
  classADelayMinutes: number;
  /** 0…1 of the model; 0 = the default gradient. */
  confidence: number;
  learned: boolean;
}

/** Cooling assumed between now and a step when the unit has not learned its own (K/h). */
const DEFAULT_COOL_RATE = 0.5;
/**
 * Without a plan set-back to cool toward, a booked room is assumed to fall at most this far (K)
 * below the booking's temperature: a room between bookings sits at its plan's set-back, which
 * is 3–5 K below comfort in the plans we see.
 */
const DEFAULT_BOOKING_LIFT_K = 4;
const HOUR_MS = 3_600_000;
/** Outdoor values loaded around now: a running pre-heat's start back to the engine's horizon. */
const OUTDOOR_BEFORE_MS = 8 * HOUR_MS;
const OUTDOOR_AFTER_MS = 10 * 24 * HOUR_MS;

/**
 * The optimum data of the units whose company runs optimum start in one of `modes` (default
 * both) and that take part (`units.optimum_start`); other units are absent from the map.
 */
export async function loadUnitOptimum(
  db: Db,
  unitRows: EngineUnit[],
  modes: readonly UnitOptimum['mode'][] = ['shadow', 'on'],
  now: Date = new Date(),
): Promise<Map<string, UnitOptimum>> {
  const result = new Map<string, UnitOptimum>();
  const taking = unitRows.filter((u) => u.optimumStart);
  if (taking.length === 0) return result;
  const companyRows = await companiesOptimum(db, [...new Set(taking.map((u) => u.companyId))]);
  const companyById = new Map(
    companyRows.flatMap((c) =>
      c.mode !== 'off' && modes.includes(c.mode) ? [[c.id, { ...c, mode: c.mode }]] : [],
    ),
  );
  const units = taking.filter((u) => companyById.has(u.companyId));
  if (units.length === 0) return result;
  const unitIds = units.map((u) => u.id);
  const models = await warmUpModelsOf(db, unitIds);
  const modelByUnit = new Map(models.map((m) => [m.unitId, m]));
  const deviceRows = await deviceModelsOfUnits(db, unitIds);
  const intervalByUnit = new Map<string, number>();
  for (const device of deviceRows) {
    // Only valves take setpoints; a sensor's interval does not delay them.
    const codec = isModelId(device.model) ? getCodec(device.model) : null;
    const minutes = codec?.kind === 'valve' ? codec.reportIntervalS / 60 : 0;
    const unitId = device.unitId as string;
    intervalByUnit.set(unitId, Math.max(intervalByUnit.get(unitId) ?? 0, minutes));
  }
  const outdoorByBuilding = await loadOutdoor(
    db,
    units.flatMap((u) => (u.buildingId ? [u.buildingId] : [])),
    new Date(now.getTime() - OUTDOOR_BEFORE_MS),
    new Date(now.getTime() + OUTDOOR_AFTER_MS),
  );
  for (const unit of units) {
    const company = companyById.get(unit.companyId);
    if (!company) continue;
    const row = modelByUnit.get(unit.id);
    result.set(unit.id, {
      mode: company.mode,
      model: row
        ? {
            sessions: row.sessions.length,
            deadtimeMinutes: row.deadtimeMinutes,
            rateAt0: row.rateAt0,
            ratePerOutdoorK: row.ratePerOutdoorK,
            confidence: row.confidence,
            learned: row.learned,
            ...(row.coolRate === null ? {} : { coolRate: row.coolRate }),
            ...(row.comfortHoldMinutes === null ? {} : { comfortHoldMinutes: row.comfortHoldMinutes }),
          }
        : DEFAULT_MODEL,
      maxLeadMinutes: company.maxLead,
      uplinkIntervalMinutes: intervalByUnit.get(unit.id) ?? 0,
      roomTemperature: unit.roomTemperature,
      outdoor: (unit.buildingId && outdoorByBuilding.get(unit.buildingId)) || [],
    });
  }
  return result;
}

/**
 * The room temperature (°C) expected when heating for `step` would start: the last reading,
 * cooled toward the set-back until then, never below the set-back it cools to and never above
 * the reading. Without a reading the set-back itself.
 */
function expectedRoom(optimum: UnitOptimum, step: PlanStep, now: Date): number {
  const room = optimum.roomTemperature;
  if (room === null) return step.from;
  const hours = Math.max(0, (step.at.getTime() - now.getTime()) / HOUR_MS);
  const cool = optimum.model.coolRate ?? DEFAULT_COOL_RATE;
  return Math.min(room, Math.max(step.from, room - cool * hours));
}

/** The lead before a rise to `step.to` at `step.at`, from the room expected when heating starts. */
function preheatLead(optimum: UnitOptimum, step: PlanStep, now: Date) {
  const room = expectedRoom(optimum, step, now);
  const outdoor = outdoorAt(optimum.outdoor, step.at.getTime());
  const lead = leadTime(optimum.model, {
    lift: step.to - room,
    outdoor,
    maxMinutes: optimum.maxLeadMinutes,
    uplinkIntervalMinutes: optimum.uplinkIntervalMinutes,
  });
  return { room, lead, outdoor };
}

/**
 * The plan shifts of `input` for the switch points in `(from, to]` as seen at `now`, with an
 * explanation per shift. `input.planShifts` is not changed: callers set it in `on` mode only.
 */
export function planShiftsFor(
  input: UnitHeatingInput,
  optimum: UnitOptimum,
  from: Date,
  to: Date,
  now: Date,
): { shifts: PlanShift[]; explanations: ShiftExplanation[] } {
  const explanations: ShiftExplanation[] = [];
  const { model } = optimum;
  const estimator: OptimumEstimator = {
    startMinutes(step) {
      const { room, lead, outdoor } = preheatLead(optimum, step, now);
      if (lead.minutes <= 0) return 0;
      explanations.push({
        kind: 'optimum_start',
        switchAt: step.at,
        start: new Date(step.at.getTime() - lead.minutes * 60_000),
        from: room,
        to: step.to,
        outdoor,
        rate: lead.rate,
        classADelayMinutes: lead.classADelayMinutes,
        confidence: model.confidence,
        learned: model.learned,
      });
      return lead.minutes;
    },
    stopMinutes(step) {
      const outdoor = outdoorAt(optimum.outdoor, step.at.getTime());
      const minutes = earlyStopMinutes(model, {
        comfort: step.from,
        next: step.to,
        outdoor,
        uplinkIntervalMinutes: optimum.uplinkIntervalMinutes,
      });
      if (minutes <= 0) return 0;
      explanations.push({
        kind: 'optimum_stop',
        switchAt: step.at,
        start: new Date(step.at.getTime() - minutes * 60_000),
        from: step.from,
        to: step.to,
        outdoor,
        rate: model.coolRate ?? 0,
        classADelayMinutes: 0,
        confidence: model.confidence,
        learned: model.learned,
      });
      return minutes;
    },
  };
  const shifts = optimumShifts(input, from, to, estimator);
  // A shift starts no earlier than the step before it: report the start it really got.
  const startBySwitch = new Map(shifts.map((s) => [s.end.getTime(), s.start]));
  return {
    shifts,
    explanations: explanations.flatMap((e) => {
      const start = startBySwitch.get(e.switchAt.getTime());
      return start ? [{ ...e, start }] : [];
    }),
  };
}

/**
 * Plan shifts reach the engine this far around `now`: back far enough that `since` of a running
 * pre-heat is its start, ahead past the engine's 8-day horizon so `nextChangeAt` is exact.
 */
const SHIFTS_BEFORE_MS = 7 * 3_600_000;
const SHIFTS_AFTER_MS = 9 * 86_400_000;

/** Units of companies running optimum start `on` get their plan steps moved earlier (decision 0056). */
export async function addPlanShifts(
  tx: Db,
  unitRows: EngineUnit[],
  inputs: Map<string, UnitHeatingInput>,
  now: Date,
) {
  const optimum = await loadUnitOptimum(tx, unitRows, ['on'], now);
  const from = new Date(now.getTime() - SHIFTS_BEFORE_MS);
  const to = new Date(now.getTime() + SHIFTS_AFTER_MS);
  for (const [unitId, unitOptimum] of optimum) {
    const input = inputs.get(unitId);
    if (input) applyOptimum(input, unitOptimum, from, to, now);
  }
}

/**
 * Optimum start and stop for one unit's `input` over `(from, to]` as seen at `now`: in `on` mode
 * the plan shifts and the learned booking leads go into `input` (changed in place); in both
 * modes the explanation of every shift is returned.
 */
export function applyOptimum(
  input: UnitHeatingInput,
  optimum: UnitOptimum,
  from: Date,
  to: Date,
  now: Date,
): ShiftExplanation[] {
  const { shifts, explanations } = planShiftsFor(input, optimum, from, to, now);
  if (optimum.mode === 'on') {
    input.planShifts = shifts;
    if (input.bookings && optimum.model.learned)
      input.bookings = learnedBookingLeads(input.bookings, optimum, now);
  }
  return explanations;
}

/**
 * Bookings heat from the learned lead instead of their feed's fixed one once the room has
 * learned its warm-up (decision 0056): the lift from the room expected then to the booking's
 * temperature. A booking without its own temperature (the plan's highest of the day) keeps
 * the feed's lead: its lift is not known here.
 */
function learnedBookingLeads(bookings: HeatingBooking[], optimum: UnitOptimum, now: Date): HeatingBooking[] {
  return bookings.map((booking) => {
    if (booking.temperature === null || !booking.bookedStart) return booking;
    const start = booking.bookedStart;
    // Between bookings the room sits at an unknown set-back: assume it falls that far at most.
    const step = { at: start, from: booking.temperature - DEFAULT_BOOKING_LIFT_K, to: booking.temperature };
    const { lead } = preheatLead(optimum, step, now);
    return { ...booking, start: new Date(start.getTime() - lead.minutes * 60_000) };
  });
}
