/**
 * `GET /api/companies/{companyId}/units/{unitId}/log?cursor=&limit=` — a unit's heating log;
 * `GET /api/companies/{companyId}/heating-log/export?from=&to=` — the log of a window as a file.
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { HeatingLogExportQuerySchema } from '@heizplan/contracts/exports';
import {
  CompanyParamsSchema,
  LogPageSchema,
  LogQuerySchema,
  UnitParamsSchema,
} from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors } from '../../http/company-resource-routes.ts';
import { EXPORT_MEDIA_TYPES, sendTableExport } from '../../http/table-export.ts';
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
  app.get(
    '/companies/:companyId/heating-log/export',
    {
      schema: {
        tags: ['units'],
        summary:
          'The heating log of [from, to) (at most 366 days; optionally one unit, group or building) as CSV (German Excel or machine format) or XLSX',
        params: CompanyParamsSchema,
        querystring: HeatingLogExportQuerySchema,
        produces: EXPORT_MEDIA_TYPES,
        response: { 200: z.instanceof(Readable), ...companyRouteErrors },
      },
    },
    async (request, reply) => {
      const file = await service.export(requireAuth(request).sub, request.params.companyId, request.query);
      return sendTableExport(reply, file, 'heating-log');
    },
  );
}
