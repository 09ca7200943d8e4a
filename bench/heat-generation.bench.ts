/**
 * Heat generation driven by the rooms, proven on simulated rooms: one heating circuit of 50 rooms
 * (`tools/simulator/rooms.ts`' envelopes, radiators per EN 442 with n = 1.3 from
 * `tools/simulator/hydronic.ts`) through the bundled DWD winter (`outdoor-winter.ts`, 25 Jan – 1
 * Mar 2021, with the February cold spell), the first week to settle, the other four scored. Three
 * ways to set the heat generator:
 * (a) the installer's heating curve: 70 °C supply at −12 °C (design 70/55/20), the generator on
 *     whenever it is below 15 °C outside, day and night (no night reduction of the generator);
 * (b) the best static heating curve for this building: the lowest design supply (1 K steps, by
 *     bisection up to 90 °C) whose comfort is at least 95 % of occupied hours; same on/off rule as
 *     (a). It can lie above (a): the comfort counts from the first occupied minute, after a night
 *     at the set-back temperature;
 * (c) demand-driven: `stepSupplyReset` every 5 minutes on what the valves last reported (trim and
 *     respond, ASHRAE G36 defaults; off when no room needs heat, 20 min minimum on and off),
 *     bounded by 25 °C and the installer's curve + 5 K.
 * Every room's valve runs the same plan in all three (Heizplan's setpoints: the room's own PI
 * valve of `thermal.ts`), so only the generator differs:
 * - 28 offices (15–30 m²), Monday–Friday 21 °C 07:00–17:00, pre-heat from 05:00;
 * - 20 classrooms (50–70 m²), Monday–Friday 21 °C 08:00–13:30, pre-heat from 06:00;
 * - 2 gyms (300–400 m²), Monday–Friday 19 °C 17:00–22:00, pre-heat from 15:00;
 * 16 °C at all other times. In (c) a room whose pre-heat starts within 30 minutes asks for heat
 * ahead of its valve, as optimum start's leads will. Radiators are oversized 0.9–2.5 × the room's
 * design load (EN 12831, 20 °C at −12 °C) at 70/55 °C: the undersized ones are the rooms that
 * hold the supply temperature up.
 *
 * Measured: comfort (occupied 5-minute steps with the air ≥ setpoint − 0.5 K), heat delivered by
 * the radiators, a heat pump's electricity (COP 0.45 × Carnot at the supply and outdoor
 * temperatures) and a condensing boiler's gas (97 % → 87 % as the mixed return rises from 30 to
 * 57 °C) for that heat, the heat-weighted mean supply temperature, and compressor starts per day
 * (off → on switches plus cycling below the lowest modulation of 30 %, with the circuit's water
 * as the only buffer). The heat pump is sized 1.2 × the building's design load; a demand above
 * that lowers every radiator's output alike.
 *
 * Goal: (c) keeps comfort within 1 percentage point of (b) and uses ≤ 0.85 × (a)'s and ≤ 0.95 ×
 * (b)'s heat-pump electricity, with no more compressor starts per day than (a).
 *
 * Run: `npm run bench bench/heat-generation.bench.ts` (or `npx tsx bench/heat-generation.bench.ts`).
 */
