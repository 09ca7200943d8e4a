/**
 * Setpoint rules of the units screen (spec §2, §9): the room-temperature warning above 2 °C
 * deviation and the ±0.5 °C steps, clamped to the company range.
 *
 * After a switch point a room needs time to heat up (or cool down), so a deviation then is no
 * fault: the warning waits as long as the company's "far from setpoint" alert rule does
 * (`farFromSetpointMinutes`, 240 by default). A unit reports since when its setpoint applies,
 * not since when its room deviates, so the wait counts from the switch point.
 */

/** Spec §9: warn when room and target temperature differ by more than this (°C). */
export const DEVIATION_WARNING_C = 2;
/** One press of − or + changes the setpoint by this much (°C). */
export const SETPOINT_STEP_C = 0.5;

/** True when the room temperature is more than 2 °C away from the setpoint; false if either is unknown. */
export function deviates(setpoint: number | null, room: number | null): boolean {
  if (setpoint === null || room === null) return false;
  return Math.abs(room - setpoint) > DEVIATION_WARNING_C;
}

/** `none`; `settling` while the room may still heat up or cool down; `warning` after that. */
export type DeviationState = 'none' | 'settling' | 'warning';

export interface DeviationInput {
  setpoint: number | null;
  room: number | null;
  /** When the current setpoint started to apply (ISO), null if unknown. */
  setpointSince: string | null;
  paused: boolean;
}

/**
 * Whether the room deviates, and whether it has had `settleMinutes` since the switch point to
 * reach the setpoint. Paused units hold frost protection and are left out, as by the alert rule.
 */
export function deviationState(unit: DeviationInput, settleMinutes: number, now: number): DeviationState {
  if (unit.paused || !deviates(unit.setpoint, unit.room)) return 'none';
  const since = unit.setpointSince ? Date.parse(unit.setpointSince) : Number.NaN;
  if (Number.isNaN(since)) return 'warning';
  return now - since < settleMinutes * 60_000 ? 'settling' : 'warning';
}

/**
 * The setpoint after one step (`direction` −1 or +1), clamped to `[min, max]` °C; null when the
 * step cannot change it (already at the limit, or no setpoint yet).
 */
export function steppedSetpoint(
  setpoint: number | null,
  direction: -1 | 1,
  range: { min: number; max: number },
): number | null {
  if (setpoint === null) return null;
  const next = Math.min(range.max, Math.max(range.min, setpoint + direction * SETPOINT_STEP_C));
  return next === setpoint ? null : next;
}
