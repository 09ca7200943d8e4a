/** Responses of `GET /api/health` (issue 2, liveness) and `GET /api/health/ready` (issue 16, readiness). */
import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/**
 * Whether this instance can do its work: 503 `not_ready` names the part that is down. `broker`
 * is this instance's connection to the MQTT broker; `uplinks` says whether uplinks come in
 * through it (`consuming`) or another instance holds the deployment's only session (`standby`).
 * Both are absent in an app that runs no LoRaWAN side.
 */
export const ReadinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  db: z.enum(['ok', 'down']),
  broker: z.enum(['ok', 'down']).optional(),
  uplinks: z.enum(['consuming', 'standby', 'disconnected']).optional(),
  version: z.string(),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;
