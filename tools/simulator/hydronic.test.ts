import { describe, expect, it } from 'vitest';
import {
  compressorStarts,
  condensingBoilerEfficiency,
  heatPumpCop,
  logMeanDifference,
  type Radiator,
  radiatorOutput,
  radiatorTable,
} from './hydronic.ts';

const RADIATOR: Radiator = { designOutput: 1000, designSupply: 70, designReturn: 55, designRoom: 20 };

describe('radiatorOutput (EN 442)', () => {
  it('gives the rated output and return at the design point and full flow', () => {
    const out = radiatorOutput(RADIATOR, 70, 20, 1);
    expect(out.heat).toBeCloseTo(1000, 3);
    expect(out.ret).toBeCloseTo(55, 4);
  });

  it('follows the exponent: output over the log mean difference to the 1.3rd power', () => {
    const out = radiatorOutput(RADIATOR, 45, 20, 1);
    const ratio = logMeanDifference(45, out.ret, 20) / logMeanDifference(70, 55, 20);
    expect(out.heat).toBeCloseTo(1000 * ratio ** 1.3, 3);
    expect(out.heat).toBeLessThan(500);
  });

  it('passes less heat and returns cooler water as the valve closes, and none when closed or cold', () => {
    const open = radiatorOutput(RADIATOR, 60, 20, 1);
    const half = radiatorOutput(RADIATOR, 60, 20, 0.5);
    expect(half.heat).toBeLessThan(open.heat);
    expect(half.heat).toBeGreaterThan(open.heat / 2);
    expect(half.ret).toBeLessThan(open.ret);
    expect(radiatorOutput(RADIATOR, 60, 20, 0).heat).toBe(0);
    expect(radiatorOutput(RADIATOR, 19, 20, 1).heat).toBe(0);
  });

  it('is matched by its table within 0.1 % at whole-percent openings', () => {
    const table = radiatorTable(RADIATOR);
    for (const [supply, room, share] of [
      [70, 20, 1],
      [48.3, 19.1, 0.37],
      [35.05, 16.2, 0.08],
    ] as const) {
      const solved = radiatorOutput(RADIATOR, supply, room, share);
      const read = table(supply, room, share);
      expect(Math.abs(read.heat - solved.heat)).toBeLessThan(solved.heat * 0.001 + 0.01);
      expect(read.ret).toBeCloseTo(solved.ret, 1);
    }
  });
});

describe('heat generators', () => {
  it('gives a heat pump a better COP at a lower supply and a milder outdoor temperature', () => {
    expect(heatPumpCop(35, 7)).toBeGreaterThan(heatPumpCop(55, 7));
    expect(heatPumpCop(35, 7)).toBeGreaterThan(heatPumpCop(35, -7));
    // About 2–3 % more electricity per kelvin of supply temperature.
    const perKelvin = heatPumpCop(45, 2) / heatPumpCop(46, 2) - 1;
    expect(perKelvin).toBeGreaterThan(0.015);
    expect(perKelvin).toBeLessThan(0.035);
  });

  it('gives a condensing boiler 97 % below a 30 °C return and 87 % above the dew point', () => {
    expect(condensingBoilerEfficiency(25)).toBe(0.97);
    expect(condensingBoilerEfficiency(43.5)).toBeCloseTo(0.92, 6);
    expect(condensingBoilerEfficiency(65)).toBe(0.87);
  });

  it('counts no compressor starts within the modulation range, and most at half the lowest output', () => {
    const compressor = {
      maxOutput: 10_000,
      minOutput: 3000,
      waterCapacity: 170,
      hysteresisK: 2,
      minRunHours: 1 / 6,
    };
    expect(compressorStarts(compressor, 5000, 1)).toBe(0);
    expect(compressorStarts(compressor, 1000, 1)).toBeGreaterThan(0);
    // Running time falls and pause time grows as the load drops: the cycle is shortest at half.
    expect(compressorStarts(compressor, 1500, 1)).toBeGreaterThan(compressorStarts(compressor, 300, 1));
    expect(compressorStarts(compressor, 1500, 1)).toBeGreaterThan(compressorStarts(compressor, 2700, 1));
  });
});
