/**
 * A heating circuit's (Heizkreis) demand and supply temperature (Vorlauf) from what its rooms'
 * valves report: whether the heat generator should run, how much the rooms ask for, and the
 * supply temperature they need — instead of a fixed heating curve that has to be hot enough for
 * the worst room on the coldest morning.
 *
 * The supply temperature follows trim and respond, the reset pattern of ASHRAE Guideline 36-2021
 * §5.1.14 that §5.21.4 applies to a boiler plant's hot-water supply: every step (5 min) lower
 * the setpoint by a small amount; when more rooms ask for heat than the number ignored, raise it
 * by a larger amount per request instead, never by more than a maximum per step. The defaults
 * are G36's for hot water (trim −1.1 K, respond +1.7 K, at most +3.9 K, 10 min hold after the
 * plant starts), except that no request is ignored (see `SUPPLY_RESET_DEFAULTS`). A room's requests, adapted from G36's hot-water reset
 * requests to radiators: its valve is at least 90 % open (and stays a requester until it closes
 * below 80 %) while the room is below its setpoint by more than the tolerance — 1 request, 2
 * from 1.5 K below, 3 from 3 K below; a room whose learned pre-heat (optimum start) begins soon
 * asks once ahead of its valve. Rooms flagged faulty (open window, valve fault, offline, "not
 * warming") ask for nothing, so one broken room cannot keep the building hot.
 *
 * Pure: the caller passes the instant, the rooms' latest reports and the previous state; nothing
 * here reads a clock or the database. Temperatures °C, differences K, openings %, time epoch ms.
 */

/** How a circuit's controller is set; see `SUPPLY_RESET_DEFAULTS`. */
export interface SupplyResetSettings {
  /** Lowest supply setpoint the generator may get, °C. */
  minSupply: number;
  /** Highest supply setpoint, °C (the circuit's limit). */
  maxSupply: number;
  /** The setpoint stays at most this far above the circuit's heating curve, K. */
  curveMarginK: number;
  /** Change per step when the requests are not more than the ignored ones, K (negative). */
  trimK: number;
  /** Raise per request above the ignored ones, K. */
  respondK: number;
  /** Largest raise in one step, K. */
  maxRespondK: number;
  /** Requests that change nothing (G36's "I"). */
  ignoredRequests: number;
  /** After the generator starts, the setpoint is held this long, ms. */
  holdAfterStartMs: number;
  /** Shortest run and shortest pause of the generator against short cycling, ms. */
  minOnMs: number;
  minOffMs: number;
  /** A room this little below its setpoint asks for nothing, K. */
  toleranceK: number;
  /** A valve at least this open makes its room a requester … */
  requestOpenPercent: number;
  /** … until it closes below this (hysteresis). */
  releaseOpenPercent: number;
  /** A valve at least this open means the room is drawing heat. */
  drawingOpenPercent: number;
  /** A room below this runs the generator whatever else holds (frost protection), °C. */
  frostTemperature: number;
}

/**
 * G36-2021 §5.21.4's hot-water reset steps, converted to K, and Heizplan's room rules. G36 ignores
 * 2 requests (an air handler's zones are many and some always ask); here every room counts, as a
 * faulty one is left out by its flag (decision 0076 has the bench's figures for 0, 1 and 2).
 */
export const SUPPLY_RESET_DEFAULTS: SupplyResetSettings = {
  minSupply: 25,
  maxSupply: 75,
  curveMarginK: 5,
  trimK: -1.1,
  respondK: 1.7,
  maxRespondK: 3.9,
  ignoredRequests: 0,
  holdAfterStartMs: 10 * 60_000,
  minOnMs: 20 * 60_000,
  minOffMs: 20 * 60_000,
  toleranceK: 0.3,
  requestOpenPercent: 90,
  releaseOpenPercent: 80,
  drawingOpenPercent: 5,
  frostTemperature: 7,
};

