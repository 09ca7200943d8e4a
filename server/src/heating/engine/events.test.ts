import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, local, seasonal, unit, utc } from './test-support.ts';
import type { HeatingEvent } from './types.ts';

/** 06:00 → 21 °C, 12:00 → 19 °C, 22:00 → 17 °C every day in winter. */
const plan = seasonal('winter', '10-01', '04-30', [
  [6, 0, 21],
  [12, 0, 19],
  [22, 0, 17],
]);

function event(
  id: string,
  start: Date,
  end: Date | null,
  temperature: number,
  preventRegular = false,
): HeatingEvent {
  return { id, start, end, temperature, preventRegular };
}

describe('one-time events', () => {
  it('with preventRegular keeps its temperature across a switch point and ends with one_time_end', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('concert', local('2026-11-07T10:00'), local('2026-11-07T14:00'), 23, true)],
    });
    expect(changeRows(input, local('2026-11-07T07:00'), local('2026-11-07T20:00'))).toEqual([
      '2026-11-07T09:00 23 one_time_start',
      '2026-11-07T13:00 19 one_time_end', // back to the 12:00 point that fell inside the event
    ]);
    expect(resolveSetpoint(input, local('2026-11-07T13:00'))).toMatchObject({
      setpoint: 23,
      eventId: 'concert',
      since: local('2026-11-07T10:00'),
      nextChangeAt: local('2026-11-07T14:00'),
    });
    expect(resolveSetpoint(input, local('2026-11-07T15:00'))).toMatchObject({
      setpoint: 19,
      source: 'one_time_end',
      eventId: 'concert',
      planId: 'winter',
      nextChangeAt: local('2026-11-07T22:00'),
    });
  });

  it('without preventRegular gives way to the next switch point and does not come back', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('meeting', local('2026-11-07T10:00'), local('2026-11-07T14:00'), 23)],
    });
    expect(changeRows(input, local('2026-11-07T07:00'), local('2026-11-07T20:00'))).toEqual([
      '2026-11-07T09:00 23 one_time_start',
      '2026-11-07T11:00 19 regular_plan',
    ]);
  });

  it('returns to the plan in force at its end', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('cleaning', local('2026-11-07T13:00'), local('2026-11-07T15:00'), 12)],
    });
    expect(changeRows(input, local('2026-11-07T12:30'), local('2026-11-07T20:00'))).toEqual([
      '2026-11-07T12:00 12 one_time_start',
      '2026-11-07T14:00 19 one_time_end',
    ]);
  });

  it('takes ignoreWallControl from the switch point in force when it started', () => {
    const flagged = seasonal('winter', '10-01', '04-30', [
      [6, 0, 21, true],
      [12, 0, 19, false],
    ]);
    const input = unit({
      ownPlans: [flagged],
      events: [event('concert', local('2026-11-07T10:00'), local('2026-11-07T14:00'), 23, true)],
    });
    expect(resolveSetpoint(input, local('2026-11-07T13:00')).ignoreWallControl).toBe(true);
    expect(resolveSetpoint(input, local('2026-11-07T14:00'))).toMatchObject({
      source: 'one_time_end',
      ignoreWallControl: false,
    });
  });

  it('open-ended holds until the next switch point', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('open', local('2026-11-07T14:00'), null, 24, true)],
    });
    expect(resolveSetpoint(input, local('2026-11-07T18:00'))).toMatchObject({
      setpoint: 24,
      source: 'one_time_start',
      nextChangeAt: local('2026-11-07T22:00'),
    });
    expect(resolveSetpoint(input, local('2026-11-07T22:00'))).toMatchObject({
      setpoint: 17,
      source: 'regular_plan',
    });
  });

  it('starting exactly at a switch point wins over it', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('early', local('2026-11-07T06:00'), local('2026-11-07T08:00'), 25)],
    });
    expect(resolveSetpoint(input, local('2026-11-07T06:00'))).toMatchObject({
      setpoint: 25,
      source: 'one_time_start',
    });
  });

  it('overlapping: the later-starting event wins while it runs, then the earlier one returns', () => {
    const input = unit({
      ownPlans: [plan],
      events: [
        event('day', local('2026-11-07T08:00'), local('2026-11-07T18:00'), 22, true),
        event('evening', local('2026-11-07T10:00'), local('2026-11-07T11:00'), 25, true),
      ],
    });
    expect(changeRows(input, local('2026-11-07T07:00'), local('2026-11-07T20:00'))).toEqual([
      '2026-11-07T07:00 22 one_time_start',
      '2026-11-07T09:00 25 one_time_start',
      '2026-11-07T10:00 22 one_time_end', // 'evening' ended, 'day' is back
      '2026-11-07T17:00 19 one_time_end',
    ]);
    expect(resolveSetpoint(input, local('2026-11-07T10:30')).eventId).toBe('evening');
    expect(resolveSetpoint(input, local('2026-11-07T11:30')).eventId).toBe('evening');
    expect(resolveSetpoint(input, local('2026-11-07T18:30')).eventId).toBe('day');
  });

  it('overlapping: an earlier event ending inside a later one changes nothing', () => {
    const input = unit({
      ownPlans: [plan],
      events: [
        event('first', local('2026-11-07T08:00'), local('2026-11-07T10:00'), 22, true),
        event('second', local('2026-11-07T09:00'), local('2026-11-07T11:00'), 24, true),
      ],
    });
    expect(changeRows(input, local('2026-11-07T07:00'), local('2026-11-07T20:00'))).toEqual([
      '2026-11-07T07:00 22 one_time_start',
      '2026-11-07T08:00 24 one_time_start',
      '2026-11-07T10:00 21 one_time_end',
      '2026-11-07T11:00 19 regular_plan',
    ]);
  });

  it('spans the autumn DST change with the repeated hour inside it', () => {
    const night = seasonal('night', '10-01', '04-30', [
      [2, 30, 15],
      [5, 0, 20],
    ]);
    const input = unit({
      ownPlans: [night],
      events: [event('night-shift', utc('2026-10-24T23:00'), utc('2026-10-25T02:00'), 22, true)],
    });
    // 01:00 CEST → 03:00 CET is three real hours; the 02:30 point inside is ignored.
    expect(changeRows(input, utc('2026-10-24T22:00'), utc('2026-10-25T06:00'))).toEqual([
      '2026-10-24T23:00 22 one_time_start',
      '2026-10-25T02:00 15 one_time_end',
      '2026-10-25T04:00 20 regular_plan',
    ]);
  });

  it('spans the spring DST gap, ending at the local time it was planned for', () => {
    const input = unit({
      ownPlans: [plan],
      events: [event('overnight', local('2026-03-29T01:00'), local('2026-03-29T04:00'), 18)],
    });
    // 01:00 CET → 04:00 CEST is two real hours.
    expect(changeRows(input, local('2026-03-29T00:00'), local('2026-03-29T07:00'))).toEqual([
      '2026-03-29T00:00 18 one_time_start',
      '2026-03-29T02:00 17 one_time_end',
      '2026-03-29T04:00 21 regular_plan',
    ]);
  });
});
