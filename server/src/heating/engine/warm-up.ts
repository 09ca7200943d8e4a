/**
 * Optimum start/stop model of one unit (decision 0056): how long the room takes to warm up, learned
 * from the unit's own history the way building controllers do it — Siemens' optimum start (default
 * gradient 30 min/K until learned), Honeywell's adaptive recovery and ASHRAE Guideline 36
 * OptimalStart (average warm-up slope of the recent sessions, pre-start clamped to 15 min … 3 h).
 *
 * Pure: no I/O and no clock. Instants are epoch ms UTC, temperatures °C, differences K, rates K/h,
 * durations minutes. The caller feeds room readings, the setpoints as sent (the heating log) and
 * hourly outdoor temperatures; `detectWarmUpSessions` cuts them into warm-up sessions,
 * `fitWarmUpModel` turns the recent sessions into dead time + outdoor-dependent rate, and
 * `leadTime` / `earlyStopMinutes` answer how early to switch.
 */
import { linearRegression, mean, median, medianAbsoluteDeviation } from 'simple-statistics';

/** One room temperature reading. */
export interface RoomSample {
  /** Epoch ms; temperature in °C. */
  at: number;
  temperature: number;
  windowOpen?: boolean;
}

/** One setpoint change of the unit as sent (from the heating log). */
export interface SetpointStep {
  /** Epoch ms; setpoint in °C. */
  at: number;
  setpoint: number;
  /** Heating-log kind: 'regular_plan', 'group_plan', 'paused', 'no_plan', 'closure', 'web_change', 'optimum_start', … */
  source: string;
}

/** Hourly outdoor temperature. */
export interface OutdoorSample {
  at: number;
  temperature: number;
}

/** A period whose data must not teach the model (closures, pauses). */
export interface ExcludedPeriod {
  start: number;
  end: number;
}

export interface WarmUpSession {
  /** When the setpoint stepped up. */
  start: number;
  /** Setpoint − room temperature at the step, K. */
  lift: number;
  /** Mean outdoor temperature during the session, °C; null when unknown. */
  outdoor: number | null;
  /** Minutes from the step until the room had risen by 0.2 K. */
  deadtimeMinutes: number;
  /** K/h from the end of the dead time until setpoint − 0.3 K was reached. */
  rate: number;
  /** Minutes from the step until setpoint − 0.3 K was reached. */
  durationMinutes: number;
}

/** Input of `detectWarmUpSessions` and `detectCoolDowns`; every list sorted by time. */
export interface HistoryInput {
  samples: RoomSample[];
  setpoints: SetpointStep[];
  /** May be empty: sessions then have `outdoor: null`. */
  outdoor: OutdoorSample[];
  excluded: ExcludedPeriod[];
}

export interface WarmUpModel {
  /** Valid sessions the fit used (the last ≤ 10). */
  sessions: number;
  /** Minutes. */
  deadtimeMinutes: number;
  /** Warm-up rate at 0 °C outdoor, K/h. */
  rateAt0: number;
  /** Change of the rate per K outdoor temperature, K/h per K (usually > 0: warmer outside, faster). 0 when outdoor unknown. */
  ratePerOutdoorK: number;
  /** 0 … 1: how much to trust the fit (0 = default model). */
  confidence: number;
  /** true once fitted from ≥ MIN_SESSIONS sessions; false = the default gradient. */
  learned: boolean;
  /** K/h the room loses in the first hour after a step down (median of recent cool-downs); absent = unknown. */
  coolRate?: number;
  /**
   * Minutes a switch-off keeps the room within 0.5 K of where it was (median of recent
   * `detectComfortHolds`, Class A wait included); absent = not seen yet, so no early stop.
   */
  comfortHoldMinutes?: number;
}

export const MIN_SESSIONS = 3;
/** Sessions the fit looks at: the most recent ones follow the season and the building's use. */
export const FIT_WINDOW = 10;
export const MIN_LEAD_MINUTES = 15;
export const DEFAULT_MAX_LEAD_MINUTES = 180;
/** A step below this (K) is noise or a nudge, not a warm-up or a switch-off. */
export const MIN_STEP_K = 1;

