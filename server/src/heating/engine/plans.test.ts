import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, local, seasonal, specificDays, unit } from './test-support.ts';
import type { HeatingPlan } from './types.ts';

const dayNight = (id: string, day: number, night: number) =>
  seasonal(id, '10-01', '04-30', [
    [6, 0, day, true],
    [22, 0, night],
  ]);

describe('seasonal range crossing New Year (01 Oct – 30 Apr)', () => {
  const input = unit({ ownPlans: [dayNight('winter', 21, 17)] });

  it('keeps switching on both sides of New Year', () => {
    expect(changeRows(input, local('2026-12-31T00:00'), local('2027-01-01T23:59'))).toEqual([
      '2026-12-31T05:00 21 regular_plan',
      '2026-12-31T21:00 17 regular_plan',
      '2027-01-01T05:00 21 regular_plan',
      '2027-01-01T21:00 17 regular_plan',
    ]);
  });

  it('falls back to frost protection at midnight after the range and resumes on 1 Oct', () => {
    expect(changeRows(input, local('2027-04-30T12:00'), local('2027-05-01T12:00'))).toEqual([
      '2027-04-30T20:00 17 regular_plan',
      '2027-04-30T22:00 8 no_plan', // 00:00 CEST on 1 May: nothing covers the date
    ]);
    const summer = resolveSetpoint(input, local('2027-07-15T12:00'));
    expect(summer).toMatchObject({ setpoint: 8, source: 'no_plan', since: local('2027-05-01T00:00') });
    expect(summer.planId).toBeUndefined();
    expect(summer.nextChangeAt).toEqual(local('2027-10-01T06:00'));
  });

  it('reports the plan and its ignoreWallControl while a switch point is in force', () => {
    expect(resolveSetpoint(input, local('2027-01-04T12:00'))).toMatchObject({
      setpoint: 21,
      planId: 'winter',
      ignoreWallControl: true,
      since: local('2027-01-04T06:00'),
      nextChangeAt: local('2027-01-04T22:00'),
    });
    expect(resolveSetpoint(input, local('2027-01-04T23:00')).ignoreWallControl).toBe(false);
  });
});

describe('default when nothing covers the instant', () => {
  // No plan is not a "regular plan"; the source says why the room gets frost protection.
  it('holds frost protection forever, clamped to the company range, with source no_plan', () => {
    const resolution = resolveSetpoint(unit({ frostProtection: 3 }), local('2026-06-01T12:00'));
    expect(resolution).toEqual({
      setpoint: 5,
      source: 'no_plan',
      since: new Date(0),
      ignoreWallControl: false,
      nextChangeAt: null,
    });
  });
});

describe('specific days override seasonal', () => {
  const holiday = specificDays(
    'holidays',
    ['2026-12-24', '2026-12-26'],
    [
      [9, 0, 19],
      [18, 0, 15],
    ],
  );
  const input = unit({ ownPlans: [dayNight('winter', 21, 17), holiday] });

  it('uses the holiday switch points on the listed dates only', () => {
    expect(changeRows(input, local('2026-12-23T12:00'), local('2026-12-25T12:00'))).toEqual([
      '2026-12-23T21:00 17 regular_plan',
      '2026-12-24T08:00 19 regular_plan',
      '2026-12-24T17:00 15 regular_plan',
      '2026-12-25T05:00 21 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-12-24T10:00')).planId).toBe('holidays');
    expect(resolveSetpoint(input, local('2026-12-25T10:00')).planId).toBe('winter');
  });

  it('carries the previous evening over midnight until the holiday first switches', () => {
    expect(resolveSetpoint(input, local('2026-12-24T07:00'))).toMatchObject({
      setpoint: 17,
      planId: 'winter',
      since: local('2026-12-23T22:00'),
      nextChangeAt: local('2026-12-24T09:00'),
    });
  });

  it('ignores inactive plans', () => {
    const inactive: HeatingPlan = { ...holiday, active: false };
    const withInactive = unit({ ownPlans: [dayNight('winter', 21, 17), inactive] });
    expect(resolveSetpoint(withInactive, local('2026-12-24T10:00')).planId).toBe('winter');
  });
});

describe('group plan vs own plan', () => {
  const group = dayNight('group-winter', 20, 16);

  it('uses the group plan when the unit has no plan, logged group_plan', () => {
    const input = unit({ groupPlans: [group] });
    expect(resolveSetpoint(input, local('2026-11-02T12:00'))).toMatchObject({
      setpoint: 20,
      source: 'group_plan',
      planId: 'group-winter',
    });
  });

  it('uses the own plan wherever it covers the date', () => {
    const input = unit({ ownPlans: [dayNight('own', 22, 18)], groupPlans: [group] });
    expect(resolveSetpoint(input, local('2026-11-02T12:00'))).toMatchObject({
      setpoint: 22,
      source: 'regular_plan',
      planId: 'own',
    });
  });

  it('falls back to the group plan on dates the own plan does not cover', () => {
    const holiday = specificDays('own-holiday', ['2026-11-03'], [[10, 0, 19]]);
    const input = unit({ ownPlans: [holiday], groupPlans: [group] });
    expect(changeRows(input, local('2026-11-02T12:00'), local('2026-11-04T12:00'))).toEqual([
      '2026-11-02T21:00 16 group_plan',
      '2026-11-03T09:00 19 regular_plan',
      '2026-11-04T05:00 20 group_plan',
    ]);
  });
});

describe('clamping to the company range', () => {
  it('clamps switch point temperatures above the maximum and below the minimum', () => {
    const input = unit({ range: { min: 10, max: 24 }, ownPlans: [dayNight('winter', 30, 4)] });
    expect(resolveSetpoint(input, local('2026-11-02T12:00')).setpoint).toBe(24);
    expect(resolveSetpoint(input, local('2026-11-02T23:00')).setpoint).toBe(10);
  });
});

describe('time zones', () => {
  it('expands switch points in the company zone', () => {
    const input = unit({ timeZone: 'America/New_York', ownPlans: [dayNight('winter', 21, 17)] });
    expect(resolveSetpoint(input, new Date('2026-11-02T10:59:00Z')).setpoint).toBe(17);
    expect(resolveSetpoint(input, new Date('2026-11-02T11:00:00Z')).setpoint).toBe(21); // 06:00 EST
  });

  it('rejects an invalid instant with a RangeError', () => {
    expect(() => resolveSetpoint(unit(), new Date('not a date'))).toThrow(RangeError);
  });

  it('rejects an unknown zone with a RangeError', () => {
    expect(() =>
      resolveSetpoint(unit({ timeZone: 'Mars/Olympus' }), new Date('2026-12-02T11:00:00Z')),
    ).toThrow(RangeError);
  });
});
