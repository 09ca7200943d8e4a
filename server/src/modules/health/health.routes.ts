/**
 * `GET /api/health` (issue 2): liveness with database reachability — 200 with db "ok", or 503
 * with db "down". `GET /api/health/ready` (issue 16): readiness for a load balancer or an
 * orchestrator — 200 when the database answers and, where the app runs the LoRaWAN side, the
 * MQTT broker is connected; 503 naming the part that is down. No login for either. A check that
 * does not answer within 2 s counts as down: a probe must not hang with the database.
 */

import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { HealthResponseSchema, ReadinessResponseSchema } from '@heizplan/contracts/health';
import type { FastifyInstance } from 'fastify';

const CHECK_TIMEOUT_MS = 2000;

/** 'ok' when `check` resolves within the timeout, 'down' otherwise. */
async function probe(check: () => Promise<void>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        security: [],
        response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
      },
    },
    async (_request, reply) => {
      const { database, config } = app.deps;
      const db = await probe(() => database.ping());
      return reply
        .code(db === 'ok' ? 200 : 503)
        .send({ status: db === 'ok' ? 'ok' : 'degraded', db, version: config.version });
    },
  );

  typed.get(
    '/health/ready',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Readiness: database and MQTT broker reachable (503 names the part that is down)',
        security: [],
        response: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const { database, config, lorawan } = app.deps;
      const db = await probe(() => database.ping());
      const broker = lorawan ? (lorawan.brokerConnected ? 'ok' : 'down') : undefined;
      const ready = db === 'ok' && broker !== 'down';
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not_ready',
        db,
        ...(lorawan ? { broker, uplinks: lorawan.sessions.state } : {}),
        version: config.version,
      });
    },
  );
}