/** The default before learning: 30 min per K (Siemens' default gradient), no dead time. */
export const DEFAULT_MODEL: WarmUpModel = {
  sessions: 0,
  deadtimeMinutes: 0,
  rateAt0: 2,
  ratePerOutdoorK: 0,
  confidence: 0,
  learned: false,
};

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Rise that ends the dead time: below it, sensor resolution (0.1–0.5 K on valves) hides the start. */
const DEADTIME_RISE_K = 0.2;
/** A proportional valve creeps over the last few tenths; "arrived" is setpoint − 0.3 K. */
const TARGET_MARGIN_K = 0.3;
const MAX_GAP_MS = 90 * MINUTE_MS;
const MAX_SAMPLE_AGE_MS = 30 * MINUTE_MS;
const MAX_SESSION_MS = 6 * HOUR_MS;
/** Outdoor readings further apart than this are not interpolated across. */
const MAX_OUTDOOR_GAP_MS = 3 * HOUR_MS;
const MIN_OUTDOOR_SPREAD_K = 2;
const OUTLIER_MADS = 3;
/** Slowest rate ever assumed: a broken fit must not ask for days of pre-heat (K/h). */
const MIN_RATE = 0.2;
/**
 * Optimum stop: the room may be this far below its comfort setpoint at the end of the comfort
 * period (Siemens RVL481 heating controller, basic documentation CE1P2541en §10.4.5: "at the end
 * of occupancy, the room temperature will lie 0.5 °C below the setpoint"). The same 0.5 K counts
 * a morning as warm in time.
 */
export const EARLY_STOP_DROP_K = 0.5;
const MAX_EARLY_STOP_MINUTES = 60;
const MIN_EARLY_STOP_MINUTES = 10;
/**
 * Weeks of frost protection leave a cold building whose first warm-up is far slower than usual
 * (walls soaked cold); learning from it would pre-heat too early for the rest of the season.
 */
const FROST_SOURCES: ReadonlySet<string> = new Set(['paused', 'no_plan', 'closure']);

/** Index of the last element with `at ≤ t`, −1 when none. */
function lastAtOrBefore(list: readonly { at: number }[], t: number): number {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as { at: number }).at <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Time at which the straight line from (t0, v0) to (t1, v1) reaches `level`. */
function crossing(t0: number, v0: number, t1: number, v1: number, level: number): number {
  return v1 === v0 ? t1 : t0 + ((level - v0) / (v1 - v0)) * (t1 - t0);
}

/** The room temperature at `t`, interpolated; null without a reading ≤ 30 min before `t`. */
function roomAt(samples: readonly RoomSample[], t: number): { index: number; temperature: number } | null {
  const index = lastAtOrBefore(samples, t);
  const before = samples[index];
  if (!before || t - before.at > MAX_SAMPLE_AGE_MS) return null;
  const after = samples[index + 1];
  if (!after || after.at - before.at > MAX_GAP_MS) return { index, temperature: before.temperature };
  const share = (t - before.at) / (after.at - before.at);
  return { index, temperature: before.temperature + share * (after.temperature - before.temperature) };
}

/**
 * Outdoor temperature (°C) at `t` (epoch ms) from hourly samples sorted by time: linear between
 * the two around it when they are at most 3 h apart; null otherwise (a gap, or outside them).
 */
export function outdoorAt(outdoor: readonly OutdoorSample[], t: number): number | null {
  const index = lastAtOrBefore(outdoor, t);
  const before = outdoor[index];
  const after = outdoor[index + 1];
  if (before && before.at === t) return before.temperature;
  if (!before || !after || after.at - before.at > MAX_OUTDOOR_GAP_MS) return null;
  const share = (t - before.at) / (after.at - before.at);
  return before.temperature + share * (after.temperature - before.temperature);
}

/** Mean outdoor temperature over [start, end]: both ends interpolated plus the readings between. */
function meanOutdoor(outdoor: readonly OutdoorSample[], start: number, end: number): number | null {
  const first = outdoorAt(outdoor, start);
  const last = outdoorAt(outdoor, end);
  if (first === null || last === null) return null;
  const inside = outdoor.filter((o) => o.at > start && o.at < end).map((o) => o.temperature);
  return mean([first, ...inside, last]);
}

function overlapsExcluded(excluded: readonly ExcludedPeriod[], start: number, end: number): boolean {
  return excluded.some((p) => p.start <= end && p.end >= start);
}

/** The first later step whose setpoint differs: a repeated send of the same value changes nothing. */
function nextChange(setpoints: readonly SetpointStep[], i: number): SetpointStep | undefined {
  const setpoint = (setpoints[i] as SetpointStep).setpoint;
  return setpoints.slice(i + 1).find((s) => Math.abs(s.setpoint - setpoint) > 1e-6);
}

