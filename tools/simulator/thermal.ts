/**
 * A deliberately simple room model for the simulator: the valve's controller opens in
 * proportion to how far the room is below the setpoint; an open valve pulls the room toward the
 * supply (flow) temperature, and the room always loses heat toward the outside temperature.
 * First-order exchange, integrated in small steps so large time jumps (backfill) stay stable.
 * All temperatures °C, valve opening %, time in hours.
 */

export interface RoomState {
  roomTemperature: number;
  setpoint: number;
  /** 0 = closed, 100 = fully open. */
  valveOpening: number;
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

/** Proportional valve controller: 25 % per kelvin below the setpoint, clamped to 0–100 %. */
export function valveOpeningFor(roomTemperature: number, setpoint: number): number {
  return Math.round(Math.min(100, Math.max(0, (setpoint - roomTemperature) * 25)));
}

/** Advances the room by `hours`; returns the new state (the input is not changed). */
export function advance(state: RoomState, params: ThermalParams, hours: number): RoomState {
  let room = state.roomTemperature;
  let opening = state.valveOpening;
  const steps = Math.max(1, Math.ceil(hours / (1 / 60)));
  const dt = hours / steps;
  for (let i = 0; i < steps; i++) {
    opening = valveOpeningFor(room, state.setpoint);
    const heating = params.heatRate * (opening / 100) * (params.supply - room);
    const loss = params.lossRate * (room - params.outside);
    room += (heating - loss) * dt;
  }
  return { roomTemperature: room, setpoint: state.setpoint, valveOpening: opening };
}
