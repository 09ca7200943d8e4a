import { describe, expect, it } from 'vitest';
import { everyDay, seasonal, specificDays } from './test-support.ts';
import type { HeatingPlan } from './types.ts';
import { PLAN_ISSUE_DETAILS, validatePlan } from './validate.ts';

const range = { min: 5, max: 28 };
const winter = seasonal('winter', '10-01', '04-30', [
  [6, 0, 21],
  [22, 0, 17],
]);

describe('validatePlan', () => {
  it('accepts a valid seasonal plan crossing New Year and a valid specific-days plan', () => {
    expect(validatePlan(winter, range)).toEqual([]);
    expect(validatePlan(specificDays('holidays', ['2026-12-24', '2028-02-29'], [[8, 0, 20]]), range)).toEqual(
      [],
    );
    expect(validatePlan({ ...winter, validFrom: '02-29', validTo: '03-31' }, range)).toEqual([]);
  });

  it('rejects duplicate switch points on the same day and time as an invalid schedule', () => {
    const duplicate: HeatingPlan = {
      ...winter,
      switchPoints: [...winter.switchPoints, ...everyDay([[6, 0, 19]], [3])],
    };
    expect(validatePlan(duplicate, range)).toEqual([
      {
        field: `switchPoints.${winter.switchPoints.length}`,
        code: 'invalid_schedule',
        message: 'Invalid schedule!',
      },
    ]);
  });

  it('rejects two specific-days switch points at the same time whatever their day field', () => {
    const plan: HeatingPlan = {
      ...specificDays('holidays', ['2026-12-24'], [[8, 0, 20]]),
      switchPoints: [...everyDay([[8, 0, 20]], [1]), ...everyDay([[8, 0, 22]], [2])],
    };
    expect(validatePlan(plan, range).map((issue) => issue.code)).toEqual(['invalid_schedule']);
  });

  it('rejects hour 24 and minute 60 as invalid times', () => {
    const plan: HeatingPlan = {
      ...winter,
      switchPoints: [
        { day: 1, hour: 24, minute: 0, temperature: 20, ignoreWallControl: false },
        { day: 1, hour: 7, minute: 60, temperature: 20, ignoreWallControl: false },
      ],
    };
    expect(validatePlan(plan, range)).toEqual([
      { field: 'switchPoints.0.hour', code: 'invalid_time', message: 'Invalid time!' },
      { field: 'switchPoints.1.minute', code: 'invalid_time', message: 'Invalid time!' },
    ]);
  });

  it('rejects temperatures outside the company range', () => {
    const plan = seasonal('winter', '10-01', '04-30', [
      [6, 0, 28.5],
      [22, 0, 4.5],
    ]);
    const issues = validatePlan(plan, range);
    expect(issues).toHaveLength(14);
    expect(issues[0]).toEqual({
      field: 'switchPoints.0.temperature',
      code: 'out_of_range',
      message: 'Value exceeds temperature range set by your company.',
      params: { min: 5, max: 28 },
    });
    // Below the range is not "exceeds".
    expect(issues[1]).toEqual({
      field: 'switchPoints.1.temperature',
      code: 'below_range',
      message: 'Value is below the temperature range set by your company.',
      params: { min: 5, max: 28 },
    });
    expect(issues.map((issue) => issue.code)).toEqual(
      Array.from({ length: 7 }, () => ['out_of_range', 'below_range']).flat(),
    );
  });

  it('rejects a seasonal plan without validFrom/validTo and a specific-days plan without dates', () => {
    const { validFrom: _from, validTo: _to, ...noRange } = winter;
    expect(validatePlan(noRange, range)).toEqual([
      { field: 'validFrom', code: 'invalid_schedule', message: 'Invalid schedule!' },
      { field: 'validTo', code: 'invalid_schedule', message: 'Invalid schedule!' },
    ]);
    expect(validatePlan({ ...specificDays('h', [], [[8, 0, 20]]) }, range)).toEqual([
      { field: 'dates', code: 'invalid_schedule', message: 'Invalid schedule!' },
    ]);
  });

  it('rejects impossible dates as invalid times', () => {
    expect(validatePlan({ ...winter, validTo: '02-30' }, range)).toEqual([
      { field: 'validTo', code: 'invalid_time', message: 'Invalid time!' },
    ]);
    expect(validatePlan({ ...winter, validFrom: '13-01' }, range)[0]?.code).toBe('invalid_time');
    expect(validatePlan(specificDays('h', ['2027-02-29', '24.12.2026'], [[8, 0, 20]]), range)).toEqual([
      { field: 'dates.0', code: 'invalid_time', message: 'Invalid time!' },
      { field: 'dates.1', code: 'invalid_time', message: 'Invalid time!' },
    ]);
  });

  it('rejects a plan without switch points, a weekday outside 1–7 and duplicate dates', () => {
    expect(validatePlan({ ...winter, switchPoints: [] }, range)).toEqual([
      { field: 'switchPoints', code: 'invalid_schedule', message: 'Invalid schedule!' },
    ]);
    expect(validatePlan({ ...winter, switchPoints: everyDay([[6, 0, 20]], [8]) }, range)[0]).toMatchObject({
      field: 'switchPoints.0.day',
      code: 'invalid_schedule',
    });
    expect(validatePlan(specificDays('h', ['2026-12-24', '2026-12-24'], [[8, 0, 20]]), range)).toEqual([
      { field: 'dates.1', code: 'invalid_schedule', message: 'Invalid schedule!' },
    ]);
  });

  it('offers the spec detail text per code', () => {
    expect(PLAN_ISSUE_DETAILS.invalid_schedule).toBe('There is an error in the schedule.');
    expect(PLAN_ISSUE_DETAILS.invalid_time).toBe('The time is not valid.');
  });
});
