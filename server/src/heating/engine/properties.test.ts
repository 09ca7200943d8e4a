/**
 * Property-based tests (fast-check): over random plans, events, manual changes, pauses, closures,
 * bookings and days treated like a Sunday in
 * weeks containing DST changes, New Year and season ends, the engine's three views agree.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { expandTimeline, resolveSetpoint } from './engine.ts';
import type { HeatingPlan, SetpointChange, SetpointResolution, UnitHeatingInput } from './types.ts';

const MINUTE = 60_000;
const WEEK_MINUTES = 7 * 1440;

/** Weeks with a DST change or a year/season boundary, per zone (Santiago switches at midnight). */
const WEEKS = [
  { zone: 'Europe/Berlin', start: '2026-03-26T00:00' },
  { zone: 'Europe/Berlin', start: '2026-10-22T00:00' },
  { zone: 'Europe/Berlin', start: '2026-12-28T00:00' },
  { zone: 'Europe/Berlin', start: '2027-04-27T00:00' },
  { zone: 'America/Santiago', start: '2026-04-02T00:00' },
  { zone: 'America/Santiago', start: '2026-09-03T00:00' },
  { zone: 'Australia/Lord_Howe', start: '2026-10-01T00:00' },
];

const monthDay = fc.oneof(
  fc.constantFrom('10-01', '04-30', '03-29', '10-25', '12-31', '01-01', '02-29', '09-06'),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([m, d]) => `${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
);

const switchPoint = fc.record({
  day: fc.integer({ min: 1, max: 7 }),
  hour: fc.oneof(fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 0, max: 23 })),
  minute: fc.constantFrom(0, 15, 30, 45, 59),
  temperature: fc.integer({ min: 0, max: 70 }).map((half) => half / 2),
  ignoreWallControl: fc.boolean(),
});

function planArb(weekStart: DateTime): fc.Arbitrary<HeatingPlan> {
  const date = fc
    .integer({ min: -1, max: 8 })
    .map((offset) => weekStart.plus({ days: offset }).toISODate() as string);
  return fc.record({
    id: fc.constantFrom('p1', 'p2', 'p3'),
    kind: fc.constantFrom('seasonal' as const, 'specific_days' as const),
    active: fc.boolean(),
    validFrom: monthDay,
    validTo: monthDay,
    dates: fc.array(date, { maxLength: 3 }),
    switchPoints: fc.array(switchPoint, { maxLength: 10 }),
  });
}

/** A random unit input together with the week (from, to) it is checked over. */
const scenario = fc.constantFrom(...WEEKS).chain(({ zone, start }) => {
  const weekStart = DateTime.fromISO(start, { zone });
  const from = weekStart.toMillis();
  const instant = fc
    .integer({ min: -1440, max: WEEK_MINUTES + 1440 })
    .map((m) => new Date(from + m * MINUTE));
  const later = (at: Date) =>
    fc.integer({ min: -30, max: 3000 }).map((minutes) => new Date(at.getTime() + minutes * MINUTE));
  const event = fc
    .record({
      id: fc.constantFrom('e1', 'e2', 'e3'),
      start: instant,
      temperature: fc.integer({ min: 0, max: 70 }).map((half) => half / 2),
      preventRegular: fc.boolean(),
    })
    .chain((e) => fc.option(later(e.start), { nil: null }).map((end) => ({ ...e, end })));
  const manual = fc
    .record({
      kind: fc.constantFrom('web_change' as const, 'qr_change' as const),
      at: instant,
      temperature: fc.integer({ min: 0, max: 70 }).map((half) => half / 2),
    })
    .chain((m) => fc.option(later(m.at), { nil: null }).map((until) => ({ ...m, until })));
  const closure = fc
    .record({
      id: fc.constantFrom('c1', 'c2'),
      start: instant,
      temperature: fc.integer({ min: 0, max: 70 }).map((half) => half / 2),
    })
    .chain((c) => later(c.start).map((end) => ({ ...c, end })));
  const booking = fc
    .record({
      id: fc.constantFrom('b1', 'b2', 'b3'),
      start: instant,
      temperature: fc.option(
        fc.integer({ min: 0, max: 70 }).map((half) => half / 2),
        { nil: null },
      ),
    })
    .chain((b) => later(b.start).map((end) => ({ ...b, end })));
  const sundayDate = fc
    .integer({ min: -1, max: 8 })
    .map((offset) => weekStart.plus({ days: offset }).toISODate() as string);
  const pause = fc.option(
    instant.chain((since) =>
      fc.option(later(since), { nil: null }).map((resumedAt) => ({ since, resumedAt })),
    ),
    { nil: null },
  );
  return fc
    .record({
      min: fc.integer({ min: 5, max: 15 }),
      span: fc.integer({ min: 0, max: 15 }),
      frostProtection: fc.integer({ min: 0, max: 20 }),
      ownPlans: fc.array(planArb(weekStart), { maxLength: 2 }),
      groupPlans: fc.array(planArb(weekStart), { maxLength: 2 }),
      events: fc.array(event, { maxLength: 3 }),
      manualChanges: fc.array(manual, { maxLength: 2 }),
      pause,
      closures: fc.array(closure, { maxLength: 2 }),
      bookings: fc.array(booking, { maxLength: 3 }),
      sundayDates: fc.array(sundayDate, { maxLength: 2 }),
    })
    .map(({ min, span, ...rest }) => ({
      input: { timeZone: zone, range: { min, max: min + span }, ...rest } satisfies UnitHeatingInput,
      from,
      to: from + WEEK_MINUTES * MINUTE,
    }));
});

function observable(state: SetpointResolution | SetpointChange) {
  return {
    setpoint: state.setpoint,
    source: state.source,
    ignoreWallControl: state.ignoreWallControl,
    planId: state.planId,
    eventId: state.eventId,
    closureId: state.closureId,
    bookingId: state.bookingId,
  };
}

describe('heating engine properties', () => {
  it('keeps every setpoint inside the company range', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: WEEK_MINUTES }), ({ input, from, to }, minute) => {
        const { min, max } = input.range;
        const resolved = resolveSetpoint(input, new Date(from + minute * MINUTE)).setpoint;
        expect(resolved).toBeGreaterThanOrEqual(min);
        expect(resolved).toBeLessThanOrEqual(max);
        for (const change of expandTimeline(input, new Date(from), new Date(to))) {
          expect(change.setpoint).toBeGreaterThanOrEqual(min);
          expect(change.setpoint).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('never closes a unit the caller left the closure out for: without closures no step says closure', () => {
    fc.assert(
      fc.property(scenario, ({ input, from, to }) => {
        const open = { ...input, closures: [] };
        const sources = expandTimeline(open, new Date(from), new Date(to)).map((c) => c.source);
        expect(sources).not.toContain('closure');
        expect(resolveSetpoint(open, new Date(from)).source).not.toBe('closure');
      }),
      { numRuns: 100 },
    );
  });

  it('never cools a room below its plan with bookings, so dropping a stale feed only ever lowers it to the plan', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: WEEK_MINUTES }), ({ input, from }, minute) => {
        const t = new Date(from + minute * MINUTE);
        const planOnly = { ...input, events: [], manualChanges: [], pause: null, closures: [], bookings: [] };
        const booked = { ...planOnly, bookings: input.bookings };
        expect(resolveSetpoint(booked, t).setpoint).toBeGreaterThanOrEqual(
          resolveSetpoint(planOnly, t).setpoint,
        );
      }),
      { numRuns: 200 },
    );
  });

  it("holds a running closure's setpoint unless the unit is paused", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: WEEK_MINUTES }), ({ input, from }, minute) => {
        const t = from + minute * MINUTE;
        const running = (input.closures ?? [])
          .filter((c) => c.start.getTime() <= t && t < c.end.getTime())
          .sort((a, b) => a.start.getTime() - b.start.getTime())
          .at(-1);
        const pause = input.pause;
        const paused =
          pause !== null &&
          pause.since.getTime() <= t &&
          t < (pause.resumedAt?.getTime() ?? Number.POSITIVE_INFINITY);
        const resolution = resolveSetpoint(input, new Date(t));
        if (paused) expect(resolution.source).toBe('paused');
        else if (running) {
          const { min, max } = input.range;
          expect(resolution).toMatchObject({
            source: 'closure',
            setpoint: Math.min(Math.max(running.temperature, min), max),
            ignoreWallControl: true,
          });
        } else expect(resolution.source).not.toBe('closure');
      }),
      { numRuns: 200 },
    );
  });

  it('resolves at every minute of a week exactly what the change list says, with nextChangeAt the next change', () => {
    fc.assert(
      fc.property(scenario, ({ input, from, to }) => {
        const changes = expandTimeline(input, new Date(from), new Date(to));
        let previous: ReturnType<typeof observable> = observable(resolveSetpoint(input, new Date(from)));
        for (const change of changes) {
          expect(change.at.getTime()).toBeGreaterThan(from);
          expect(change.at.getTime()).toBeLessThanOrEqual(to);
          expect(observable(change)).not.toEqual(previous);
          previous = observable(change);
        }
        const initial = observable(resolveSetpoint(input, new Date(from)));
        let index = 0; // changes[index] is the first change after the current minute
        for (let t = from; t <= to; t += MINUTE) {
          while (index < changes.length && (changes[index] as SetpointChange).at.getTime() <= t) index++;
          const current = changes[index - 1];
          const next = changes[index];
          const resolution = resolveSetpoint(input, new Date(t));
          expect(observable(resolution)).toEqual(current ? observable(current) : initial);
          if (current) expect(resolution.since).toEqual(current.at);
          if (next) expect(resolution.nextChangeAt).toEqual(next.at);
          else if (resolution.nextChangeAt) expect(resolution.nextChangeAt.getTime()).toBeGreaterThan(to);
        }
      }),
      { numRuns: 15 },
    );
    // 15 weeks resolved minute by minute: about 11 s on an idle two-core machine, three times
    // that beside the other test files (seen in CI).
  }, 90_000);

  it('gives the same changes for a week as for its two halves, and since ≤ t < nextChangeAt', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: WEEK_MINUTES - 1 }), ({ input, from, to }, minute) => {
        const split = from + minute * MINUTE;
        const whole = expandTimeline(input, new Date(from), new Date(to));
        const halves = [
          ...expandTimeline(input, new Date(from), new Date(split)),
          ...expandTimeline(input, new Date(split), new Date(to)),
        ];
        // (from, split] and (split, to] partition (from, to]: the change lists must too.
        expect(halves).toEqual(whole);
        const resolution = resolveSetpoint(input, new Date(split));
        expect(resolution.since.getTime()).toBeLessThanOrEqual(split);
        if (resolution.nextChangeAt) expect(resolution.nextChangeAt.getTime()).toBeGreaterThan(split);
      }),
      { numRuns: 100 },
    );
  });
});
