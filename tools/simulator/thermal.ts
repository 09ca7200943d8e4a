/**
 * A deliberately simple room model for the simulator: the valve's controller opens in
 * proportion to how far the room is below the setpoint, plus an integral part that grows while
 * the room stays below it (electronic radiator valves regulate PI, so a room reaches its
 * setpoint instead of settling a kelvin below); an open valve pulls the room toward the
 * supply (flow) temperature, and the room always loses heat toward the outside temperature.
 * Integrated in steps of at most one minute, so large time jumps (backfill) stay stable.
 * All temperatures °C, valve opening %, time in hours.
 *
 * One node by default: the whole room is one first-order store (`heatRate` and `lossRate` are
 * per unit of its heat capacity). With `ThermalParams.mass` it becomes the two-node (2R2C)
 * reduction of ISO 13790's 5R1C room: a light *air node* (air, furniture, the radiator and its
 * surroundings — the node the valve's own sensor reads, `roomTemperature`) coupled to a heavy
 * *mass node* (walls, floor, ceiling — `massTemperature`):
 *
 *   C_air  dT_air/dt  = Q_rad − H_am (T_air − T_mass) − H_ao (T_air − T_out)
 *   C_mass dT_mass/dt = H_am (T_air − T_mass) − H_mo (T_mass − T_out)
 *
 * with Q_rad = UA_rad × opening/100 × (supply − T_air). Window and ventilation losses (H_ao) act
 * on the air, the opaque fabric (H_mo) on the mass. Every rate is divided by C_air: `heatRate` =
 * UA_rad / C_air, `lossRate` = H_ao / C_air, `mass.couplingRate` = H_am / C_air, `mass.lossRate`
 * = H_mo / C_air, `mass.capacityRatio` = C_mass / C_air. The two-node step is implicit (backward
 * Euler on the linear part, the valve held for the step), so even a stiff air node cannot
 * oscillate; the one-node step is the explicit one-minute step it always was.
 *
 * `heatDelivered` counts the radiator's output, Σ heatRate × opening/100 × (supply − T_air) × h,
 * in kelvin × the (air) node's heat capacity: multiply by C_air for Wh. It is what the boiler
 * burns (before its own losses), unlike valve-open hours, which a PI valve keeps near-constant.
 */

export interface RoomState {
  /** The (air) node's temperature, the one the valve's sensor reads, °C. */
  roomTemperature: number;
  setpoint: number;
  /** 0 = closed, 100 = fully open. */
  valveOpening: number;
  /** The controller's integral part, % opening (0–100); absent = 0. */
  integral?: number;
  /** Mass-node temperature, °C; only with `ThermalParams.mass` (absent = starts at `roomTemperature`). */
  massTemperature?: number;
  /** Radiator heat delivered so far, K × the (air) node's capacity; cumulative, absent = 0. */
  heatDelivered?: number;
}

/** The heavy node of a two-node room; all rates per unit of the air node's heat capacity. */
export interface MassNode {
  /** C_mass / C_air. */
  capacityRatio: number;
  /** Air ↔ mass conductance H_am / C_air, per hour. */
  couplingRate: number;
  /** Mass → outside conductance (opaque fabric) H_mo / C_air, per hour. */
  lossRate: number;
}

export interface ThermalParams {
  /** Outside temperature, °C. */
  outside: number;
  /** Supply (flow) temperature at the radiator, °C. */
  supply: number;
  /** Heat-up rate toward the supply temperature at a fully open valve, per hour. */
  heatRate: number;
  /** Loss rate toward the outside, per hour (with a mass node: of the air node, windows and ventilation). */
  lossRate: number;
  /** Absent: one node, as the device simulator uses it. */
  mass?: MassNode;
}

export const WINTER: ThermalParams = { outside: 2, supply: 55, heatRate: 0.12, lossRate: 0.05 };

/** Proportional part of the valve controller: % opening per kelvin below the setpoint. */
const KP = 25;
/** Integral part: % opening per kelvin-hour below the setpoint. */
const KI = 20;

/**
 * The valve controller: 25 % per kelvin below the setpoint plus the integral part `integral`
 * (%), clamped to 0–100 %.
 */
export function valveOpeningFor(roomTemperature: number, setpoint: number, integral = 0): number {
  return Math.round(Math.min(100, Math.max(0, (setpoint - roomTemperature) * KP + integral)));
}

/**
 * The controller's integral part after `hours` at `error` K below the setpoint, %. Anti-windup:
 * it stays within 0–100 % and does not grow while the valve is already fully open (a cold room
 * after a set-back would otherwise overshoot for hours).
 */
export function valveIntegralStep(integral: number, opening: number, error: number, hours: number): number {
  if (opening >= 100 && error > 0) return integral;
  return Math.min(100, Math.max(0, integral + KI * error * hours));
}

/**
 * The loss rate (per hour, per unit of the air node's capacity) of the one-node room with the same
 * steady state as `params`: air losses plus the fabric path air → mass → outside in series.
 */
export function steadyLossRate(params: ThermalParams): number {
  const { mass } = params;
  if (!mass) return params.lossRate;
  return params.lossRate + (mass.couplingRate * mass.lossRate) / (mass.couplingRate + mass.lossRate);
}

/** Advances the room by `hours`; returns the new state (the input is not changed). */
export function advance(state: RoomState, params: ThermalParams, hours: number): RoomState {
  const { mass } = params;
  let room = state.roomTemperature;
  let massTemperature = state.massTemperature ?? room;
  let opening = state.valveOpening;
  let integral = state.integral ?? 0;
  let heat = state.heatDelivered ?? 0;
  const steps = Math.max(1, Math.ceil(hours / (1 / 60)));
  const dt = hours / steps;
  for (let i = 0; i < steps; i++) {
    opening = valveOpeningFor(room, state.setpoint, integral);
    integral = valveIntegralStep(integral, opening, state.setpoint - room, dt);
    const radiator = params.heatRate * (opening / 100);
    if (!mass) {
      const heating = radiator * (params.supply - room);
      const loss = params.lossRate * (room - params.outside);
      heat += heating * dt;
      room += (heating - loss) * dt;
      continue;
    }
    // Backward Euler: solve the two linear balances at the end of the step (Cramer's rule).
    const k = mass.couplingRate * dt;
    const m = dt / mass.capacityRatio;
    const a11 = 1 + (radiator + params.lossRate) * dt + k;
    const b1 = room + (radiator * params.supply + params.lossRate * params.outside) * dt;
    const a22 = 1 + m * (mass.couplingRate + mass.lossRate);
    const b2 = massTemperature + m * mass.lossRate * params.outside;
    const a21 = m * mass.couplingRate;
    const det = a11 * a22 - k * a21;
    room = (b1 * a22 + k * b2) / det;
    massTemperature = (a11 * b2 + a21 * b1) / det;
    heat += radiator * (params.supply - room) * dt;
  }
  const next: RoomState = {
    roomTemperature: room,
    setpoint: state.setpoint,
    valveOpening: opening,
    integral,
    heatDelivered: heat,
  };
  if (mass) next.massTemperature = massTemperature;
  return next;
}
