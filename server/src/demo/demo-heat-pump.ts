/**
 * The demo's heat pump: a stand-in for an air-to-water heat pump's controller that speaks Modbus TCP
 * (`ServerTCP` of modbus-serial on a free loopback port), so that the demo building's
 * heating circuit in mode "on" writes to a real protocol peer, as it would to the controller or
 * gateway in a plant room (decision 0075). Like the device simulator and the weather stand-in, it
 * runs only with the demo.
 *
 * Register map, 0-based as on the wire (what `DEMO_HEAT_PUMP_OUTPUT` configures):
 * - holding register 0: the supply setpoint (Vorlauf-Sollwert), °C × 10, written with function 06;
 * - coil 0: the compressor release, written with function 05;
 * - holding register 1: the flow temperature it delivers, °C × 10 (read only);
 * - holding register 2: compressor starts since the stand-in started (read only).
 *
 * The flow temperature follows the setpoint as a first-order lag of `FLOW_TIME_CONSTANT_MS` while
 * released and falls towards `IDLE_FLOW` while blocked, advanced on each access by the time the
 * injected clock says has passed. Temperatures °C.
 */
import type { ModbusOutputConfigInput } from '@heizplan/contracts/generator-outputs';
import { ServerTCP } from 'modbus-serial';
import { freePort } from '../free-port.ts';

/** A heat pump's water circuit answers a new setpoint within minutes; 10 min to 63 %. */
export const FLOW_TIME_CONSTANT_MS = 10 * 60_000;
/** °C the water in the circuit settles at with the compressor blocked (a heated building's return). */
export const IDLE_FLOW = 25;

/** The demo circuit's Modbus output: the stand-in's register map, read back after each write. */
export const DEMO_HEAT_PUMP_OUTPUT = (port: number): ModbusOutputConfigInput => ({
  host: '127.0.0.1',
  port,
  unitId: 1,
  setpoint: { register: 0, scale: 10, readBack: true },
  enable: { kind: 'coil', coil: 0, readBack: true },
  timeoutMs: 3000,
});

/** What the stand-in holds right now. */
export interface HeatPumpState {
  /** °C; null until the first setpoint is written. */
  supplySetpoint: number | null;
  released: boolean;
  /** °C */
  flow: number;
  starts: number;
}

export interface DemoHeatPump {
  /** The loopback port it listens on. */
  port: number;
  /** Its state at the clock's now. */
  state(): HeatPumpState;
  close(): Promise<void>;
}

/**
 * Starts the stand-in on 127.0.0.1 and a free port.
 * @param now the clock (UTC) that advances the flow temperature.
 * @throws when the loopback port cannot be opened.
 */
export async function startDemoHeatPump(now: () => Date): Promise<DemoHeatPump> {
  // ServerTCP takes port 0 for its default, Modbus's 502: ask the OS for a free port first.
  const port = await freePort();
  const state: HeatPumpState = { supplySetpoint: null, released: false, flow: IDLE_FLOW, starts: 0 };
  let at = now().getTime();
  /** Moves the flow temperature to the clock's now. */
  const advance = () => {
    const t = now().getTime();
    const elapsed = Math.max(0, t - at);
    at = t;
    const target = state.released && state.supplySetpoint !== null ? state.supplySetpoint : IDLE_FLOW;
    state.flow = target + (state.flow - target) * Math.exp(-elapsed / FLOW_TIME_CONSTANT_MS);
  };
  const holding = (address: number): number => {
    advance();
    if (address === 0) return state.supplySetpoint === null ? 0 : Math.round(state.supplySetpoint * 10);
    if (address === 1) return Math.round(state.flow * 10);
    if (address === 2) return state.starts;
    return 0;
  };
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => holding(address),
      getCoil: (address: number) => address === 0 && state.released,
      setRegister: (address: number, value: number) => {
        advance();
        if (address === 0) state.supplySetpoint = value / 10;
      },
      setCoil: (address: number, value: boolean) => {
        advance();
        if (address !== 0) return;
        if (value && !state.released) state.starts += 1;
        state.released = value;
      },
    },
    { host: '127.0.0.1', port },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('initialized', () => resolve());
    server.once('serverError', reject);
  });
  return {
    port,
    state: () => {
      advance();
      return { ...state };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