import { performance } from 'node:perf_hooks';
import {
  type CircuitRoom,
  heatingCurve,
  SUPPLY_RESET_OFF,
  type SupplyResetState,
  stepSupplyReset,
} from '../server/src/heating/engine/supply-reset.ts';
import {
  type Compressor,
  compressorStarts,
  condensingBoilerEfficiency,
  heatPumpCop,
  type Radiator,
  radiatorTable,
} from '../tools/simulator/hydronic.ts';
import { outdoorAt, WINTER_OUTDOOR } from '../tools/simulator/outdoor-winter.ts';
import { type Envelope, makeEnvelopes, seeded } from '../tools/simulator/rooms.ts';
import { valveIntegralStep, valveOpeningFor } from '../tools/simulator/thermal.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const STEP_MINUTES = 5;
const STEP_HOURS = STEP_MINUTES / 60;
const DAYS = 35;
const SCORED_FROM_DAY = 7;
const UPLINK_MINUTES = 10;
const SETBACK = 17;
const COMFORT_K = 0.5;
const DESIGN_OUTDOOR = -12;
const DESIGN_ROOM = 20;
/** Heating curves are set for the rooms' 21 °C (the curve's room-temperature parameter). */
const CURVE_ROOM = 21;
const INSTALLER_SUPPLY = 70;
const HEATING_LIMIT = 15;
const PREHEAT_REQUEST_MINUTES = 30;
/** Every radiator is rated at 70/55/20 °C, so one table serves them all (scaled by their output). */
const UNIT_RADIATOR: Radiator = {
  designOutput: 1,
  designSupply: 70,
  designReturn: 55,
  designRoom: DESIGN_ROOM,
};
const unitRadiator = radiatorTable(UNIT_RADIATOR);
/** Circuit water and radiators: 15 l per kW of the heat pump, 1.163 Wh/(l K). */
const WATER_WH_PER_K_PER_KW = 15 * 1.163;
const GOAL_COMFORT_PP = 1;
const GOAL_VS_A = 0.85;
const GOAL_VS_B = 0.95;
const STATIC_COMFORT = 0.95;
/** (b) looks for its curve up to this design supply, °C (a circuit's usual highest limit). */
const STATIC_HIGHEST = 90;

type Use = 'office' | 'classroom' | 'gym';
interface Room {
  id: string;
  use: Use;
  area: number;
  envelope: Envelope;
  radiator: Radiator;
  /** Local minutes of the day: pre-heat from, occupied from, occupied until; comfort °C. */
  preheat: number;
  from: number;
  until: number;
  comfort: number;
  /** Internal gains while occupied (people, equipment), W/m². */
  gains: number;
}

const USES: Array<{
  use: Use;
  count: number;
  area: [number, number];
  day: [number, number, number];
  comfort: number;
  gains: number;
}> = [
  { use: 'office', count: 28, area: [15, 30], day: [4 * 60, 7 * 60, 17 * 60], comfort: 21, gains: 6 },
  {
    use: 'classroom',
    count: 20,
    area: [50, 70],
    day: [5 * 60, 8 * 60, 13 * 60 + 30],
    comfort: 21,
    gains: 20,
  },
  { use: 'gym', count: 2, area: [300, 400], day: [14 * 60, 17 * 60, 22 * 60], comfort: 19, gains: 5 },
];

function makeRooms(): Room[] {
  const envelopes = makeEnvelopes(50, { seed: 20261203, sizing: [1.2, 3.0], uplinkMinutes: UPLINK_MINUTES });
  const random = seeded(36);
  const rooms: Room[] = [];
  for (const kind of USES) {
    for (let i = 0; i < kind.count; i++) {
      const envelope = envelopes[rooms.length] as Envelope;
      const [preheat, from, until] = kind.day;
      rooms.push({
        id: `${kind.use}-${i + 1}`,
        use: kind.use,
        area: kind.area[0] + (kind.area[1] - kind.area[0]) * random(),
        envelope,
        radiator: {
          designOutput: envelope.sizing * envelope.totalLoss * (DESIGN_ROOM - DESIGN_OUTDOOR),
          designSupply: 70,
          designReturn: 55,
          designRoom: DESIGN_ROOM,
        },
        preheat,
        from,
        until,
        comfort: kind.comfort,
        gains: kind.gains,
      });
    }
  }
  return rooms;
}

/** Local (Europe/Berlin, UTC+1 through the series) day index and minute of `t`. */
function localTime(t: number): { day: number; minute: number; weekday: boolean } {
  const since = t - WINTER_OUTDOOR.start;
  const day = Math.floor(since / DAY_MS);
  // The series starts on a Monday.
  return { day, minute: Math.round((since - day * DAY_MS) / MINUTE_MS), weekday: day % 7 < 5 };
}