/**
 * Cuts a unit's history into warm-up sessions (rules of decision 0056, after Siemens/ASHRAE
 * optimum start): a setpoint step up of ≥ 1 K over the previous setpoint and ≥ 1 K over the room
 * temperature at the step, followed by the room rising to setpoint − 0.3 K. Crossing times are
 * interpolated linearly between readings. A session is discarded when a reading inside it has the
 * window open, another setpoint change comes before the target, readings are missing (none within
 * 30 min before the step, or a gap > 90 min inside), it touches an excluded period, the step or
 * the step before it is frost protection ('paused', 'no_plan', 'closure'), or the target is not
 * reached within 6 h. Returns the valid sessions, oldest first.
 */
export function detectWarmUpSessions(input: HistoryInput): WarmUpSession[] {
  const { samples, setpoints, outdoor, excluded } = input;
  const sessions: WarmUpSession[] = [];
  for (let i = 1; i < setpoints.length; i++) {
    const step = setpoints[i] as SetpointStep;
    const previous = setpoints[i - 1] as SetpointStep;
    if (step.setpoint < previous.setpoint + MIN_STEP_K) continue;
    if (FROST_SOURCES.has(step.source) || FROST_SOURCES.has(previous.source)) continue;
    const atStep = roomAt(samples, step.at);
    if (!atStep) continue;
    const lift = step.setpoint - atStep.temperature;
    if (lift < MIN_STEP_K) continue;
    const deadline = Math.min(
      step.at + MAX_SESSION_MS,
      nextChange(setpoints, i)?.at ?? Number.POSITIVE_INFINITY,
    );
    const deadLevel = atStep.temperature + DEADTIME_RISE_K;
    const targetLevel = step.setpoint - TARGET_MARGIN_K;
    let last = { at: step.at, temperature: atStep.temperature };
    let deadAt: number | null = null;
    let targetAt: number | null = null;
    let valid = !samples[atStep.index]?.windowOpen;
    for (let k = atStep.index + 1; valid && k < samples.length; k++) {
      const sample = samples[k] as RoomSample;
      const gap = sample.at - (samples[k - 1] as RoomSample).at;
      if (gap > MAX_GAP_MS || sample.windowOpen) valid = false;
      else {
        if (deadAt === null && sample.temperature >= deadLevel) {
          deadAt = crossing(last.at, last.temperature, sample.at, sample.temperature, deadLevel);
        }
        if (sample.temperature >= targetLevel) {
          targetAt = crossing(last.at, last.temperature, sample.at, sample.temperature, targetLevel);
          break;
        }
        if (sample.at >= deadline) valid = false;
        last = sample;
      }
    }
    if (!valid || deadAt === null || targetAt === null || targetAt >= deadline || targetAt <= deadAt)
      continue;
    if (overlapsExcluded(excluded, step.at, targetAt)) continue;
    sessions.push({
      start: step.at,
      lift,
      outdoor: meanOutdoor(outdoor, step.at, targetAt),
      deadtimeMinutes: (deadAt - step.at) / MINUTE_MS,
      rate: (targetLevel - deadLevel) / ((targetAt - deadAt) / HOUR_MS),
      durationMinutes: (targetAt - step.at) / MINUTE_MS,
    });
  }
  return sessions;
}

/** One switch-off the model may learn from: the step, the room at it, the readings of the hour after. */
interface CoolDownWindow {
  step: SetpointStep;
  /** Room °C at the step, interpolated. */
  atStep: number;
  /** Room °C one hour after the step, interpolated. */
  atEnd: number;
  /** The readings from the last one at or before the step to the first one after the hour. */
  inside: RoomSample[];
}

/**
 * The switch-offs of a unit's history, oldest first: every setpoint step down of ≥ 1 K with the
 * room ≥ 1 K above the new setpoint (so the valve closes). Discarded like warm-up sessions: window
 * open, another setpoint change within the hour, missing readings, or an excluded period.
 */
