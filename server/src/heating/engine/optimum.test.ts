import { describe, expect, it } from 'vitest';
import { expandTimeline, resolveSetpoint } from './engine.ts';
import { type OptimumEstimator, optimumShifts } from './optimum.ts';
import { changeRows, everyDay, local, seasonal, unit, utc } from './test-support.ts';
import type { UnitHeatingInput } from './types.ts';

/** School days 07:00–16:00 at 21 °C, 16 °C otherwise (weekends too). */
const school = unit({
  ownPlans: [
    {
      id: 'school',
      kind: 'seasonal',
      active: true,
      validFrom: '01-01',
      validTo: '12-31',
      switchPoints: [
        ...everyDay([[0, 0, 16]], [6, 7]),
        ...everyDay(
          [
            [7, 0, 21],
            [16, 0, 16],
          ],
          [1, 2, 3, 4, 5],
        ),
      ],
    },
  ],
});

const fixed = (start: number, stop: number): OptimumEstimator => ({
  startMinutes: () => start,
  stopMinutes: () => stop,
});

function withShifts(
  input: UnitHeatingInput,
  from: Date,
  to: Date,
  estimator: OptimumEstimator,
): UnitHeatingInput {
  return { ...input, planShifts: optimumShifts(input, from, to, estimator) };
}

describe('optimum start and stop in the engine', () => {
  // Tuesday 2026-12-01.
  const from = local('2026-11-30T20:00');
  const to = local('2026-12-01T20:00');

  it('sends the comfort setpoint the learned lead earlier and the set-back the stop earlier', () => {
    const input = withShifts(school, from, to, fixed(48, 20));
    expect(changeRows(input, from, to)).toEqual([
      '2026-12-01T05:12 21 optimum_start', // 06:12 local, 48 min before 07:00
      '2026-12-01T06:00 21 regular_plan',
      '2026-12-01T14:40 16 optimum_stop', // 15:40 local
      '2026-12-01T15:00 16 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-12-01T06:30'))).toMatchObject({
      setpoint: 21,
      source: 'optimum_start',
      planId: 'school',
      nextChangeAt: local('2026-12-01T07:00'),
    });
  });

  it('leaves the plan alone when the estimator says 0 and ignores steps smaller than 1 K', () => {
    expect(optimumShifts(school, from, to, fixed(0, 0))).toEqual([]);
    const small = unit({
      ownPlans: [
        seasonal('p', '01-01', '12-31', [
          [7, 0, 20.5],
          [16, 0, 20],
        ]),
      ],
    });
    expect(optimumShifts(small, from, to, fixed(60, 0))).toEqual([]);
  });

  it('lets a manual change made during the pre-heat win, and one made before it end there', () => {
    const input = withShifts(school, from, to, fixed(60, 0));
    const before = {
      ...input,
      manualChanges: [{ kind: 'web_change' as const, at: local('2026-12-01T05:00'), temperature: 18 }],
    };
    expect(resolveSetpoint(before, local('2026-12-01T06:10'))).toMatchObject({
      setpoint: 21,
      source: 'optimum_start',
    });
    const during = {
      ...input,
      manualChanges: [{ kind: 'web_change' as const, at: local('2026-12-01T06:20'), temperature: 19 }],
    };
    expect(resolveSetpoint(during, local('2026-12-01T06:30'))).toMatchObject({
      setpoint: 19,
      source: 'web_change',
    });
    expect(resolveSetpoint(during, local('2026-12-01T07:00'))).toMatchObject({
      setpoint: 21,
      source: 'regular_plan',
    });
  });

  it('does not pre-heat into a closure: the closure outranks the shifted plan', () => {
    const closure = {
      id: 'c',
      start: local('2026-12-01T00:00'),
      end: local('2026-12-02T00:00'),
      temperature: 8,
    };
    const input = withShifts({ ...school, closures: [closure] }, from, to, fixed(60, 0));
    expect(resolveSetpoint(input, local('2026-12-01T06:30'))).toMatchObject({
      setpoint: 8,
      source: 'closure',
    });
  });

  it('never starts a shift before the step before it', () => {
    const short = unit({
      ownPlans: [
        seasonal('p', '01-01', '12-31', [
          [7, 0, 21],
          [12, 0, 16],
          [12, 30, 21],
          [16, 0, 16],
        ]),
      ],
    });
    const shifts = optimumShifts(short, from, to, fixed(90, 0));
    expect(shifts.map((s) => [s.start.toISOString(), s.end.toISOString()])).toContainEqual([
      local('2026-12-01T12:00').toISOString(),
      local('2026-12-01T12:30').toISOString(),
    ]);
  });

  it('moves the start by real time on the DST morning, not by wall-clock time', () => {
    const sunday = unit({
      ownPlans: [
        seasonal('p', '01-01', '12-31', [
          [0, 0, 16],
          [3, 30, 21],
          [22, 0, 16],
        ]),
      ],
    });
    const dstFrom = local('2026-03-28T23:00');
    const dstTo = local('2026-03-29T12:00');
    const input = withShifts(sunday, dstFrom, dstTo, fixed(90, 0));
    // 03:30 CEST is 01:30 UTC; 90 minutes earlier is 00:00 UTC = 01:00 CET (2½ h on the wall clock).
    expect(expandTimeline(input, dstFrom, dstTo)[0]).toMatchObject({
      at: utc('2026-03-29T00:00'),
      setpoint: 21,
      source: 'optimum_start',
    });
  });
});
