/**
 * The comfort rules of the reports (decision 0061), in one place for the rollups' SQL and the
 * report's wording.
 *
 * - A period is **occupied** when the setpoint in force is at least 19 °C, the lowest winter
 *   operative temperature of EN 16798-1 category III for offices and classrooms: plans, bookings
 *   and events heat to comfort above it and set back below it.
 * - The room **missed comfort** when it was more than 0.5 K below the setpoint in force.
 * - **Setback** is a period with a setpoint below 19 °C in which the room really cooled below 19 °C.
 * - A valve **stuck open** is ≥ 95 % open while the room is more than 1 K above the setpoint.
 * - A quarter hour is **heated** when the valve was more than 5 % open.
 * - The room was **above its setpoint** in an occupied quarter hour whose mean was more than
 *   0.5 K above the setpoint (the mirror of missing comfort; decision 0070).
 */
export const COMFORT_FLOOR_C = 19;
/** EN 16798-1 winter categories I and II (°C); category III starts at the comfort floor. */
export const CATEGORY_I_C = 21;
export const CATEGORY_II_C = 20;
/** % a valve must be open to count as heating. */
export const HEATING_VALVE = 5;
export const BELOW_COMFORT_K = 0.5;
export const ABOVE_SETPOINT_K = 0.5;
export const STUCK_OPEN_VALVE = 95;
export const STUCK_OPEN_K = 1;