function setpointOf(room: Room, minute: number, weekday: boolean): { setpoint: number; occupied: boolean } {
  if (!weekday || minute < room.preheat || minute >= room.until)
    return { setpoint: SETBACK, occupied: false };
  return { setpoint: room.comfort, occupied: minute >= room.from };
}

/** The controller's damped outdoor temperature for the heating limit: the mean of the last 24 h, °C. */
function dampedOutdoor(t: number): number {
  let sum = 0;
  for (let hour = 0; hour < 24; hour++) sum += outdoorAt(t - hour * HOUR_MS);
  return sum / 24;
}

type Policy = { kind: 'curve'; designSupply: number } | { kind: 'demand' };

interface Result {
  comfort: number;
  /** kWh over the scored weeks. */
  heat: number;
  electricity: number;
  gas: number;
  meanSupply: number;
  startsPerDay: number;
  /** (c) only: request-steps per room. */
  requestSteps: Map<string, number>;
  runningHours: number;
}

interface RoomState {
  air: number;
  mass: number;
  integral: number;
  opening: number;
  reportedAir: number;
  reportedOpening: number;
}

function simulate(rooms: Room[], policy: Policy): Result {
  const designLoad = rooms.reduce(
    (sum, room) => sum + room.envelope.totalLoss * (DESIGN_ROOM - DESIGN_OUTDOOR) * room.area,
    0,
  );
  const compressor: Compressor = {
    maxOutput: 1.2 * designLoad,
    minOutput: 0.3 * 1.2 * designLoad,
    waterCapacity: ((WATER_WH_PER_K_PER_KW * 1.2 * designLoad) / 1000) as number,
    hysteresisK: 2,
    minRunHours: 10 / 60,
  };
  const states: RoomState[] = rooms.map(() => ({
    air: 18,
    mass: 18,
    integral: 0,
    opening: 0,
    reportedAir: 18,
    reportedOpening: 0,
  }));
  let control: SupplyResetState = SUPPLY_RESET_OFF;
  let wasOn = false;
  const result: Result = {
    comfort: 0,
    heat: 0,
    electricity: 0,
    gas: 0,
    meanSupply: 0,
    startsPerDay: 0,
    requestSteps: new Map(),
    runningHours: 0,
  };
  let occupied = 0;
  let comfortable = 0;
  let supplyHeat = 0;
  let starts = 0;
  const steps = (DAYS * 24 * 60) / STEP_MINUTES;
  for (let step = 0; step < steps; step++) {
    const t = WINTER_OUTDOOR.start + step * STEP_MINUTES * MINUTE_MS;
    const outdoor = outdoorAt(t + (STEP_MINUTES / 2) * MINUTE_MS);
    const { day, minute, weekday } = localTime(t);
    const scored = day >= SCORED_FROM_DAY;
    const plans = rooms.map((room) => setpointOf(room, minute, weekday));
    const installer = heatingCurve(outdoor, {
      designSupply: INSTALLER_SUPPLY,
      designOutdoor: DESIGN_OUTDOOR,
      roomTemperature: CURVE_ROOM,
    });

    let on: boolean;
    let supply: number;
    if (policy.kind === 'curve') {
      on = dampedOutdoor(t) < HEATING_LIMIT;
      supply = heatingCurve(outdoor, {
        designSupply: policy.designSupply,
        designOutdoor: DESIGN_OUTDOOR,
        roomTemperature: CURVE_ROOM,
      });
    } else {
      const circuitRooms: CircuitRoom[] = rooms.map((room, i) => {
        const state = states[i] as RoomState;
        const soon = setpointOf(room, minute + PREHEAT_REQUEST_MINUTES, weekday);
        return {
          unitId: room.id,
          setpoint: (plans[i] as { setpoint: number }).setpoint,
          roomTemperature: state.reportedAir,
          valveOpening: state.reportedOpening,
          faulty: false,
          preheatSoon: weekday && minute < room.preheat && soon.setpoint > SETBACK,
          weight: room.radiator.designOutput * room.area,
        };
      });
      const decided = stepSupplyReset(control, circuitRooms, installer, t);
      control = decided.state;
      on = decided.enabled;
      supply = decided.supplySetpoint ?? DESIGN_ROOM;
      if (scored && decided.requests > 2) {
        for (const held of decided.holdingUp) {
          result.requestSteps.set(held.unitId, (result.requestSteps.get(held.unitId) ?? 0) + held.requests);
        }
      }
    }
    if (on && !wasOn && scored) starts += 1;
    wasOn = on;

    // Each room: its valve's PI opening, the radiator's output at that opening, linearised in the air.
    const outputs = rooms.map((room, i) => {
      const state = states[i] as RoomState;
      const { setpoint } = plans[i] as { setpoint: number };
      state.opening = valveOpeningFor(state.air, setpoint, state.integral);
      state.integral = valveIntegralStep(state.integral, state.opening, setpoint - state.air, STEP_HOURS);
      if (!on) return { heat: 0, slope: 0, ret: state.air, flow: 0 };
      const share = state.opening / 100;
      const now = unitRadiator(supply, state.air, share);
      const warmer = unitRadiator(supply, state.air + 0.1, share);
      now.heat *= room.radiator.designOutput;
      warmer.heat *= room.radiator.designOutput;
      const flow =
        (share * room.radiator.designOutput * room.area) /
        (room.radiator.designSupply - room.radiator.designReturn);
      return { heat: now.heat, slope: (warmer.heat - now.heat) / 0.1, ret: now.ret, flow };
    });
    const demand = outputs.reduce((sum, out, i) => sum + out.heat * (rooms[i] as Room).area, 0);
    const scale = demand > compressor.maxOutput ? compressor.maxOutput / demand : 1;
    const delivered = demand * scale;

    // Rooms: backward Euler on the two nodes with the radiator linearised around the air.
    rooms.forEach((room, i) => {
      const state = states[i] as RoomState;
      const out = outputs[i] as { heat: number; slope: number };
      const e = room.envelope;
      const plan = plans[i] as { setpoint: number; occupied: boolean };
      const gains = plan.occupied ? room.gains : 0;
      const q0 = out.heat * scale - out.slope * scale * state.air + gains;
      const g = -out.slope * scale;
      const dt = STEP_HOURS;
      const a11 = e.airCapacity + dt * (g + e.coupling + e.airLoss);
      const a12 = -dt * e.coupling;
      const b1 = e.airCapacity * state.air + dt * (q0 + e.airLoss * outdoor);
      const a21 = -dt * e.coupling;
      const a22 = e.massCapacity + dt * (e.coupling + e.fabricLoss);
      const b2 = e.massCapacity * state.mass + dt * e.fabricLoss * outdoor;
      const det = a11 * a22 - a12 * a21;
      state.air = (b1 * a22 - a12 * b2) / det;
      state.mass = (a11 * b2 - a21 * b1) / det;
      if ((minute + STEP_MINUTES) % UPLINK_MINUTES === room.envelope.phase % UPLINK_MINUTES) {
        state.reportedAir = Math.round(state.air * 10) / 10;
        state.reportedOpening = state.opening;
      }
      if (scored && plan.occupied) {
        occupied += 1;
        if (state.air >= plan.setpoint - COMFORT_K) comfortable += 1;
      }
    });

    if (!scored || !on) continue;
    const wh = delivered * STEP_HOURS;
    const flow = outputs.reduce((sum, out) => sum + out.flow, 0);
    const mixedReturn = flow > 0 ? outputs.reduce((sum, out) => sum + out.flow * out.ret, 0) / flow : supply;
    result.heat += wh / 1000;
    result.electricity += wh / heatPumpCop(supply, outdoor) / 1000;
    result.gas += wh / condensingBoilerEfficiency(mixedReturn) / 1000;
    supplyHeat += supply * wh;
    result.runningHours += STEP_HOURS;
    starts += compressorStarts(compressor, delivered, STEP_HOURS);
  }
  result.comfort = occupied > 0 ? comfortable / occupied : 1;
  result.meanSupply = result.heat > 0 ? supplyHeat / (result.heat * 1000) : 0;
  result.startsPerDay = starts / (DAYS - SCORED_FROM_DAY);
  return result;
}