function coolDownWindows(input: HistoryInput): CoolDownWindow[] {
  const { samples, setpoints, excluded } = input;
  const windows: CoolDownWindow[] = [];
  for (let i = 1; i < setpoints.length; i++) {
    const step = setpoints[i] as SetpointStep;
    if (step.setpoint > (setpoints[i - 1] as SetpointStep).setpoint - MIN_STEP_K) continue;
    const end = step.at + HOUR_MS;
    const change = nextChange(setpoints, i);
    if ((change && change.at <= end) || overlapsExcluded(excluded, step.at, end)) continue;
    const atStep = roomAt(samples, step.at);
    if (!atStep || atStep.temperature - step.setpoint < MIN_STEP_K) continue;
    const lastIndex = lastAtOrBefore(samples, end);
    const atEnd = roomAt(samples, end);
    if (!atEnd || lastIndex + 1 >= samples.length) continue;
    const inside = samples.slice(atStep.index, lastIndex + 2);
    const gapped = inside.some((s, k) => k > 0 && s.at - (inside[k - 1] as RoomSample).at > MAX_GAP_MS);
    if (gapped || inside.some((s) => s.windowOpen)) continue;
    windows.push({ step, atStep: atStep.temperature, atEnd: atEnd.temperature, inside });
  }
  return windows;
}

/**
 * The cool-down rates (K/h, positive = cooling) of a unit's history, oldest first: the fall of the
 * room temperature over the first hour of every switch-off `coolDownWindows` keeps.
 */
export function detectCoolDowns(input: HistoryInput): number[] {
  return coolDownWindows(input).map((w) => w.atStep - w.atEnd);
}

/**
 * How long each switch-off kept the comfort (minutes, oldest first): from the step until the room
 * had fallen `EARLY_STOP_DROP_K` below its temperature at the step, interpolated between readings;
 * 60 when it had not within the hour. Measured, not derived from the hour's mean rate: the air of
 * a room falls fastest right after its valve closes (it sheds the lead it held over walls and
 * furniture), so the hour's mean would promise a longer hold than the room gives. The time
 * includes the Class A wait of that day's switch-off; `earlyStopMinutes` allows for it.
 */
export function detectComfortHolds(input: HistoryInput): number[] {
  return coolDownWindows(input).map(({ step, atStep, inside }) => {
    const limit = atStep - EARLY_STOP_DROP_K;
    let before = { at: step.at, temperature: atStep };
    for (const sample of inside) {
      if (sample.at <= step.at) continue;
      if (sample.at > step.at + HOUR_MS) break;
      if (sample.temperature <= limit) {
        const share = (before.temperature - limit) / (before.temperature - sample.temperature);
        return Math.round((before.at + share * (sample.at - before.at) - step.at) / MINUTE_MS);
      }
      before = sample;
    }
    return 60;
  });
}

/**
 * Fits the warm-up model to the last 10 sessions (by start) and, when given, the cool-down rates
 * (K/h) and comfort holds (minutes), oldest first; the last 10 of each count. Below `MIN_SESSIONS` sessions: `DEFAULT_MODEL`.
 * - dead time: median of the sessions' dead times;
 * - rate: drop sessions whose rate lies > 3 × MAD from the median rate, then a least-squares line
 *   rate = rateAt0 + ratePerOutdoorK × outdoor over those with a known outdoor temperature; with
 *   fewer than 3 of them or an outdoor spread < 2 K, the median rate and no outdoor term;
 * - confidence = min(1, n / 10) × (1 − MAD(residuals) / mean rate), clamped to 0 … 1 and rounded
 *   to 2 decimals: many sessions that agree with the fit → 1;
 * - coolRate: median of the cool-down rates, absent without any;
 * - comfortHoldMinutes: median of the comfort holds (`detectComfortHolds`), absent without any.
 */
export function fitWarmUpModel(
  sessions: WarmUpSession[],
  coolDowns?: number[],
  comfortHolds?: number[],
): WarmUpModel {
  const recent = [...sessions].sort((a, b) => a.start - b.start).slice(-FIT_WINDOW);
  if (recent.length < MIN_SESSIONS) return { ...DEFAULT_MODEL };
  const rates = recent.map((s) => s.rate);
  const center = median(rates);
  const spread = medianAbsoluteDeviation(rates);
  const kept = recent.filter((s) => Math.abs(s.rate - center) <= OUTLIER_MADS * spread || spread === 0);
  const known = kept.filter((s): s is WarmUpSession & { outdoor: number } => s.outdoor !== null);
  const outdoors = known.map((s) => s.outdoor);
  const useOutdoor =
    known.length >= MIN_SESSIONS && Math.max(...outdoors) - Math.min(...outdoors) >= MIN_OUTDOOR_SPREAD_K;
  const line = useOutdoor ? linearRegression(known.map((s) => [s.outdoor, s.rate])) : { m: 0, b: center };
  const fitted = useOutdoor ? known : recent;
  const residuals = fitted.map((s) => s.rate - (line.b + line.m * (s.outdoor ?? 0)));
  const relativeSpread = medianAbsoluteDeviation(residuals) / mean(fitted.map((s) => s.rate));
  const confidence = Math.max(0, Math.min(1, recent.length / FIT_WINDOW) * (1 - relativeSpread));
  const recentCools = coolDowns?.slice(-FIT_WINDOW) ?? [];
  const recentHolds = comfortHolds?.slice(-FIT_WINDOW) ?? [];
  return {
    sessions: recent.length,
    deadtimeMinutes: median(recent.map((s) => s.deadtimeMinutes)),
    rateAt0: line.b,
    ratePerOutdoorK: line.m,
    confidence: Math.round(confidence * 100) / 100,
    learned: true,
    ...(recentCools.length > 0 ? { coolRate: median(recentCools) } : {}),
    ...(recentHolds.length > 0 ? { comfortHoldMinutes: median(recentHolds) } : {}),
  };
}

