import { describe, expect, it } from 'vitest';
import { farFromPrevious } from './reading-check.ts';

const readings = [
  { month: '2026-09', carrier: 'gas' as const, kwh: 4000 },
  { month: '2026-10', carrier: 'gas' as const, kwh: 9800 },
  { month: '2026-10', carrier: 'district_heating' as const, kwh: 100 },
  { month: '2026-12', carrier: 'gas' as const, kwh: 1 },
];

describe('farFromPrevious', () => {
  it('asks about a reading over three times the same carrier’s latest month before it', () => {
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'gas', kwh: 38_450.5 })).toEqual({
      previous: readings[1],
      direction: 'higher',
    });
  });

  it('asks about a reading under a third of it, as a decimal comma read as a thousands dot would', () => {
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'gas', kwh: 38.5 })).toMatchObject({
      direction: 'lower',
    });
  });

  it('lets a month within a factor of three pass, and compares only with the same carrier', () => {
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'gas', kwh: 19_000 })).toBeNull();
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'gas', kwh: 3300 })).toBeNull();
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'district_heating', kwh: 250 })).toBeNull();
  });

  it('has nothing to compare with for the first month, a carrier’s first reading or a previous 0 kWh', () => {
    expect(farFromPrevious(readings, { month: '2026-08', carrier: 'gas', kwh: 50_000 })).toBeNull();
    expect(farFromPrevious(readings, { month: '2026-11', carrier: 'oil', kwh: 50_000 })).toBeNull();
    expect(
      farFromPrevious([{ month: '2026-10', carrier: 'gas', kwh: 0 }], {
        month: '2026-11',
        carrier: 'gas',
        kwh: 5,
      }),
    ).toBeNull();
  });
});
