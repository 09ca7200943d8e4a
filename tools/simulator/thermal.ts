/**
 * A deliberately simple room model for the simulator: the valve's controller opens in
 * proportion to how far the room is below the setpoint, plus an integral part that grows while
 * the room stays below it (electronic radiator valves regulate PI, so a room reaches its
 * setpoint instead of settling a kelvin below); an open valve pulls the room toward the
 * supply (flow) temperature, and the room always loses heat toward the outside temperature.
 * First-order exchange, integrated in small steps so large time jumps (backfill) stay stable.
 * All temperatures °C, valve opening %, time in hours.
 */

export interface RoomState {
  roomTemperature: number;
  setpoint: number;
  /** 0 = closed, 100 = fully open. */
  valveOpening: number;
  /** The controller's integral part, % opening (0–100); absent = 0. */
  integral?: number;
}

export interface ThermalParams {
  /** Outside temperature, °C. */
  outside: number;
  /** Supply (flow) temperature at the radiator, °C. */
  supply: number;
  /** Heat-up rate toward the supply temperature at a fully open valve, per hour. */
  heatRate: number;
  /** Loss rate toward the outside, per hour. */
  lossRate: number;
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

/** Advances the room by `hours`; returns the new state (the input is not changed). */
export function advance(state: RoomState, params: ThermalParams, hours: number): RoomState {
  let room = state.roomTemperature;
  let opening = state.valveOpening;
  let integral = state.integral ?? 0;
  const steps = Math.max(1, Math.ceil(hours / (1 / 60)));
  const dt = hours / steps;
  for (let i = 0; i < steps; i++) {
    opening = valveOpeningFor(room, state.setpoint, integral);
    // Anti-windup: the integral stays within 0–100 % and does not grow while the valve is
    // already fully open (a cold room after a set-back would otherwise overshoot for hours).
    const error = state.setpoint - room;
    if (!(opening >= 100 && error > 0)) integral = Math.min(100, Math.max(0, integral + KI * error * dt));
    const heating = params.heatRate * (opening / 100) * (params.supply - room);
    const loss = params.lossRate * (room - params.outside);
    room += (heating - loss) * dt;
  }
  return { roomTemperature: room, setpoint: state.setpoint, valveOpening: opening, integral };
}
