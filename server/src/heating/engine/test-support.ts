/**
 * Builders for heating engine tests: plans, unit inputs and Europe/Berlin local times.
 * Test-only; kept beside the engine because every engine test file uses them.
 */
import { DateTime } from 'luxon';
import { expandTimeline } from './engine.ts';
import type { HeatingPlan, SwitchPoint, UnitHeatingInput } from './types.ts';

export const ZONE = 'Europe/Berlin';

/** [hour, minute, °C, ignoreWallControl?] */
export type PointSpec = [number, number, number, boolean?];

/** The same switch points on every weekday (or the given ISO weekdays). */
export function everyDay(points: PointSpec[], days = [1, 2, 3, 4, 5, 6, 7]): SwitchPoint[] {
  return days.flatMap((day) =>
    points.map(([hour, minute, temperature, ignoreWallControl = false]) => ({
      day,
      hour,
      minute,
      temperature,
      ignoreWallControl,
    })),
  );
}

export function seasonal(id: string, validFrom: string, validTo: string, points: PointSpec[]): HeatingPlan {
  return { id, kind: 'seasonal', active: true, validFrom, validTo, switchPoints: everyDay(points) };
}

export function specificDays(id: string, dates: string[], points: PointSpec[]): HeatingPlan {
  return { id, kind: 'specific_days', active: true, dates, switchPoints: everyDay(points, [1]) };
}

export function unit(overrides: Partial<UnitHeatingInput> = {}): UnitHeatingInput {
  return {
    timeZone: ZONE,
    range: { min: 5, max: 28 },
    frostProtection: 8,
    ownPlans: [],
    groupPlans: [],
    events: [],
    manualChanges: [],
    pause: null,
    ...overrides,
  };
}

/** A Europe/Berlin wall-clock time like '2026-03-29T03:00' as an instant (unambiguous times only). */
export function local(wallClock: string): Date {
  const dt = DateTime.fromISO(wallClock, { zone: ZONE });
  if (!dt.isValid) throw new Error(`bad local time ${wallClock}`);
  return dt.toJSDate();
}

export function utc(iso: string): Date {
  return new Date(`${iso}Z`);
}

/** Changes in (from, to] as compact rows `'<UTC ISO> <°C> <source>'` for readable assertions. */
export function changeRows(input: UnitHeatingInput, from: Date, to: Date): string[] {
  return expandTimeline(input, from, to).map(
    (change) => `${change.at.toISOString().slice(0, 16)} ${change.setpoint} ${change.source}`,
  );
}
