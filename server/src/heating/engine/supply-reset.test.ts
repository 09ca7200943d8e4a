/**
 * The circuit controller's promises, over random rooms and random sequences of steps: the
 * supply setpoint never leaves its bounds, a faulty room cannot raise it, the generator is off
 * when no room needs heat (and on for frost), and it never switches faster than its minimum run
 * and pause allow.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CircuitRoom,
  heatingCurve,
  roomRequests,
  SUPPLY_RESET_DEFAULTS,
  SUPPLY_RESET_OFF,
  type SupplyResetState,
  stepSupplyReset,
  supplyBounds,
} from './supply-reset.ts';

const STEP_MS = 5 * 60_000;
const T0 = Date.UTC(2027, 0, 11, 5, 0);

const room = fc.record({
  unitId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  setpoint: fc.integer({ min: 10, max: 46 }).map((half) => half / 2),
  roomTemperature: fc.option(
    fc.integer({ min: 0, max: 300 }).map((tenth) => tenth / 10),
    { nil: null },
  ),
  valveOpening: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  faulty: fc.boolean(),
  preheatSoon: fc.boolean(),
  weight: fc.double({ min: 0.2, max: 5, noNaN: true }),
});
const circuitRooms = fc.uniqueArray(room, { selector: (r) => r.unitId, minLength: 0, maxLength: 6 });
/** A run of steps: the rooms reported before each step and the outdoor temperature. */
const run = fc.array(fc.record({ rooms: circuitRooms, outdoor: fc.integer({ min: -20, max: 20 }) }), {
  minLength: 1,
  maxLength: 40,
});
const curve = (outdoor: number) => heatingCurve(outdoor, { designSupply: 70, designOutdoor: -12 });

