/**
 * Building endpoints (decision 0052): under `/api/companies/{companyId}/buildings` list (with
 * each building's number of units), create, read, update and delete, and a building's public
 * and school holidays of a year, and the company's own days of a building (list, add, delete,
 * import from an ICS file); `/api/holiday-regions` lists every federal state with its holiday regions
 * for any signed-in user. `GET /api/public/demo/weather` is the demo's stand-in of Bright Sky's
 * `/weather` (decision 0057): a recorded DWD winter replayed at the dates asked.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  BuildingDayImportResultSchema,
  BuildingDayImportSchema,
  BuildingDayInputSchema,
  BuildingDayListSchema,
  BuildingDayParamsSchema,
  BuildingDayQuerySchema,
  BuildingDaySchema,
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
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { DEMO_WEATHER_MAX_DAYS, demoWeather } from '../../demo/demo-weather.ts';
import {
  companyResourceRoutes,
  companyRouteErrors as errors,
  problems,
} from '../../http/company-resource-routes.ts';
import type { BuildingDaysService } from './building-days.service.ts';
import type { BuildingsService } from './buildings.service.ts';

const tags = ['buildings'];

export async function buildingsRoutes(
  fastify: FastifyInstance,
  {
    buildings: service,
    buildingDays: days,
    now = () => new Date(),
  }: { buildings: BuildingsService; buildingDays: BuildingDaysService; now?: () => Date },
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

  const dayErrors = { ...errors, ...problems(409) };
  app.get(
    '/companies/:companyId/buildings/:buildingId/days',
    {
      schema: {
        tags,
        summary: "The company's own days of the building in a year (bridge days, movable days off)",
        params: BuildingParamsSchema,
        querystring: BuildingDayQuerySchema,
        response: { 200: BuildingDayListSchema, ...errors },
      },
    },
    async (request) =>
      days.list(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.query.year,
      ),
  );

  app.post(
    '/companies/:companyId/buildings/:buildingId/days',
    {
      schema: {
        tags,
        summary: 'Add an own day to the building (a whole local day that counts like a public holiday)',
        params: BuildingParamsSchema,
        body: BuildingDayInputSchema,
        response: { 201: BuildingDaySchema, ...dayErrors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await days.add(
            requireAuth(request).sub,
            request.params.companyId,
            request.params.buildingId,
            request.body,
          ),
        ),
  );

  app.post(
    '/companies/:companyId/buildings/:buildingId/days/import',
    {
      schema: {
        tags,
        summary: "Add the days of an ICS file's events as own days (dates the building has are skipped)",
        params: BuildingParamsSchema,
        body: BuildingDayImportSchema,
        response: { 200: BuildingDayImportResultSchema, ...errors },
      },
    },
    async (request) =>
      days.import(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.body.ics,
      ),
  );

  app.delete(
    '/companies/:companyId/buildings/:buildingId/days/:dayId',
    {
      schema: {
        tags,
        summary: 'Delete an own day of the building',
        params: BuildingDayParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await days.remove(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.params.dayId,
      );
      return reply.code(204).send(null);
    },
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

  app.get(
    '/public/demo/weather',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "The demo's weather: Bright Sky's /weather answer from a recorded DWD winter replayed",
        security: [],
        querystring: DemoWeatherQuerySchema,
        response: { 200: DemoWeatherSchema, ...problems(400) },
      },
    },
    async (request, reply) => {
      const { date, last_date: lastDate } = request.query;
      const from = new Date(date);
      const to = lastDate ? new Date(lastDate) : new Date(from.getTime() + DAY_MS);
      return reply.header('cache-control', 'no-store').send(demoWeather(from, to, now()));
    },
  );
}

const DAY_MS = 86_400_000;

/** Bright Sky's query: a point and a range of at most 31 days (`last_date` default: a day after `date`). */
const DemoWeatherQuerySchema = z
  .object({
    lat: z.coerce.number().min(-90).max(90),
    lon: z.coerce.number().min(-180).max(180),
    date: z.iso.datetime({ offset: true }).or(z.iso.date()),
    last_date: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    tz: z.string().max(64).optional(),
  })
  .refine(
    (q) => {
      const span = (q.last_date ? Date.parse(q.last_date) : Date.parse(q.date) + DAY_MS) - Date.parse(q.date);
      return span > 0 && span <= DEMO_WEATHER_MAX_DAYS * DAY_MS;
    },
    {
      message: `last_date must be after date and at most ${DEMO_WEATHER_MAX_DAYS} days later`,
      path: ['last_date'],
    },
  );

const DemoWeatherSchema = z.object({
  weather: z.array(z.object({ timestamp: z.string(), source_id: z.number(), temperature: z.number() })),
  sources: z.array(z.object({ id: z.number(), observation_type: z.string() }).loose()),
});
