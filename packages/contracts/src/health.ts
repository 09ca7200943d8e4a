/** Responses of `GET /api/health` (liveness) and `GET /api/health/ready` (readiness). */
import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/**
 * How this instance takes uplinks: `consuming` — its session is connected to the broker;
 * `standby` — another instance holds the deployment's only plain session; `disconnected` — it
 * holds its session but the broker is unreachable; `paused` — it holds no session because it
 * cannot reach the database to lease one (it dropped its sessions when the lease could not be
 * renewed, or cannot claim one), so who consumes is unknown from here.
 */
export const UplinkStateSchema = z.enum(['consuming', 'standby', 'disconnected', 'paused']);
export type UplinkState = z.infer<typeof UplinkStateSchema>;

/**
 * Whether downlinks leave this deployment: `stalled` when they wait and do not go out (the
 * downlink queue decides); `oldestUnsentSeconds` is how long the oldest unsent one has waited,
 * in seconds, null when none waits.
 */
export const DownlinkHealthSchema = z.object({
  state: z.enum(['ok', 'stalled']),
  oldestUnsentSeconds: z.number().nullable(),
});
export type DownlinkHealth = z.infer<typeof DownlinkHealthSchema>;

/**
 * Whether this instance can serve HTTP: `ready` (200) when the database answers, `not_ready`
 * (503) when it does not. The MQTT side is reported, never a reason for 503 — the UI and the API
 * work without the broker, and a broker restart would otherwise take every instance out of the
 * load balancer at once. `broker` is this instance's connection to the MQTT broker, `uplinks`
 * how it takes uplinks, `downlinks` whether downlinks leave; all absent in an app that runs no
 * LoRaWAN side.
 */
export const ReadinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  db: z.enum(['ok', 'down']),
  broker: z.enum(['ok', 'down']).optional(),
  uplinks: UplinkStateSchema.optional(),
  downlinks: DownlinkHealthSchema.optional(),
  version: z.string(),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;
