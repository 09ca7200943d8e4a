/**
 * `POST /api/public/client-errors` (spec §8, §9): the web app's fallback reporter when no Sentry
 * DSN is configured. A browser's uncaught error, unhandled rejection, render error or failed
 * screen chunk is written to the server's log at `warn`, with the request id pino adds, so an
 * operator sees browser errors where they see the server's. Public (errors happen before and
 * without a sign-in) and therefore rate-limited per client IP: 429 problem+json with
 * `Retry-After` once a browser sends more than `CLIENT_ERROR_RATE_LIMIT` a minute.
 */
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { ClientErrorReportSchema } from '@heizplan/contracts/client-errors';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** Reports per client IP and minute; the web app itself sends at most a handful per page. */
export const CLIENT_ERROR_RATE_LIMIT = 30;

export async function clientErrorRoutes(fastify: FastifyInstance) {
  await fastify.register(rateLimit, { global: false });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/public/client-errors',
    {
      config: { public: true },
      preHandler: app.rateLimit({
        max: CLIENT_ERROR_RATE_LIMIT,
        timeWindow: 60_000,
        keyGenerator: (request) => `client-errors:ip:${request.ip}`,
      }),
      schema: {
        tags: ['app'],
        summary: 'Report an error the web app caught in the browser (logged; used when no Sentry DSN is set)',
        security: [],
        body: ClientErrorReportSchema,
        response: { 204: z.null(), 400: ProblemSchema, 429: ProblemSchema },
      },
    },
    async (request, reply) => {
      request.log.warn(
        { clientError: request.body, userAgent: request.headers['user-agent'] },
        'browser error',
      );
      return reply.code(204).send(null);
    },
  );
}
