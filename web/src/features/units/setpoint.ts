/**
 * Setpoint rules of the units screen (spec §2, §9): the room-temperature warning above 2 °C
 * deviation and the ±0.5 °C steps, clamped to the company range.
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
