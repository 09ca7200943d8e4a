/**
 * The occupant's −/+: one step on the step grid inside the allowed range. A setpoint
 * outside the range (the plan may ask for 17 °C while occupants may choose 18–23 °C) moves to the
 * nearest allowed value on the first press: "+" from below goes to `min`, "−" from above to
 * `max`; the direction that leads further out is unavailable.
 */

/** Tolerance for float noise when comparing °C values on the 0.5 °C grid. */
const EPSILON = 1e-9;

const onGrid = (value: number) => Math.round(value * 100) / 100;

/**
 * The setpoint (°C) one step from `current` in `direction`, or null when no allowed value lies
 * that way. `min`/`max` are on the grid (the server rounds the limits inwards).
 */
export function stepSetpoint(
  current: number,
  direction: 1 | -1,
  limits: { min: number; max: number; step: number },
): number | null {
  const { min, max, step } = limits;
  if (direction === 1) {
    const next = Math.max(min, (Math.floor(current / step + EPSILON) + 1) * step);
    return next <= max + EPSILON ? onGrid(next) : null;
  }
  const next = Math.min(max, (Math.ceil(current / step - EPSILON) - 1) * step);
  return next >= min - EPSILON ? onGrid(next) : null;
}