/** One room (unit) of the circuit as its valve last reported it. */
export interface CircuitRoom {
  unitId: string;
  /** What the valve holds now, °C. */
  setpoint: number;
  /** Last reported room temperature, °C; null when nothing usable was reported. */
  roomTemperature: number | null;
  /** Last reported valve opening, %; null when unknown. */
  valveOpening: number | null;
  /** Open window, valve fault, offline or "not warming": the room is left out. */
  faulty: boolean;
  /** The room's pre-heat (optimum start) begins within the next steps. */
  preheatSoon: boolean;
  /** Relative radiator size (1 = average); weighs the room in the demand. */
  weight: number;
}

/** What the controller remembers from step to step. */
export interface SupplyResetState {
  /** The generator is asked to run. */
  enabled: boolean;
  /** When `enabled` last changed, epoch ms (0: never). */
  switchedAt: number;
  /** The supply setpoint while enabled, °C. */
  supplySetpoint: number | null;
  /** Rooms whose valve made them requesters (kept until the valve closes below the release). */
  requesters: string[];
}

export const SUPPLY_RESET_OFF: SupplyResetState = {
  enabled: false,
  switchedAt: 0,
  supplySetpoint: null,
  requesters: [],
};

/** Why the generator runs or not after a step. */
export type CircuitReason = 'demand' | 'frost' | 'no-demand' | 'min-on' | 'min-off';

export interface SupplyResetStep {
  state: SupplyResetState;
  /** Run the generator (burner or compressor enable). */
  enabled: boolean;
  /** The supply setpoint to send, °C; null while off. */
  supplySetpoint: number | null;
  /** Radiator-weighted mean opening of the usable rooms, 0–100 %. */
  demandPercent: number;
  /** All rooms' requests this step. */
  requests: number;
  /** Rooms with at least one request, most first: the rooms holding the temperature up. */
  holdingUp: Array<{ unitId: string; requests: number }>;
  /** Rooms drawing heat or asking for it. */
  roomsNeedingHeat: number;
  reason: CircuitReason;
}

/** A room's requests this step and whether its valve keeps it a requester; see the module doc. */
export function roomRequests(
  room: CircuitRoom,
  wasRequester: boolean,
  settings: SupplyResetSettings = SUPPLY_RESET_DEFAULTS,
): { requests: number; requester: boolean } {
  if (room.faulty || room.roomTemperature === null || room.valveOpening === null) {
    return { requests: room.faulty ? 0 : room.preheatSoon ? 1 : 0, requester: false };
  }
  const threshold = wasRequester ? settings.releaseOpenPercent : settings.requestOpenPercent;
  const requester = room.valveOpening >= threshold;
  const deficit = room.setpoint - room.roomTemperature;
  let requests = 0;
  if (requester && deficit > settings.toleranceK) requests = deficit >= 3 ? 3 : deficit >= 1.5 ? 2 : 1;
  if (room.preheatSoon) requests = Math.max(requests, 1);
  return { requests, requester };
}

/** True when the room draws heat (valve open) or asks for it (below setpoint, pre-heat soon). */
function needsHeat(room: CircuitRoom, settings: SupplyResetSettings): boolean {
  if (room.faulty) return false;
  if (room.preheatSoon) return true;
  if (room.roomTemperature === null || room.valveOpening === null) return false;
  return (
    room.valveOpening >= settings.drawingOpenPercent ||
    room.setpoint - room.roomTemperature > settings.toleranceK
  );
}

/** The setpoint's bounds for a heating-curve value: [min, min(max, curve + margin)], never empty. */
export function supplyBounds(
  curveSupply: number,
  settings: SupplyResetSettings,
): { low: number; high: number } {
  const high = Math.max(
    settings.minSupply,
    Math.min(settings.maxSupply, curveSupply + settings.curveMarginK),
  );
  return { low: settings.minSupply, high };
}

