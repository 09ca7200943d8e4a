/**
 * Building endpoints (decision 0052): under `/api/companies/{companyId}/buildings` list (with
 * each building's number of units), create, read, update and delete, and a building's public
 * holidays of a year; `/api/holiday-regions` lists every federal state with its holiday regions
 * for any signed-in user.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  BuildingInputSchema,
  BuildingListQuerySchema,
  BuildingPageSchema,
  BuildingParamsSchema,
  BuildingSchema,
  BuildingUpdateSchema,
  HolidayListSchema,
  HolidayQuerySchema,
  HolidayRegionsSchema,
} from '@heizplan/contracts/buildings';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import {
  companyResourceRoutes,
  companyRouteErrors as errors,
  problems,
} from '../../http/company-resource-routes.ts';
import type { BuildingsService } from './buildings.service.ts';

const tags = ['buildings'];

export async function buildingsRoutes(
  fastify: FastifyInstance,
  { buildings: service }: { buildings: BuildingsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  companyResourceRoutes(fastify, {
    resource: 'buildings',
    idParam: 'buildingId',
    schemas: {
      params: BuildingParamsSchema,
      listQuery: BuildingListQuerySchema,
      page: BuildingPageSchema,
      item: BuildingSchema,
      create: BuildingInputSchema,
      update: BuildingUpdateSchema,
    },
    summaries: {
      list: 'List buildings (by name, with their number of units)',
      create: 'Create a building (federal state and region for public holidays, floors)',
      get: 'Read a building',
      update: 'Update a building (only the fields given change; units on a removed floor lose it)',
      remove: 'Delete a building (its units stay, without building and floor)',
    },
    service,
  });

  app.get(
    '/companies/:companyId/buildings/:buildingId/holidays',
    {
      schema: {
        tags,
        summary: "Public holidays of the building's federal state and region in a year",
        params: BuildingParamsSchema,
        querystring: HolidayQuerySchema,
        response: { 200: HolidayListSchema, ...errors },
      },
    },
    async (request) =>
      service.holidays(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.query,
      ),
  );

  app.get(
    '/holiday-regions',
    {
      schema: {
        tags,
        summary: 'Every federal state with the regions that have public holidays of their own',
        querystring: HolidayQuerySchema.pick({ lang: true }),
        response: { 200: HolidayRegionsSchema, ...problems(400, 401) },
      },
    },
    async (request) => {
      requireAuth(request);
      return service.regions(request.query.lang);
    },
  );
}
