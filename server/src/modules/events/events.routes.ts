/**
 * Event endpoints (issue 8) under `/api/companies/{companyId}/events`: list (filters, paging,
 * calendar range), create, read, update, end now (`POST …/{eventId}/end`) and delete.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  EventInputSchema,
  EventListQuerySchema,
  EventParamsSchema,
  EventUpdateSchema,
  HeatingEventPageSchema,
  HeatingEventSchema,
} from '@heizplan/contracts/events';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { heatingServiceDeps } from '../units/service-deps.ts';
import { EventsService } from './events.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const base = '/companies/:companyId/events';
const tags = ['events'];

export async function eventsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new EventsService(heatingServiceDeps(fastify));

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List events (filter by unit, past, open-ended; `from`/`to` for a calendar range)',
        params: CompanyParamsSchema,
        querystring: EventListQuerySchema,
        response: { 200: HeatingEventPageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create an event',
        params: CompanyParamsSchema,
        body: EventInputSchema,
        response: { 201: HeatingEventSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.get(
    `${base}/:eventId`,
    {
      schema: {
        tags,
        summary: 'Read an event',
        params: EventParamsSchema,
        response: { 200: HeatingEventSchema, ...errors },
      },
    },
    async (request) =>
      service.get(requireAuth(request).sub, request.params.companyId, request.params.eventId),
  );

  app.patch(
    `${base}/:eventId`,
    {
      schema: {
        tags,
        summary: 'Update an event (a running one can only be shortened; a past one is read-only)',
        params: EventParamsSchema,
        body: EventUpdateSchema,
        response: { 200: HeatingEventSchema, ...errors },
      },
    },
    async (request) =>
      service.update(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.eventId,
        request.body,
      ),
  );

  app.post(
    `${base}/:eventId/end`,
    {
      schema: {
        tags,
        summary: 'End a running event now',
        params: EventParamsSchema,
        response: { 200: HeatingEventSchema, ...errors },
      },
    },
    async (request) =>
      service.endNow(requireAuth(request).sub, request.params.companyId, request.params.eventId),
  );

  app.delete(
    `${base}/:eventId`,
    {
      schema: {
        tags,
        summary: 'Delete an event (a running one ends now)',
        params: EventParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.eventId);
      return reply.code(204).send(null);
    },
  );
}
