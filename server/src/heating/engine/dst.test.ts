import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, local, seasonal, unit, utc } from './test-support.ts';

/** Winter plan with a switch point inside both 2026 DST transitions (02:30 local). */
const winter = unit({
  ownPlans: [
    seasonal('winter', '10-01', '04-30', [
      [1, 30, 17],
      [2, 30, 19],
      [3, 30, 21],
      [22, 0, 16],
    ]),
  ],
});

describe('spring forward, 2026-03-29 Europe/Berlin (02:00–03:00 does not exist)', () => {
  it('fires the 02:30 switch point once, at 03:00 CEST, between its neighbours', () => {
    expect(changeRows(winter, local('2026-03-29T00:00'), local('2026-03-29T12:00'))).toEqual([
      '2026-03-29T00:30 17 regular_plan', // 01:30 CET
      '2026-03-29T01:00 19 regular_plan', // 02:30 → 03:00 CEST
      '2026-03-29T01:30 21 regular_plan', // 03:30 CEST
    ]);
  });

  it('keeps the 01:30 setpoint until the gap and reports the gap end as the next change', () => {
    const before = resolveSetpoint(winter, utc('2026-03-29T00:59:59'));
    expect(before).toMatchObject({ setpoint: 17, since: utc('2026-03-29T00:30') });
    expect(before.nextChangeAt).toEqual(utc('2026-03-29T01:00'));
    expect(resolveSetpoint(winter, utc('2026-03-29T01:00'))).toMatchObject({
      setpoint: 19,
      since: utc('2026-03-29T01:00'),
      nextChangeAt: utc('2026-03-29T01:30'),
    });
  });

  it('keeps local wall-clock times on the days either side', () => {
    expect(changeRows(winter, local('2026-03-28T02:00'), local('2026-03-28T03:00'))).toEqual([
      '2026-03-28T01:30 19 regular_plan', // 02:30 CET = UTC+1
    ]);
    expect(changeRows(winter, local('2026-03-30T02:00'), local('2026-03-30T03:00'))).toEqual([
      '2026-03-30T00:30 19 regular_plan', // 02:30 CEST = UTC+2
    ]);
  });

  it('lets the latest local time win when several switch points fall into the gap', () => {
    const input = unit({
      ownPlans: [
        seasonal('winter', '10-01', '04-30', [
          [1, 59, 17],
          [2, 15, 18],
          [2, 45, 19],
          [3, 1, 20],
        ]),
      ],
    });
    expect(changeRows(input, local('2026-03-29T00:00'), local('2026-03-29T12:00'))).toEqual([
      '2026-03-29T00:59 17 regular_plan', // 01:59 CET, just before the gap
      '2026-03-29T01:00 19 regular_plan', // 02:15 and 02:45 both at 03:00 CEST, 02:45 wins
      '2026-03-29T01:01 20 regular_plan', // 03:01 CEST
    ]);
  });
});

describe('fall back, 2026-10-25 Europe/Berlin (02:00–03:00 happens twice)', () => {
  it('fires the 02:30 switch point exactly once, at its first occurrence', () => {
    expect(changeRows(winter, local('2026-10-25T00:00'), local('2026-10-25T12:00'))).toEqual([
      '2026-10-24T23:30 17 regular_plan', // 01:30 CEST
      '2026-10-25T00:30 19 regular_plan', // 02:30 CEST (first occurrence)
      '2026-10-25T02:30 21 regular_plan', // 03:30 CET
    ]);
  });

  it('does not change during the repeated hour and sleeps until 03:30 CET', () => {
    const secondOccurrence = resolveSetpoint(winter, utc('2026-10-25T01:30'));
    expect(secondOccurrence).toMatchObject({ setpoint: 19, since: utc('2026-10-25T00:30') });
    expect(secondOccurrence.nextChangeAt).toEqual(utc('2026-10-25T02:30'));
  });

  it('keeps local wall-clock times on the days either side', () => {
    expect(changeRows(winter, local('2026-10-24T02:00'), local('2026-10-24T03:00'))).toEqual([
      '2026-10-24T00:30 19 regular_plan', // 02:30 CEST
    ]);
    expect(changeRows(winter, local('2026-10-26T02:00'), local('2026-10-26T03:00'))).toEqual([
      '2026-10-26T01:30 19 regular_plan', // 02:30 CET
    ]);
  });
});

describe('a zone whose midnight does not exist (America/Santiago, 2026-09-06)', () => {
  it('starts the day, and a midnight switch point, at 01:00 local', () => {
    const input = unit({
      timeZone: 'America/Santiago',
      ownPlans: [
        seasonal('winter', '04-01', '09-30', [
          [0, 0, 18],
          [7, 0, 21],
        ]),
      ],
    });
    expect(changeRows(input, utc('2026-09-05T12:00'), utc('2026-09-06T12:00'))).toEqual([
      '2026-09-06T04:00 18 regular_plan', // 00:00 does not exist; 01:00 -03 = 04:00 UTC
      '2026-09-06T10:00 21 regular_plan', // 07:00 -03
    ]);
  });
});
