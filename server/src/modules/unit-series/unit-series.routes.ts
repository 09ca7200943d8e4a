/** `GET /api/companies/{companyId}/units/{unitId}/series?range=48h|14d` — a unit's graph data. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { UnitParamsSchema } from '@heizplan/contracts/heating';
import { SeriesQuerySchema, UnitSeriesSchema } from '@heizplan/contracts/unit-series';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { UnitSeriesService } from './unit-series.service.ts';

export async function unitSeriesRoutes(
  fastify: FastifyInstance,
  { unitSeries: service }: { unitSeries: UnitSeriesService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/companies/:companyId/units/:unitId/series',
    {
      schema: {
        tags: ['units'],
        summary: 'Room, supply temperature and valve opening in ≤ 1000 buckets, and the setpoint steps',
        params: UnitParamsSchema,
        querystring: SeriesQuerySchema,
        response: { 200: UnitSeriesSchema, ...errors },
      },
    },
    async (request) =>
      service.get(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.unitId,
        request.query.range,
      ),
  );
}
