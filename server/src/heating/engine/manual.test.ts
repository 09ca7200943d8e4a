import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, local, seasonal, unit } from './test-support.ts';
import type { HeatingEvent, ManualChange } from './types.ts';

const plan = seasonal('winter', '10-01', '04-30', [
  [6, 0, 21, true],
  [22, 0, 17],
]);

function manual(kind: ManualChange['kind'], at: Date, temperature: number, until?: Date): ManualChange {
  return { kind, at, temperature, until: until ?? null };
}

describe('manual changes', () => {
  it('a web_change holds until the next switch point', () => {
    const input = unit({
      ownPlans: [plan],
      manualChanges: [manual('web_change', local('2026-11-02T10:00'), 23.5)],
    });
    expect(resolveSetpoint(input, local('2026-11-02T15:00'))).toEqual({
      setpoint: 23.5,
      source: 'web_change',
      since: local('2026-11-02T10:00'),
      ignoreWallControl: true, // from the 06:00 switch point in force when the change was made
      nextChangeAt: local('2026-11-02T22:00'),
    });
    expect(resolveSetpoint(input, local('2026-11-02T22:00'))).toMatchObject({
      setpoint: 17,
      source: 'regular_plan',
    });
  });

  it('a qr_change with until returns to the plan at until when that comes first', () => {
    const input = unit({
      ownPlans: [plan],
      manualChanges: [manual('qr_change', local('2026-11-02T10:00'), 24, local('2026-11-02T12:00'))],
    });
    expect(changeRows(input, local('2026-11-02T09:00'), local('2026-11-02T23:00'))).toEqual([
      '2026-11-02T09:00 24 qr_change',
      '2026-11-02T11:00 21 regular_plan',
      '2026-11-02T21:00 17 regular_plan',
    ]);
  });

  it('a qr_change ends at the next switch point when that comes before until', () => {
    const input = unit({
      ownPlans: [plan],
      manualChanges: [manual('qr_change', local('2026-11-02T21:00'), 24, local('2026-11-03T01:00'))],
    });
    expect(resolveSetpoint(input, local('2026-11-02T21:30')).nextChangeAt).toEqual(local('2026-11-02T22:00'));
    expect(resolveSetpoint(input, local('2026-11-02T23:00')).source).toBe('regular_plan');
  });

  it('only the latest manual change counts', () => {
    const input = unit({
      ownPlans: [plan],
      manualChanges: [
        manual('web_change', local('2026-11-02T10:00'), 23),
        manual('qr_change', local('2026-11-02T11:00'), 19, local('2026-11-02T12:00')),
      ],
    });
    expect(resolveSetpoint(input, local('2026-11-02T11:30')).setpoint).toBe(19);
    // The expired qr_change does not bring the earlier web_change back.
    expect(resolveSetpoint(input, local('2026-11-02T12:30'))).toMatchObject({
      setpoint: 21,
      source: 'regular_plan',
    });
  });

  it('is clamped to the company range', () => {
    const input = unit({
      ownPlans: [plan],
      manualChanges: [manual('web_change', local('2026-11-02T10:00'), 35)],
    });
    expect(resolveSetpoint(input, local('2026-11-02T10:00')).setpoint).toBe(28);
  });

  it('during a preventRegular event holds until the event ends, then the ignored switch point applies', () => {
    const concert: HeatingEvent = {
      id: 'concert',
      start: local('2026-11-02T20:00'),
      end: local('2026-11-02T23:00'),
      temperature: 22,
      preventRegular: true,
    };
    const input = unit({
      ownPlans: [plan],
      events: [concert],
      manualChanges: [manual('web_change', local('2026-11-02T21:00'), 20)],
    });
    expect(changeRows(input, local('2026-11-02T19:00'), local('2026-11-03T01:00'))).toEqual([
      '2026-11-02T19:00 22 one_time_start',
      '2026-11-02T20:00 20 web_change', // the 22:00 switch point is ignored while the event runs
      '2026-11-02T22:00 17 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-11-02T22:30')).nextChangeAt).toEqual(local('2026-11-02T23:00'));
  });
});

describe('pause and resume', () => {
  const pause = { since: local('2026-11-02T10:00'), resumedAt: local('2026-11-04T15:00') };
  const input = unit({ ownPlans: [plan], pause });

  it('holds frost protection while paused, ignoring wall control, until the resume', () => {
    expect(resolveSetpoint(input, local('2026-11-03T12:00'))).toEqual({
      setpoint: 8,
      source: 'paused',
      since: local('2026-11-02T10:00'),
      ignoreWallControl: true,
      nextChangeAt: local('2026-11-04T15:00'),
    });
  });

  it('logs resumed with the plan in force, then follows the plan', () => {
    expect(changeRows(input, local('2026-11-02T09:00'), local('2026-11-04T23:00'))).toEqual([
      '2026-11-02T09:00 8 paused',
      '2026-11-04T14:00 21 resumed',
      '2026-11-04T21:00 17 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-11-04T16:00'))).toMatchObject({
      source: 'resumed',
      planId: 'winter',
      ignoreWallControl: true,
    });
  });

  it('resumes into a running event and still logs its end', () => {
    const meeting: HeatingEvent = {
      id: 'meeting',
      start: local('2026-11-02T11:00'),
      end: local('2026-11-02T14:00'),
      temperature: 22,
      preventRegular: true,
    };
    const paused = unit({
      ownPlans: [plan],
      events: [meeting],
      pause: { since: local('2026-11-02T10:00'), resumedAt: local('2026-11-02T12:00') },
    });
    expect(changeRows(paused, local('2026-11-02T09:00'), local('2026-11-02T20:00'))).toEqual([
      '2026-11-02T09:00 8 paused',
      '2026-11-02T11:00 22 resumed',
      '2026-11-02T13:00 21 one_time_end',
    ]);
    expect(resolveSetpoint(paused, local('2026-11-02T12:30')).eventId).toBe('meeting');
  });

  it('never changes while paused without a resume', () => {
    const paused = unit({ ownPlans: [plan], pause: { since: local('2026-11-02T10:00') } });
    expect(resolveSetpoint(paused, local('2027-01-01T12:00')).nextChangeAt).toBeNull();
  });

  it('clamps frost protection to the company range', () => {
    const paused = unit({ range: { min: 10, max: 28 }, pause: { since: local('2026-11-02T10:00') } });
    expect(resolveSetpoint(paused, local('2026-11-03T12:00')).setpoint).toBe(10);
  });
});
