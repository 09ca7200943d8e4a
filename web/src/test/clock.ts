/**
 * Fixed clocks for component tests (lib/clock.tsx): a test states its instant once, near its
 * top, and renders with it, so it gives the same answer on any day and at any time of day.
 */
import type { Clock } from '../lib/clock.tsx';

export interface FixedClockOptions {
  /**
   * Advance with the real time elapsed since the clock was made, for components that tick
   * (a timer that must see time pass); by default the clock stands still.
   */
  advancing?: boolean;
}

/** A clock that reads `iso` (an ISO instant with offset, e.g. '2026-11-24T09:00:00Z') on every call. */
export function fixedClock(iso: string | Date, { advancing = false }: FixedClockOptions = {}): Clock {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) throw new Error(`fixedClock: not an instant: ${String(iso)}`);
  if (!advancing) return () => new Date(at);
  const started = performance.now();
  return () => new Date(at + (performance.now() - started));
}

/**
 * The instant of a test whose screen depends on the time of day: `HEIZPLAN_TEST_NOW` (an ISO
 * instant with offset) when set, so the suite can be re-run at 00:15, 05:30, 06:59 or on a DST
 * change morning in Europe/Berlin, otherwise `fallback`. Tests derive their dates from it rather
 * than assuming the fallback's day.
 */
export function testNow(fallback: string): Date {
  const fromEnv = process.env.HEIZPLAN_TEST_NOW;
  const iso = fromEnv && fromEnv.trim() !== '' ? fromEnv.trim() : fallback;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new Error(`HEIZPLAN_TEST_NOW is not an ISO instant: ${iso}`);
  return at;
}
