/** `GET /api/health` (issue 2): 200 with db "ok", or 503 with db "down". No login. */

import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { HealthResponseSchema } from '@heizplan/contracts/health';
import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
      const db = await database.ping().then(
        () => 'ok' as const,
        () => 'down' as const,
      );
      return reply
        .code(db === 'ok' ? 200 : 503)
        .send({ status: db === 'ok' ? 'ok' : 'degraded', db, version: config.version });
    },
  );
}