/**
 * One step of the circuit's controller (call it every 5 minutes). `curveSupply` is the circuit's
 * heating curve at the current outdoor temperature, °C: a start begins there, and the setpoint
 * never rises more than the margin above it.
 */
export function stepSupplyReset(
  previous: SupplyResetState,
  rooms: readonly CircuitRoom[],
  curveSupply: number,
  now: number,
  settings: SupplyResetSettings = SUPPLY_RESET_DEFAULTS,
): SupplyResetStep {
  const wasRequester = new Set(previous.requesters);
  const requesters: string[] = [];
  const holdingUp: Array<{ unitId: string; requests: number }> = [];
  let requests = 0;
  let roomsNeedingHeat = 0;
  let frost = false;
  let weighted = 0;
  let weights = 0;
  for (const room of rooms) {
    const asked = roomRequests(room, wasRequester.has(room.unitId), settings);
    if (asked.requester) requesters.push(room.unitId);
    if (asked.requests > 0) holdingUp.push({ unitId: room.unitId, requests: asked.requests });
    requests += asked.requests;
    if (needsHeat(room, settings)) roomsNeedingHeat += 1;
    if (room.roomTemperature !== null && room.roomTemperature < settings.frostTemperature) frost = true;
    if (!room.faulty && room.valveOpening !== null) {
      weighted += room.weight * room.valveOpening;
      weights += room.weight;
    }
  }
  holdingUp.sort((a, b) => b.requests - a.requests || a.unitId.localeCompare(b.unitId));

  const wanted = frost || roomsNeedingHeat > 0;
  let enabled = wanted;
  let reason: CircuitReason = frost ? 'frost' : wanted ? 'demand' : 'no-demand';
  if (wanted !== previous.enabled && previous.switchedAt > 0) {
    const since = now - previous.switchedAt;
    if (previous.enabled && since < settings.minOnMs) {
      enabled = true;
      reason = 'min-on';
    } else if (!previous.enabled && since < settings.minOffMs) {
      enabled = false;
      reason = 'min-off';
    }
  }
  const switchedAt = enabled !== previous.enabled ? now : previous.switchedAt;

  const { low, high } = supplyBounds(curveSupply, settings);
  const clamp = (value: number) => Math.min(high, Math.max(low, value));
  let supplySetpoint: number | null = null;
  if (enabled) {
    if (!previous.enabled || previous.supplySetpoint === null) supplySetpoint = clamp(curveSupply);
    else if (now - switchedAt < settings.holdAfterStartMs) supplySetpoint = clamp(previous.supplySetpoint);
    else {
      const counted = requests - settings.ignoredRequests;
      const change =
        counted > 0 ? Math.min(settings.respondK * counted, settings.maxRespondK) : settings.trimK;
      supplySetpoint = clamp(previous.supplySetpoint + change);
    }
  }

  return {
    state: { enabled, switchedAt, supplySetpoint, requesters },
    enabled,
    supplySetpoint,
    demandPercent: weights > 0 ? weighted / weights : 0,
    requests,
    holdingUp,
    roomsNeedingHeat,
    reason,
  };
}

/**
 * A heating curve as installers set it: the supply temperature at the design outdoor temperature
 * and at the room temperature (where the supply equals the room), bent by the radiators'
 * exponent so that the radiators' output follows the building's loss (EN 442: Q ∝ ΔT^n). Returns
 * °C; at or above `roomTemperature` outdoors it returns `roomTemperature`.
 */
export function heatingCurve(
  outdoor: number,
  curve: { designSupply: number; designOutdoor: number; roomTemperature?: number; exponent?: number },
): number {
  const room = curve.roomTemperature ?? 20;
  const exponent = curve.exponent ?? 1.3;
  const load = Math.max(0, (room - outdoor) / (room - curve.designOutdoor));
  return room + (curve.designSupply - room) * load ** (1 / exponent);
}
