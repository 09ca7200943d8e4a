import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, local, seasonal, unit } from './test-support.ts';
import type { HeatingClosure } from './types.ts';

/** 06:00 → 21 °C, 22:00 → 17 °C every day in winter. */
const plan = seasonal('winter', '10-01', '04-30', [
  [6, 0, 21],
  [22, 0, 17],
]);

function closure(id: string, start: Date, end: Date, temperature: number): HeatingClosure {
  return { id, start, end, temperature };
}

const christmas = closure('xmas', local('2026-12-23T18:00'), local('2027-01-04T05:00'), 8);

describe('closures (decision 0051)', () => {
  it('hold their mode over the plan for their whole period and hand back to the plan', () => {
    const input = unit({ ownPlans: [plan], closures: [christmas] });
    expect(changeRows(input, local('2026-12-23T12:00'), local('2026-12-24T12:00'))).toEqual([
      '2026-12-23T17:00 8 closure',
    ]);
    expect(changeRows(input, local('2027-01-03T12:00'), local('2027-01-04T12:00'))).toEqual([
      '2027-01-04T04:00 17 regular_plan', // back to the 22:00 point in force at 05:00
      '2027-01-04T05:00 21 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-12-28T10:00'))).toMatchObject({
      setpoint: 8,
      source: 'closure',
      closureId: 'xmas',
      ignoreWallControl: true,
      since: local('2026-12-23T18:00'),
      nextChangeAt: local('2027-01-04T05:00'),
    });
  });

  it('outrank events and manual changes, and end them when the closure starts', () => {
    const input = unit({
      ownPlans: [plan],
      events: [
        {
          id: 'party',
          start: local('2026-12-23T16:00'),
          end: local('2026-12-23T23:00'),
          temperature: 23,
          preventRegular: true,
        },
      ],
      manualChanges: [{ kind: 'web_change', at: local('2026-12-28T09:00'), temperature: 24 }],
      closures: [christmas],
    });
    expect(changeRows(input, local('2026-12-23T12:00'), local('2026-12-29T00:00'))).toEqual([
      '2026-12-23T15:00 23 one_time_start',
      '2026-12-23T17:00 8 closure',
    ]);
  });

  it('yield to a pause, and the latest-starting closure wins an overlap', () => {
    const input = unit({
      ownPlans: [plan],
      pause: { since: local('2026-12-27T00:00'), resumedAt: local('2026-12-28T00:00') },
      closures: [christmas, closure('works', local('2026-12-30T00:00'), local('2026-12-31T00:00'), 16)],
    });
    expect(changeRows(input, local('2026-12-26T12:00'), local('2027-01-01T00:00'))).toEqual([
      '2026-12-26T23:00 8 paused',
      '2026-12-27T23:00 8 closure',
      '2026-12-29T23:00 16 closure',
      '2026-12-30T23:00 8 closure',
    ]);
  });

  it('stay inside the company range', () => {
    const input = unit({ range: { min: 10, max: 24 }, closures: [christmas] });
    expect(resolveSetpoint(input, local('2026-12-25T10:00')).setpoint).toBe(10);
  });
});
