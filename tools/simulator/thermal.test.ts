import { describe, expect, it } from 'vitest';
import {
  advance,
  type MassNode,
  type RoomState,
  steadyLossRate,
  type ThermalParams,
  valveOpeningFor,
  WINTER,
} from './thermal.ts';

describe('room thermal model', () => {
  it('opens the valve in proportion to the gap below the setpoint and closes above it', () => {
    expect(valveOpeningFor(18, 21)).toBe(75);
    expect(valveOpeningFor(15, 21)).toBe(100);
    expect(valveOpeningFor(22, 21)).toBe(0);
  });

  it('warms a cold room toward the setpoint when the valve opens', () => {
    const later = advance({ roomTemperature: 14, setpoint: 21, valveOpening: 0 }, WINTER, 6);
    expect(later.roomTemperature).toBeGreaterThan(19);
    expect(later.roomTemperature).toBeLessThan(21.5);
  });

  it('cools toward the outside temperature with the valve closed, never below it', () => {
    const start = { roomTemperature: 21, setpoint: 5, valveOpening: 0 };
    const after3h = advance(start, WINTER, 3);
    const afterWeek = advance(start, WINTER, 24 * 7);
    expect(after3h.roomTemperature).toBeLessThan(21);
    expect(after3h.valveOpening).toBe(0);
    expect(afterWeek.roomTemperature).toBeGreaterThanOrEqual(WINTER.outside);
    expect(afterWeek.roomTemperature).toBeLessThan(5.5);
  });
});

describe('two-node room (air + mass)', () => {
  // A medium school room per m² floor: C_air 10 Wh/K, C_mass 90 Wh/K, H_am 9, H_ao 0.6, H_mo 0.8 W/K,
  // a radiator of 3 W/K; every rate divided by C_air.
  const TWO_NODE: ThermalParams = {
    outside: 0,
    supply: 55,
    heatRate: 0.3,
    lossRate: 0.06,
    mass: { capacityRatio: 9, couplingRate: 0.9, lossRate: 0.08 },
  };
  const ONE_NODE: ThermalParams = { ...TWO_NODE, mass: undefined, lossRate: steadyLossRate(TWO_NODE) };
  const cold = { roomTemperature: 16, massTemperature: 16, setpoint: 21, valveOpening: 0 };

  it('warms the air much faster than the mass after a setpoint step', () => {
    const after1h = advance(cold, TWO_NODE, 1);
    expect(after1h.roomTemperature).toBeGreaterThan(20);
    expect((after1h.massTemperature as number) - 16).toBeLessThan(0.5);
    expect(after1h.roomTemperature - 16).toBeGreaterThan(10 * ((after1h.massTemperature as number) - 16));
  });

  it('reaches the one-node steady state: same heat flow, mass between air and outside', () => {
    const steady = advance(cold, TWO_NODE, 24 * 60);
    const oneNode = advance({ ...cold, massTemperature: undefined }, ONE_NODE, 24 * 60);
    const day = (state: typeof steady, params: ThermalParams) =>
      (advance(state, params, 24).heatDelivered as number) - (state.heatDelivered as number);
    expect(steady.roomTemperature).toBeCloseTo(21, 1);
    const { couplingRate, lossRate } = TWO_NODE.mass as MassNode;
    expect(steady.massTemperature).toBeCloseTo(
      (couplingRate * steady.roomTemperature) / (couplingRate + lossRate),
      1,
    );
    // Heat delivered per day = the steady loss of 21 K to the outside, whichever model.
    const expected = steadyLossRate(TWO_NODE) * 21 * 24;
    expect(day(steady, TWO_NODE)).toBeCloseTo(expected, 0);
    expect(day(oneNode, ONE_NODE)).toBeCloseTo(expected, 0);
    expect(oneNode.massTemperature).toBeUndefined();
  });

  it('conserves energy: heat delivered = heat stored + heat lost', () => {
    const { capacityRatio, lossRate } = TWO_NODE.mass as MassNode;
    let state: RoomState = cold;
    let lost = 0;
    for (let i = 0; i < 8 * 60; i++) {
      state = advance(state, TWO_NODE, 1 / 60);
      const massTemperature = state.massTemperature as number;
      lost += (TWO_NODE.lossRate * state.roomTemperature + lossRate * massTemperature) / 60;
    }
    const stored = state.roomTemperature - 16 + capacityRatio * ((state.massTemperature as number) - 16);
    expect(state.heatDelivered).toBeCloseTo(stored + lost, 6);
  });

  it('stays stable and bounded for large time steps and a stiff air node', () => {
    const stiff: ThermalParams = {
      ...TWO_NODE,
      heatRate: 30,
      mass: { capacityRatio: 500, couplingRate: 200, lossRate: 1 },
    };
    for (const params of [TWO_NODE, stiff]) {
      const one = advance(cold, params, 24 * 14);
      let stepped: RoomState = cold;
      for (let h = 0; h < 24 * 14; h++) stepped = advance(stepped, params, 1);
      for (const state of [one, stepped]) {
        expect(Number.isFinite(state.roomTemperature)).toBe(true);
        expect(state.roomTemperature).toBeGreaterThan(params.outside);
        expect(state.roomTemperature).toBeLessThan(params.supply);
        expect(state.massTemperature).toBeGreaterThan(params.outside);
        expect(state.massTemperature).toBeLessThan(state.roomTemperature + 1e-9);
      }
      expect(stepped.roomTemperature).toBeCloseTo(one.roomTemperature, 1);
    }
  });

  it('cools the air fast toward the mass, then slowly with it, once the valve closes', () => {
    const warm = { roomTemperature: 21, massTemperature: 20, setpoint: 16, valveOpening: 0 };
    const after1h = advance(warm, TWO_NODE, 1);
    const after15h = advance(warm, TWO_NODE, 15);
    expect(after1h.valveOpening).toBe(0);
    expect(21 - after1h.roomTemperature).toBeGreaterThan(0.5);
    expect(after1h.roomTemperature - (after1h.massTemperature as number)).toBeLessThan(0.5);
    // Time constant (C_air + C_mass) / H ≈ 100 / 1.4 ≈ 70 h: a 15-hour night at 0 °C outside costs
    // the walls about 4 K; they stay above the set-back while the air already sits at it.
    expect(after15h.massTemperature).toBeGreaterThan(16.2);
    expect(after15h.massTemperature).toBeLessThan(17);
    expect(after15h.roomTemperature).toBeLessThan(16.5);
  });
});
