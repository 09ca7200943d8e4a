/**
 * Booking feed endpoints under `/api/companies/{companyId}/booking-feeds` (decision 0053): list
 * (of one room with `unitId`, of one building's rooms with `buildingId`), create, read, update
 * and delete; `POST …/{feedId}/sync` fetches the feed now and answers it with its status;
 * `GET …/{feedId}/bookings` lists the next 14 days' bookings. `GET /api/public/demo/bookings.ics`
 * serves the demo company's meeting-room calendar.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  BookingFeedInputSchema,
  BookingFeedListQuerySchema,
  BookingFeedPageSchema,
  BookingFeedParamsSchema,
  BookingFeedSchema,
  BookingFeedUpdateSchema,
  BookingListSchema,
} from '@heizplan/contracts/booking-feeds';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { demoBookingsIcs } from '../../demo/demo-bookings.ts';
import { companyResourceRoutes, companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { BookingFeedsService } from './booking-feeds.service.ts';

const tags = ['booking-feeds'];

export async function bookingFeedsRoutes(
  fastify: FastifyInstance,
  { bookingFeeds: service, now = () => new Date() }: { bookingFeeds: BookingFeedsService; now?: () => Date },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  companyResourceRoutes(fastify, {
    resource: 'booking-feeds',
    idParam: 'feedId',
    schemas: {
      params: BookingFeedParamsSchema,
      listQuery: BookingFeedListQuerySchema,
      page: BookingFeedPageSchema,
      item: BookingFeedSchema,
      create: BookingFeedInputSchema,
      update: BookingFeedUpdateSchema,
    },
    summaries: {
      list: 'List booking feeds (`unitId`: the feeds of one room, as its own or a linked room; `buildingId`: of the rooms in one building)',
      create: 'Create a booking feed (an ICS URL or a CalDAV calendar of a room); fetched within moments',
      get: 'Read a booking feed with its sync status',
      update: 'Update a booking feed (only the fields given change; a new address fetches it anew)',
      remove: 'Delete a booking feed (its bookings stop heating at once)',
    },
    service,
  });

  app.post(
    '/companies/:companyId/booking-feeds/:feedId/sync',
    {
      schema: {
        tags,
        summary: 'Fetch the feed now; answers the feed with its status (a failed fetch shows as stale)',
        params: BookingFeedParamsSchema,
        response: { 200: BookingFeedSchema, ...errors },
      },
    },
    async (request) =>
      service.sync(requireAuth(request).sub, request.params.companyId, request.params.feedId),
  );

  app.get(
    '/companies/:companyId/booking-feeds/:feedId/bookings',
    {
      schema: {
        tags,
        summary: "The feed's bookings of the next 14 days, by start",
        params: BookingFeedParamsSchema,
        response: { 200: BookingListSchema, ...errors },
      },
    },
    async (request) =>
      service.bookings(requireAuth(request).sub, request.params.companyId, request.params.feedId),
  );

  app.get(
    '/public/demo/bookings.ics',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "The demo's meeting-room calendar (iCalendar, bookings relative to now)",
        security: [],
        produces: ['text/calendar'],
        response: { 200: z.string() },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(demoBookingsIcs(now())),
  );
}