describe('stepSupplyReset', () => {
  it('keeps the supply setpoint within the limits and the heating curve plus its margin', () => {
    fc.assert(
      fc.property(run, (steps) => {
        let state: SupplyResetState = SUPPLY_RESET_OFF;
        steps.forEach((step, i) => {
          const decided = stepSupplyReset(state, step.rooms, curve(step.outdoor), T0 + i * STEP_MS);
          state = decided.state;
          if (!decided.enabled) expect(decided.supplySetpoint).toBeNull();
          else {
            const { low, high } = supplyBounds(curve(step.outdoor), SUPPLY_RESET_DEFAULTS);
            expect(decided.supplySetpoint).toBeGreaterThanOrEqual(low);
            expect(decided.supplySetpoint).toBeLessThanOrEqual(high);
            expect(decided.supplySetpoint).toBeLessThanOrEqual(SUPPLY_RESET_DEFAULTS.maxSupply);
          }
        });
      }),
    );
  });

  it('gives a faulty room no say: the same steps with a faulty room added reach the same setpoints', () => {
    const faulty: CircuitRoom = {
      unitId: 'broken',
      setpoint: 21,
      roomTemperature: 12,
      valveOpening: 100,
      faulty: true,
      preheatSoon: true,
      weight: 3,
    };
    fc.assert(
      fc.property(run, (steps) => {
        let plain: SupplyResetState = SUPPLY_RESET_OFF;
        let withBroken: SupplyResetState = SUPPLY_RESET_OFF;
        steps.forEach((step, i) => {
          const at = T0 + i * STEP_MS;
          const a = stepSupplyReset(plain, step.rooms, curve(step.outdoor), at);
          const b = stepSupplyReset(withBroken, [...step.rooms, faulty], curve(step.outdoor), at);
          plain = a.state;
          withBroken = b.state;
          expect(b.supplySetpoint).toBe(a.supplySetpoint);
          expect(b.enabled).toBe(a.enabled);
          expect(b.holdingUp.map((held) => held.unitId)).not.toContain('broken');
        });
      }),
    );
  });

  it('switches the generator off when no room needs heat, once its minimum run is over', () => {
    const satisfied = (unitId: string): CircuitRoom => ({
      unitId,
      setpoint: 17,
      roomTemperature: 20.5,
      valveOpening: 0,
      faulty: false,
      preheatSoon: false,
      weight: 1,
    });
    const cold: CircuitRoom = { ...satisfied('a'), setpoint: 21, roomTemperature: 18, valveOpening: 100 };
    const started = stepSupplyReset(SUPPLY_RESET_OFF, [cold, satisfied('b')], 50, T0);
    expect(started).toMatchObject({ enabled: true, reason: 'demand' });
    const early = stepSupplyReset(started.state, [satisfied('a'), satisfied('b')], 50, T0 + STEP_MS);
    expect(early).toMatchObject({ enabled: true, reason: 'min-on' });
    const later = stepSupplyReset(
      early.state,
      [satisfied('a'), satisfied('b')],
      50,
      T0 + SUPPLY_RESET_DEFAULTS.minOnMs,
    );
    expect(later).toMatchObject({
      enabled: false,
      supplySetpoint: null,
      reason: 'no-demand',
      roomsNeedingHeat: 0,
    });
  });

  it('runs the generator for frost even when every room is flagged faulty', () => {
    const frozen: CircuitRoom = {
      unitId: 'cellar',
      setpoint: 5,
      roomTemperature: 4.5,
      valveOpening: 0,
      faulty: true,
      preheatSoon: false,
      weight: 1,
    };
    expect(stepSupplyReset(SUPPLY_RESET_OFF, [frozen], 40, T0)).toMatchObject({
      enabled: true,
      reason: 'frost',
    });
  });

  it('never switches on or off sooner than the minimum run and pause allow', () => {
    fc.assert(
      fc.property(run, (steps) => {
        let state: SupplyResetState = SUPPLY_RESET_OFF;
        let lastSwitch: number | null = null;
        steps.forEach((step, i) => {
          const at = T0 + i * STEP_MS;
          const decided = stepSupplyReset(state, step.rooms, curve(step.outdoor), at);
          if (decided.enabled !== state.enabled) {
            if (lastSwitch !== null) {
              const minimum = state.enabled ? SUPPLY_RESET_DEFAULTS.minOnMs : SUPPLY_RESET_DEFAULTS.minOffMs;
              expect(at - lastSwitch).toBeGreaterThanOrEqual(minimum);
            }
            lastSwitch = at;
          }
          state = decided.state;
        });
      }),
    );
  });

  it('raises the setpoint for rooms with open valves below their setpoint and trims it when none asks', () => {
    const asking: CircuitRoom = {
      unitId: 'a',
      setpoint: 21,
      roomTemperature: 20,
      valveOpening: 100,
      faulty: false,
      preheatSoon: false,
      weight: 1,
    };
    const running = { enabled: true, switchedAt: T0 - 3_600_000, supplySetpoint: 45, requesters: [] };
    const raised = stepSupplyReset(running, [asking], 50, T0);
    expect(raised.supplySetpoint).toBeCloseTo(45 + SUPPLY_RESET_DEFAULTS.respondK, 6);
    expect(raised.holdingUp).toEqual([{ unitId: 'a', requests: 1 }]);
    const content = { ...asking, roomTemperature: 21, valveOpening: 40 };
    const trimmed = stepSupplyReset(raised.state, [content], 50, T0 + STEP_MS);
    expect(trimmed.supplySetpoint).toBeCloseTo(
      45 + SUPPLY_RESET_DEFAULTS.respondK + SUPPLY_RESET_DEFAULTS.trimK,
      6,
    );
  });
});

describe('roomRequests', () => {
  it('asks more the further the room is below its setpoint, and keeps a requester until its valve closes below 80 %', () => {
    const base: CircuitRoom = {
      unitId: 'a',
      setpoint: 21,
      roomTemperature: 20.5,
      valveOpening: 95,
      faulty: false,
      preheatSoon: false,
      weight: 1,
    };
    expect(roomRequests(base, false)).toEqual({ requests: 1, requester: true });
    expect(roomRequests({ ...base, roomTemperature: 19.5 }, false).requests).toBe(2);
    expect(roomRequests({ ...base, roomTemperature: 17 }, false).requests).toBe(3);
    expect(roomRequests({ ...base, valveOpening: 85 }, false)).toEqual({ requests: 0, requester: false });
    expect(roomRequests({ ...base, valveOpening: 85 }, true)).toEqual({ requests: 1, requester: true });
    expect(roomRequests({ ...base, roomTemperature: 20.9 }, false).requests).toBe(0);
  });
});

describe('heatingCurve', () => {
  it('meets its design point and the room temperature, and rises as it gets colder', () => {
    const design = { designSupply: 70, designOutdoor: -12 };
    expect(heatingCurve(-12, design)).toBeCloseTo(70, 6);
    expect(heatingCurve(20, design)).toBe(20);
    expect(heatingCurve(25, design)).toBe(20);
    expect(heatingCurve(0, design)).toBeGreaterThan(heatingCurve(10, design));
  });
});