/**
 * The warm-up rate (K/h) the model predicts at `outdoor` °C, never below 0.2 K/h so a wild fit
 * cannot ask for days of pre-heat. Without a forecast (null) the rate at 0 °C, a typical heating-day
 * value.
 */
export function warmUpRate(model: WarmUpModel, outdoor: number | null): number {
  return Math.max(MIN_RATE, model.rateAt0 + model.ratePerOutdoorK * (outdoor ?? 0));
}

export interface LeadTimeInput {
  /** Comfort setpoint − expected room temperature at the start, K (≤ 0 → no pre-heat beyond the Class A delay). */
  lift: number;
  /** Forecast outdoor temperature °C at the switch point, or null (indoor-only model). */
  outdoor: number | null;
  /** Company maximum lead, minutes (default 180). */
  maxMinutes: number;
  /** The valve's reporting interval in minutes: a Class A device only receives a downlink after its next uplink, so the command must leave that much earlier. */
  uplinkIntervalMinutes: number;
}

export interface LeadTime {
  /** Total minutes before the switch point the comfort setpoint is sent (rounded to whole minutes). */
  minutes: number;
  /** The heat-up part: deadtime + lift / rate, clamped to [15, maxMinutes]. */
  heatUpMinutes: number;
  /** The Class A part. */
  classADelayMinutes: number;
  /** K/h used. */
  rate: number;
}

/**
 * How long before a comfort switch point the comfort setpoint must be sent: heat-up = dead time +
 * lift / rate (ASHRAE G36 OptimalStart), clamped to [15 min, maxMinutes] (G36's 15 min … 3 h), 0
 * when the room is already warm (lift ≤ 0); plus the Class A delay of one reporting interval,
 * because the valve only hears the command after its next uplink.
 */
export function leadTime(model: WarmUpModel, input: LeadTimeInput): LeadTime {
  const rate = warmUpRate(model, input.outdoor);
  const heatUp =
    input.lift <= 0
      ? 0
      : Math.min(
          input.maxMinutes,
          Math.max(MIN_LEAD_MINUTES, model.deadtimeMinutes + (input.lift / rate) * 60),
        );
  return {
    minutes: Math.round(heatUp + input.uplinkIntervalMinutes),
    heatUpMinutes: heatUp,
    classADelayMinutes: input.uplinkIntervalMinutes,
    rate,
  };
}

export interface EarlyStopInput {
  /** Comfort setpoint, °C. */
  comfort: number;
  /** The setpoint after the switch-off, °C. */
  next: number;
  /** Outdoor °C or null; the learned cool rate already is a median over recent weather, so unused for now. */
  outdoor: number | null;
  uplinkIntervalMinutes: number;
}

/**
 * Minutes the comfort period may end early (optimum stop: the room is still within 0.5 K of
 * comfort when the period ends, `EARLY_STOP_DROP_K`): the room's learned comfort hold minus one
 * reporting interval — the hold was measured from a switch-off the valve may have heard up to an
 * interval late, while the early one may be heard at once — at most 60. 0 when it would save less
 * than 10 min, when next ≥ comfort, while the model is not learned, or before a hold was seen.
 */
export function earlyStopMinutes(model: WarmUpModel, input: EarlyStopInput): number {
  const hold = model.comfortHoldMinutes;
  if (!model.learned || input.next >= input.comfort || hold === undefined) return 0;
  const minutes = Math.min(MAX_EARLY_STOP_MINUTES, hold - input.uplinkIntervalMinutes);
  return minutes < MIN_EARLY_STOP_MINUTES ? 0 : Math.round(minutes);
}
