import { describe, expect, it } from 'vitest';
import { resolveSetpoint } from './engine.ts';
import { changeRows, everyDay, local, seasonal, unit } from './test-support.ts';
import type { HeatingBooking, HeatingPlan } from './types.ts';

/** Weekdays 07:00 → 21 °C, 17:00 → 17 °C; weekends 17 °C all day (08:00 → 17). */
const office: HeatingPlan = {
  id: 'office',
  kind: 'seasonal',
  active: true,
  validFrom: '10-01',
  validTo: '04-30',
  switchPoints: [
    ...everyDay(
      [
        [7, 0, 21],
        [17, 0, 17],
      ],
      [1, 2, 3, 4, 5],
    ),
    ...everyDay([[8, 0, 17]], [6, 7]),
  ],
};

function booking(id: string, start: string, end: string, temperature: number | null = 21): HeatingBooking {
  return { id, start: local(start), end: local(end), temperature };
}

// 2026-12-02 is a Wednesday, 2026-12-05 a Saturday.
describe('bookings (decision 0053)', () => {
  it('heat the room for the whole booking although a switch point falls inside it', () => {
    const input = unit({
      ownPlans: [office],
      bookings: [booking('parents', '2026-12-02T16:30', '2026-12-02T21:00', 22)],
    });
    expect(changeRows(input, local('2026-12-02T12:00'), local('2026-12-03T00:00'))).toEqual([
      '2026-12-02T15:30 22 booking',
      '2026-12-02T20:00 17 regular_plan',
    ]);
    expect(resolveSetpoint(input, local('2026-12-02T18:00'))).toMatchObject({
      setpoint: 22,
      source: 'booking',
      bookingId: 'parents',
      since: local('2026-12-02T16:30'),
      nextChangeAt: local('2026-12-02T21:00'),
    });
  });

  it('without a temperature of their own use the highest switch point of the day, even on a weekend', () => {
    const saturdayPlan: HeatingPlan = {
      ...office,
      switchPoints: [
        ...office.switchPoints.filter((p) => p.day !== 6),
        ...everyDay(
          [
            [8, 0, 16],
            [14, 0, 20],
            [18, 0, 16],
          ],
          [6],
        ),
      ],
    };
    const input = unit({
      ownPlans: [saturdayPlan],
      bookings: [booking('choir', '2026-12-05T10:00', '2026-12-05T12:00', null)],
    });
    expect(changeRows(input, local('2026-12-05T00:00'), local('2026-12-05T23:00'))).toEqual([
      '2026-12-05T07:00 16 regular_plan',
      '2026-12-05T09:00 20 booking',
      '2026-12-05T11:00 16 regular_plan',
      '2026-12-05T13:00 20 regular_plan',
      '2026-12-05T17:00 16 regular_plan',
    ]);
  });

  it('never cool a room below its plan: a booking colder than the plan changes nothing', () => {
    const input = unit({
      ownPlans: [office],
      bookings: [booking('cold', '2026-12-02T09:00', '2026-12-02T11:00', 18)],
    });
    expect(changeRows(input, local('2026-12-02T06:00'), local('2026-12-02T23:00'))).toEqual([
      '2026-12-02T06:00 21 regular_plan',
      '2026-12-02T16:00 17 regular_plan',
    ]);
  });

  it('give way to a later manual change until the next switch point, then hold again', () => {
    const input = unit({
      ownPlans: [office],
      bookings: [booking('workshop', '2026-12-02T15:00', '2026-12-02T20:00', 21)],
      manualChanges: [{ kind: 'qr_change', at: local('2026-12-02T16:00'), temperature: 23 }],
    });
    expect(changeRows(input, local('2026-12-02T12:00'), local('2026-12-03T00:00'))).toEqual([
      '2026-12-02T15:00 23 qr_change',
      '2026-12-02T16:00 21 booking',
      '2026-12-02T19:00 17 regular_plan',
    ]);
  });

  it('are silenced by a running event that suspends regular operation and yield to closures', () => {
    const input = unit({
      ownPlans: [office],
      events: [
        {
          id: 'audit',
          start: local('2026-12-02T18:00'),
          end: local('2026-12-02T20:00'),
          temperature: 15,
          preventRegular: true,
        },
      ],
      bookings: [booking('late', '2026-12-02T17:30', '2026-12-02T21:00', 22)],
      closures: [
        { id: 'xmas', start: local('2026-12-02T20:30'), end: local('2026-12-03T06:00'), temperature: 8 },
      ],
    });
    expect(changeRows(input, local('2026-12-02T12:00'), local('2026-12-03T00:00'))).toEqual([
      '2026-12-02T16:00 17 regular_plan',
      '2026-12-02T16:30 22 booking',
      '2026-12-02T17:00 15 one_time_start',
      // The booking comes back when the event ends, labelled like every claim an event hands back to.
      '2026-12-02T19:00 22 one_time_end',
      '2026-12-02T19:30 8 closure',
    ]);
  });

  it('of two overlapping bookings the later one names the state, and the range still bounds it', () => {
    const input = unit({
      range: { min: 5, max: 21 },
      ownPlans: [office],
      bookings: [
        booking('a', '2026-12-02T17:00', '2026-12-02T19:00', 22),
        booking('b', '2026-12-02T18:00', '2026-12-02T20:00', 22),
      ],
    });
    expect(resolveSetpoint(input, local('2026-12-02T18:30'))).toMatchObject({
      setpoint: 21,
      source: 'booking',
      bookingId: 'b',
    });
    expect(changeRows(input, local('2026-12-02T16:30'), local('2026-12-02T21:00'))).toEqual([
      '2026-12-02T16:00 21 booking',
      '2026-12-02T17:00 21 booking',
      '2026-12-02T19:00 17 regular_plan',
    ]);
  });
});

describe('days treated like a Sunday (decision 0052)', () => {
  const weekdayAndSunday: HeatingPlan = {
    ...seasonal('all', '10-01', '04-30', []),
    switchPoints: [
      ...everyDay(
        [
          [6, 0, 21],
          [22, 0, 17],
        ],
        [1, 2, 3, 4, 5, 6],
      ),
      ...everyDay([[10, 0, 19]], [7]),
    ],
  };

  it('use the Sunday switch points of a seasonal plan on the listed dates only', () => {
    // 2026-12-25 (Christmas) is a Friday.
    const input = unit({ ownPlans: [weekdayAndSunday], sundayDates: ['2026-12-25', 'not-a-date'] });
    expect(changeRows(input, local('2026-12-24T12:00'), local('2026-12-26T12:00'))).toEqual([
      '2026-12-24T21:00 17 regular_plan',
      '2026-12-25T09:00 19 regular_plan',
      '2026-12-26T05:00 21 regular_plan',
    ]);
  });
});
