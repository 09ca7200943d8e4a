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
 * One background job of this instance as its registry reports it: its period, how it stays
 * correct on several instances (`lock`), what a run works on (`claims`), whether a run is going
 * on, how many ran and failed since the process started, since when it fails (null while its
 * last run succeeded) and when it last succeeded (ISO 8601 UTC, null before the first success).
 */
export const JobHealthSchema = z.object({
  name: z.string(),
  periodSeconds: z.number(),
  lock: z.enum(['advisory lock', 'skip locked rows', 'idempotent', 'this instance']),
  claims: z.string(),
  running: z.boolean(),
  runs: z.number().int(),
  failures: z.number().int(),
  failingSince: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type JobHealth = z.infer<typeof JobHealthSchema>;

/**
 * Whether this instance can serve HTTP: `ready` (200) when the database answers, `not_ready`
 * (503) when it does not. The MQTT side is reported, never a reason for 503 — the UI and the API
 * work without the broker, and a broker restart would otherwise take every instance out of the
 * load balancer at once. `broker` is this instance's connection to the MQTT broker, `uplinks`
 * how it takes uplinks, `downlinks` whether downlinks leave; all absent in an app that runs no
 * LoRaWAN side. `jobs` lists the instance's background jobs (absent in an app without them); a
 * failing job is reported, never a reason for 503 either.
 */
export const ReadinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  db: z.enum(['ok', 'down']),
  broker: z.enum(['ok', 'down']).optional(),
  uplinks: UplinkStateSchema.optional(),
  downlinks: DownlinkHealthSchema.optional(),
  jobs: z.array(JobHealthSchema).optional(),
  version: z.string(),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;