const t0 = performance.now();
const rooms = makeRooms();
const a = simulate(rooms, { kind: 'curve', designSupply: INSTALLER_SUPPLY });
const staticTarget = STATIC_COMFORT;
// Comfort rises with the curve: bisect for the lowest whole-kelvin design supply that keeps it.
let low = 30;
let high = STATIC_HIGHEST;
let b = simulate(rooms, { kind: 'curve', designSupply: high });
while (high - low > 1) {
  const middle = Math.floor((low + high) / 2);
  const tried = simulate(rooms, { kind: 'curve', designSupply: middle });
  if (tried.comfort >= staticTarget) {
    high = middle;
    b = tried;
  } else low = middle;
}
const bSupply = high;
const c = simulate(rooms, { kind: 'demand' });
const seconds = (performance.now() - t0) / 1000;

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
console.log(
  `${rooms.length} rooms (${USES.map((u) => `${u.count} ${u.use}s`).join(', ')}), radiators ${fmt(
    Math.min(...rooms.map((r) => r.envelope.sizing)),
    2,
  )}–${fmt(Math.max(...rooms.map((r) => r.envelope.sizing)), 2)} × design load, scored ${
    DAYS - SCORED_FROM_DAY
  } days of the DWD winter 2021; ${fmt(seconds, 1)} s`,
);
const rows: Array<[string, Result]> = [
  [`(a) installer's curve ${INSTALLER_SUPPLY} °C at −12 °C`, a],
  [`(b) best static curve ${bSupply} °C at −12 °C`, b],
  ['(c) demand-driven trim and respond', c],
];
console.log(
  [
    'policy'.padEnd(44),
    'comfort'.padStart(8),
    'heat kWh'.padStart(9),
    'HP kWh el'.padStart(10),
    'gas kWh'.padStart(9),
    'Ø supply'.padStart(9),
    'starts/d'.padStart(9),
    'runs h'.padStart(7),
  ].join(' '),
);
for (const [label, r] of rows) {
  console.log(
    [
      label.padEnd(44),
      pct(r.comfort).padStart(8),
      fmt(r.heat).padStart(9),
      fmt(r.electricity).padStart(10),
      fmt(r.gas).padStart(9),
      `${fmt(r.meanSupply, 1)} °C`.padStart(9),
      fmt(r.startsPerDay, 1).padStart(9),
      fmt(r.runningHours).padStart(7),
    ].join(' '),
  );
}
const holding = [...c.requestSteps.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5);
console.log(
  `rooms holding the supply up in (c), most requests first: ${holding
    .map(([id, n]) => {
      const room = rooms.find((r) => r.id === id) as Room;
      return `${id} (radiator ${fmt(room.envelope.sizing, 2)} ×, ${n} requests)`;
    })
    .join(', ')}`,
);
const comfortGap = (b.comfort - c.comfort) * 100;
const vsA = c.electricity / a.electricity;
const vsB = c.electricity / b.electricity;
const met =
  comfortGap <= GOAL_COMFORT_PP && vsA <= GOAL_VS_A && vsB <= GOAL_VS_B && c.startsPerDay <= a.startsPerDay;
console.log(
  `(c) against (b): comfort ${comfortGap >= 0 ? '−' : '+'}${fmt(Math.abs(comfortGap), 1)} pp (goal ≤ ${GOAL_COMFORT_PP}); heat-pump electricity ${fmt(
    vsA,
    3,
  )} × (a) (goal ≤ ${GOAL_VS_A}), ${fmt(vsB, 3)} × (b) (goal ≤ ${GOAL_VS_B}); gas ${fmt(c.gas / a.gas, 3)} × (a), ${fmt(
    c.gas / b.gas,
    3,
  )} × (b); starts ${fmt(c.startsPerDay, 1)} against (a)'s ${fmt(a.startsPerDay, 1)} per day: ${met ? 'MET' : 'MISS'}`,
);
