/**
 * A clock a test owns (docs/architecture.md, "Time is an input"): it starts at a fixed instant
 * and moves only when the test moves it, so an answer never depends on the day or the time of
 * day the suite runs.
 */
import type { Clock } from '../src/clock.ts';

export interface TestClock {
  /** The clock to hand to the app, a service or a job. */
  readonly now: Clock;
  /** Moves the clock to `at` (a Date or an ISO 8601 string). */
  set(at: Date | string): void;
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
}

/** A clock standing at `start` until the test moves it. */
export function testClock(start: Date | string): TestClock {
  let current = new Date(start).getTime();
  if (Number.isNaN(current)) throw new Error(`testClock: not an instant: ${String(start)}`);
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/**
 * The instant a time-sensitive test file starts at: HEIZPLAN_TEST_NOW when set, else `fallback`.
 * The variable lets the suite run such files at other fixed instants (00:15, 05:30, 06:59, a DST
 * change morning in Europe/Berlin, New Year's Eve) and so prove they depend on none of them.
 */
export function testInstant(fallback: string): Date {
  const override = process.env.HEIZPLAN_TEST_NOW;
  const at = new Date(override ?? fallback);
  if (Number.isNaN(at.getTime())) {
    throw new Error(
      override === undefined
        ? `testInstant: not an instant: ${fallback}`
        : `HEIZPLAN_TEST_NOW is not an ISO 8601 instant: ${override}`,
    );
  }
  return at;
}

/**
 * The instants a time-sensitive test file runs at, as ISO strings: those listed in
 * HEIZPLAN_TEST_INSTANTS (comma-separated, the suite's `server@instants` project sets it), else
 * the one of `testInstant(fallback)`. A file runs its tests once per instant from one import.
 */
export function testInstants(fallback: string): string[] {
  const listed = process.env.HEIZPLAN_TEST_INSTANTS?.split(',')
    .map((at) => at.trim())
    .filter(Boolean);
  if (!listed?.length) return [testInstant(fallback).toISOString()];
  return listed.map((at) => {
    const instant = new Date(at);
    if (Number.isNaN(instant.getTime()))
      throw new Error(`HEIZPLAN_TEST_INSTANTS: not an ISO 8601 instant: ${at}`);
    return instant.toISOString();
  });
}
