/**
 * Public heating view for occupants (spec §1 and §9): `GET /api/public/heating-view/{token}`
 * and `POST /api/public/heating-view/{token}/setpoint`, no login. The response holds only what the
 * page shows. Unknown, disabled or regenerated tokens answer 404 without saying which; too many
 * requests per token or per IP answer 429 with `Retry-After` (seconds). Temperatures are °C,
 * valve opening %, instants ISO-8601 UTC. The public page imports these as types only, so zod stays
 * out of its bundle.
 */
import { z } from 'zod';
import { LogKindSchema } from './heating.ts';

/** The token is base64url of ≥ 16 random bytes (≥ 128 bits). */
export const PublicTokenParamsSchema = z.object({ token: z.string().min(16).max(128) });

export const PublicHeatingViewSchema = z.object({
  unitName: z.string(),
  /** Latest room temperature from the unit's devices; null when none has reported. */
  roomTemperature: z.number().nullable(),
  /** Setpoint in force (°C); null before the scheduler first evaluated the unit. */
  setpoint: z.number().nullable(),
  /** Valve opening % reported by the unit's valves (max over devices); null when unknown. */
  valveOpening: z.number().nullable(),
  /** When the room's devices last reported. */
  lastReadingAt: z.iso.datetime().nullable(),
  /**
   * A wall thermostat is overriding the setpoint: the devices report a setpoint that differs
   * from the one in force (spec §1), unless the switch point ignores wall control.
   */
  wallControlOverride: z.boolean(),
  /**
   * A device reported its setpoint within the last day, so the page can state either way
   * whether a wall thermostat overrides; false = nothing to state.
   */
  wallControlReported: z.boolean(),
  /**
   * A new setpoint is on its way to the room's valves (a downlink not yet confirmed): a device
   * reporting another value then is not an override, the page says "is being sent to the valve".
   */
  deliveryPending: z.boolean(),
  /** Where the setpoint in force comes from (the heating log kind that set it); null before the first evaluation. */
  setpointSource: LogKindSchema.nullable(),
  /** Limits for the occupant's change: wall control limits narrowed to the company range. */
  min: z.number(),
  max: z.number(),
  /** Occupant changes move in steps of this size (°C). */
  step: z.number(),
  paused: z.boolean(),
  /** The current occupant change, if any, and until when it holds (next switch point or the company's limit). */
  occupantChange: z.object({ setpoint: z.number(), until: z.iso.datetime().nullable() }).nullable(),
  /** Next scheduled setpoint change. */
  nextChange: z.object({ at: z.iso.datetime(), setpoint: z.number() }).nullable(),
  /** IANA time zone of the company, for showing times. */
  timeZone: z.string(),
});
export type PublicHeatingView = z.infer<typeof PublicHeatingViewSchema>;

/**
 * Body of the occupant's setpoint change; the answer is the updated PublicHeatingView.
 * A setpoint off the 0.5 °C grid or outside min…max → 400, a paused unit → 409; the problem's
 * `code` (`setpoint_step`, `setpoint_outside_limits`, `unit_paused`) and `params` are what the
 * page translates into its language.
 */
export const PublicSetpointRequestSchema = z.object({ setpoint: z.number() });
export type PublicSetpointRequest = z.infer<typeof PublicSetpointRequestSchema>;
