import { describe, expect, it } from 'vitest';
import { advance, valveOpeningFor, WINTER } from './thermal.ts';

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
