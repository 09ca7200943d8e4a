/** `GET /api/companies/{companyId}/units/{unitId}/log?cursor=&limit=` — a unit's heating log. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { LogPageSchema, LogQuerySchema, UnitParamsSchema } from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import type { HeatingLogService } from './heating-log.service.ts';

export async function heatingLogRoutes(
  fastify: FastifyInstance,
  { heatingLog: service }: { heatingLog: HeatingLogService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/companies/:companyId/units/:unitId/log',
    {
      schema: {
        tags: ['units'],
        summary: 'Heating log of a unit, newest first (cursor pagination)',
        params: UnitParamsSchema,
        querystring: LogQuerySchema,
        response: { 200: LogPageSchema, 400: ProblemSchema, 404: ProblemSchema },
      },
    },
    async (request) =>
      service.page(requireAuth(request).sub, request.params.companyId, request.params.unitId, request.query),
  );
}
