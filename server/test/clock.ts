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
