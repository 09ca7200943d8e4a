/**
 * Event endpoints under `/api/companies/{companyId}/events`: list (filters, paging,
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
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyResourceRoutes, companyRouteErrors } from '../../http/company-resource-routes.ts';
import type { EventsService } from './events.service.ts';

export async function eventsRoutes(fastify: FastifyInstance, { events: service }: { events: EventsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  companyResourceRoutes(fastify, {
    resource: 'events',
    idParam: 'eventId',
    schemas: {
      params: EventParamsSchema,
      listQuery: EventListQuerySchema,
      page: HeatingEventPageSchema,
      item: HeatingEventSchema,
      create: EventInputSchema,
      update: EventUpdateSchema,
    },
    summaries: {
      list: 'List events (filter by unit, past, open-ended; `from`/`to` for a calendar range)',
      create: 'Create an event',
      get: 'Read an event',
      update: 'Update an event (a running one can only be shortened; a past one is read-only)',
      remove: 'Delete an event (a running one ends now)',
    },
    service,
  });

  app.post(
    '/companies/:companyId/events/:eventId/end',
    {
      schema: {
        tags: ['events'],
        summary: 'End a running event now',
        params: EventParamsSchema,
        response: { 200: HeatingEventSchema, ...companyRouteErrors },
      },
    },
    async (request) =>
      service.endNow(requireAuth(request).sub, request.params.companyId, request.params.eventId),
  );
}
