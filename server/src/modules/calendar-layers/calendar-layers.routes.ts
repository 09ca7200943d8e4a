/**
 * `GET /api/companies/{companyId}/calendar-layers?from=&to=[&buildingId=]`: closures, public and
 * school holidays, own days and bookings in a window, for the events calendar's background
 * (contracts' calendar-layers.ts). Read-only; every member.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CalendarLayerListSchema,
  CalendarLayersParamsSchema,
  CalendarLayersQuerySchema,
} from '@heizplan/contracts/calendar-layers';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import type { CalendarLayersService } from './calendar-layers.service.ts';

export async function calendarLayersRoutes(
  fastify: FastifyInstance,
  { calendarLayers: service }: { calendarLayers: CalendarLayersService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/companies/:companyId/calendar-layers',
    {
      schema: {
        tags: ['calendar-layers'],
        summary:
          'Closures, public and school holidays, own days and bookings overlapping a window of at most 62 days, by start',
        params: CalendarLayersParamsSchema,
        querystring: CalendarLayersQuerySchema,
        response: { 200: CalendarLayerListSchema, ...problems(400, 403, 404) },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );
}
