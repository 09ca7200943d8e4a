/**
 * Public heating view endpoints (no login): `GET /api/public/heating-view/{token}`,
 * `POST /api/public/heating-view/{token}/setpoint` and the occupant's "Zu warm" / "Zu kalt"
 * `POST /api/public/heating-view/{token}/feedback` (204; decision 0070). All are rate-limited per
 * client IP and per token (feedback counts with the setpoint changes) (429 problem+json with `Retry-After` in seconds), so neither one phone nor one leaked
 * link can hammer the API or the valves. The client IP is the socket's address unless
 * TRUST_PROXY names the proxies in front (config.ts). Several instances count together in the
 * database (http/rate-limit-store.ts).
 */
import rateLimit from '@fastify/rate-limit';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { PublicFeedbackRequestSchema } from '@heizplan/contracts/occupant-feedback';
import { ProblemSchema } from '@heizplan/contracts/problem';
import {
  PublicHeatingViewSchema,
  PublicSetpointRequestSchema,
  PublicTokenParamsSchema,
} from '@heizplan/contracts/public-heating-view';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { rateLimitOptions } from '../../http/rate-limit-store.ts';
import type { PublicHeatingViewService } from './public-heating-view.service.ts';

/** Requests per minute: reads refresh a page every minute; changes are a few taps. */
export const PUBLIC_RATE_LIMITS = {
  read: { perIp: 120, perToken: 240 },
  change: { perIp: 10, perToken: 20 },
} as const;

const tags = ['public'];
const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema, 429: ProblemSchema };
const tokenOf = (request: FastifyRequest) => (request.params as { token?: string }).token ?? '';

export interface PublicHeatingViewRoutesOptions {
  publicHeatingView: PublicHeatingViewService;
  /** Where the rate limits count (the database, shared by every instance). */
  config: Config;
  db: Db;
}

export async function publicHeatingViewRoutes(
  fastify: FastifyInstance,
  { publicHeatingView: service, config, db }: PublicHeatingViewRoutesOptions,
) {
  await fastify.register(rateLimit, rateLimitOptions(config, db, 'public'));
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limits = (kind: keyof typeof PUBLIC_RATE_LIMITS) => [
    app.rateLimit({
      max: PUBLIC_RATE_LIMITS[kind].perIp,
      timeWindow: 60_000,
      keyGenerator: (request) => `${kind}:ip:${request.ip}`,
    }),
    app.rateLimit({
      max: PUBLIC_RATE_LIMITS[kind].perToken,
      timeWindow: 60_000,
      keyGenerator: (request) => `${kind}:token:${tokenOf(request)}`,
    }),
  ];

  app.get(
    '/public/heating-view/:token',
    {
      config: { public: true },
      preHandler: limits('read'),
      schema: {
        tags,
        summary: "A room's temperatures for its occupant (no login; 404 for unknown or revoked tokens)",
        security: [],
        params: PublicTokenParamsSchema,
        response: { 200: PublicHeatingViewSchema, ...errors },
      },
    },
    async (request) => service.view(request.params.token),
  );

  app.post(
    '/public/heating-view/:token/setpoint',
    {
      config: { public: true },
      preHandler: limits('change'),
      schema: {
        tags,
        summary: "The occupant's setpoint change (0.5 °C steps within the limits; logged qr_change)",
        security: [],
        params: PublicTokenParamsSchema,
        body: PublicSetpointRequestSchema,
        response: { 200: PublicHeatingViewSchema, ...errors },
      },
    },
    async (request) => service.changeSetpoint(request.params.token, request.body.setpoint),
  );

  app.post(
    '/public/heating-view/:token/feedback',
    {
      config: { public: true },
      // One budget with the setpoint changes: a press is a change as far as abuse goes.
      preHandler: limits('change'),
      schema: {
        tags,
        summary:
          'The occupant\'s "too warm" / "too cold", recorded with the room\'s temperature, setpoint and trend',
        security: [],
        params: PublicTokenParamsSchema,
        body: PublicFeedbackRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.recordFeedback(request.params.token, request.body.feeling);
      return reply.code(204).send(null);
    },
  );
}
