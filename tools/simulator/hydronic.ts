/**
 * The water side of a heating circuit for the heat-generation bench: radiators whose output
 * follows EN 442, a heat pump whose COP is a fixed fraction of Carnot's, a condensing boiler whose
 * efficiency falls with the return temperature, and the on/off cycling of a compressor below its
 * lowest modulation. Deliberately simple and stated, like `thermal.ts`: no pipe losses, no
 * hydraulic interaction between radiators (each gets its design flow × the valve's opening), the
 * generator holds the supply setpoint whenever it runs and can. Temperatures °C, heat W (or W per
 * m² floor, as the caller scales it), time h.
 */

/** EN 442-2's radiator exponent for panel radiators. */
export const RADIATOR_EXPONENT = 1.3;

/** A radiator rated at its design point (supply, return and room temperature). */
export interface Radiator {
  /** Output at the design point, W. */
  designOutput: number;
  designSupply: number;
  designReturn: number;
  designRoom: number;
  exponent?: number;
}

/** Logarithmic mean temperature difference of a radiator, K (EN 442-2). */
export function logMeanDifference(supply: number, ret: number, room: number): number {
  const hot = supply - room;
  const cold = ret - room;
  if (hot <= 0 || cold <= 0) return 0;
  if (Math.abs(hot - cold) < 1e-9) return hot;
  return (hot - cold) / Math.log(hot / cold);
}

/**
 * The radiator's output and return temperature at a supply temperature, the room's air and a
 * flow of `flowShare` × its design flow (the valve's opening / 100). Solves Q = Q_d (ΔT_lm /
 * ΔT_lm,d)^n = ṁ c (supply − return) for the return by bisection on (room, supply).
 */
export function radiatorOutput(
  radiator: Radiator,
  supply: number,
  room: number,
  flowShare: number,
): { heat: number; ret: number } {
  if (flowShare <= 0 || supply <= room + 0.01)
    return { heat: 0, ret: Math.max(room, Math.min(supply, room)) };
  const n = radiator.exponent ?? RADIATOR_EXPONENT;
  const designMean = logMeanDifference(radiator.designSupply, radiator.designReturn, radiator.designRoom);
  const flowCapacity = (flowShare * radiator.designOutput) / (radiator.designSupply - radiator.designReturn);
  const excess = (x: number) => {
    const ret = room + x * (supply - room);
    const emitted = radiator.designOutput * (logMeanDifference(supply, ret, room) / designMean) ** n;
    return emitted - flowCapacity * (supply - ret);
  };
  // x = (return − room) / (supply − room) ∈ (0, 1); excess rises with x.
  let low = 1e-6;
  let high = 1 - 1e-9;
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2;
    if (excess(mid) > 0) high = mid;
    else low = mid;
  }
  const ret = room + ((low + high) / 2) * (supply - room);
  return { heat: flowCapacity * (supply - ret), ret };
}

/**
 * `radiatorOutput` tabulated for one design point, for simulations that ask it millions of times:
 * the answer depends on supply − room and the flow share alone, so a table over 0–80 K in 0.25 K
 * steps and over the 101 whole-percent openings, read with linear interpolation in the
 * temperature difference, gives it (within 0.1 % of the solved value for whole-percent openings).
 */
export function radiatorTable(radiator: Radiator): (
  supply: number,
  room: number,
  flowShare: number,
) => {
  heat: number;
  ret: number;
} {
  const stepK = 0.25;
  const rows = Math.round(80 / stepK) + 1;
  const heat = new Float64Array(rows * 101);
  const cooled = new Float64Array(rows * 101);
  for (let r = 0; r < rows; r++) {
    for (let p = 0; p <= 100; p++) {
      const difference = r * stepK;
      const out = radiatorOutput(radiator, radiator.designRoom + difference, radiator.designRoom, p / 100);
      heat[r * 101 + p] = out.heat;
      cooled[r * 101 + p] = out.ret - radiator.designRoom;
    }
  }
  return (supply, room, flowShare) => {
    const difference = supply - room;
    if (flowShare <= 0 || difference <= 0.01) return { heat: 0, ret: room };
    const column = Math.min(100, Math.max(0, Math.round(flowShare * 100)));
    const at = Math.min(rows - 1.000001, difference / stepK);
    const row = Math.floor(at);
    const f = at - row;
    const i = row * 101 + column;
    const j = i + 101;
    return {
      heat: (heat[i] as number) * (1 - f) + (heat[j] as number) * f,
      ret: room + (cooled[i] as number) * (1 - f) + (cooled[j] as number) * f,
    };
  };
}

/**
 * A heat pump's COP as a fixed fraction of the Carnot COP between the condenser (supply + 3 K)
 * and the evaporator (outdoor − 5 K), capped at 7. The fraction 0.45 is the usual "Gütegrad" of
 * air/water heat pumps at rated points (about 0.4–0.5 in EN 14511 test data; VDI 4650-1 works
 * with the same kind of fraction).
 */
export function heatPumpCop(supply: number, outdoor: number, carnotFraction = 0.45): number {
  const condenser = supply + 3 + 273.15;
  const evaporator = outdoor - 5 + 273.15;
  return Math.min(7, (carnotFraction * condenser) / Math.max(1, condenser - evaporator));
}

/**
 * A condensing gas boiler's efficiency (on the gross calorific value) over its return
 * temperature: 97 % up to 30 °C, falling linearly to 87 % at the flue gas's dew point of about
 * 57 °C and staying there above it — a straight-line stand-in for the manufacturers' curves.
 */
export function condensingBoilerEfficiency(ret: number): number {
  if (ret <= 30) return 0.97;
  if (ret >= 57) return 0.87;
  return 0.97 - ((ret - 30) / 27) * 0.1;
}

/** A modulating compressor's cycling below its lowest output. */
export interface Compressor {
  /** Highest output, W. */
  maxOutput: number;
  /** Lowest output while running, W (inverter heat pumps: about 25–35 % of the highest). */
  minOutput: number;
  /** Heat capacity of the circuit's water and radiators, Wh/K. */
  waterCapacity: number;
  /** The supply may swing this much around its setpoint before it switches, K (both ways). */
  hysteresisK: number;
  /** Shortest run and pause, h. */
  minRunHours: number;
}

/**
 * Compressor starts during `hours` of running at a heat demand `load` (W): none while the demand
 * lies inside its range; below the lowest output it runs at that output until the water is
 * `2 × hysteresis` warmer, then pauses until it has cooled back, each at least `minRunHours`.
 */
export function compressorStarts(compressor: Compressor, load: number, hours: number): number {
  if (load <= 0 || load >= compressor.minOutput) return 0;
  const swing = 2 * compressor.hysteresisK * compressor.waterCapacity;
  const on = Math.max(compressor.minRunHours, swing / (compressor.minOutput - load));
  const off = Math.max(compressor.minRunHours, swing / load);
  return hours / (on + off);
}
