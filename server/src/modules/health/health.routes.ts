/**
 * `GET /api/health`: liveness with database reachability — 200 with db "ok", or 503 with db
 * "down". `GET /api/health/ready`: readiness for a load balancer or an orchestrator — "can this
 * instance serve HTTP", i.e. 200 when the database answers, 503 when it does not. Where the app
 * runs the LoRaWAN side, the broker connection, how uplinks come in and whether downlinks leave
 * are reported as fields but never make it 503: the UI and the API work without the broker, and
 * a broker restart would otherwise take every instance out of the load balancer at once. The
 * background jobs are listed with their last success and failures, as detail for an operator. No login
 * for either. A check that does not answer within 2 s counts as down: a probe must not hang with
 * the database.
 */

import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  type DownlinkHealth,
  HealthResponseSchema,
  ReadinessResponseSchema,
} from '@heizplan/contracts/health';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { JobsStatus, LorawanState, LorawanStatus } from '../../ports.ts';

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

/**
 * What the downlink queue reports, or undefined when it offers nothing or its getter throws: a
 * readiness probe must answer, and a missing field says "unknown" honestly.
 */
function downlinkHealth(lorawan: LorawanState): DownlinkHealth | undefined {
  try {
    return lorawan.downlinkHealth;
  } catch {
    return undefined;
  }
}

export interface HealthRoutesOptions {
  /** Pinged on every probe. */
  database: Pick<Database, 'ping'>;
  /** The running version, reported by both. */
  version: string;
  /** The LoRaWAN side, reported by readiness; absent in an app without one. */
  lorawanStatus?: LorawanStatus | undefined;
  /** The background jobs, reported by readiness; absent in an app without them. */
  jobs?: JobsStatus | undefined;
}

/** Registers `GET /health` and `GET /health/ready` (public; the app mounts them under `/api`). */
export async function healthRoutes(
  app: FastifyInstance,
  { database, version, lorawanStatus, jobs }: HealthRoutesOptions,
) {
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
      const db = await probe(() => database.ping());
      return reply
        .code(db === 'ok' ? 200 : 503)
        .send({ status: db === 'ok' ? 'ok' : 'degraded', db, version });
    },
  );

  typed.get(
    '/health/ready',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary:
          'Readiness: 503 only while the database does not answer; broker, uplinks and downlinks are reported',
        security: [],
        response: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const lorawan = lorawanStatus?.current;
      const db = await probe(() => database.ping());
      const ready = db === 'ok';
      const downlinks = lorawan ? downlinkHealth(lorawan) : undefined;
      const jobList = jobs?.status() ?? [];
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not_ready',
        db,
        ...(lorawan
          ? {
              broker: lorawan.brokerConnected ? 'ok' : 'down',
              uplinks: lorawan.sessions.state,
              ...(downlinks ? { downlinks } : {}),
            }
          : {}),
        ...(jobList.length > 0 ? { jobs: jobList } : {}),
        version,
      });
    },
  );
}
