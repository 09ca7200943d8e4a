/**
 * The audit log (decision 0059) under `/api/companies/{companyId}/audit-log`: a page of entries,
 * newest first, and `/export` as CSV. Admins only.
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { AuditExportQuerySchema, AuditPageSchema, AuditQuerySchema } from '@heizplan/contracts/audit';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { AuditService } from './audit.service.ts';

const tags = ['audit-log'];

export async function auditRoutes(fastify: FastifyInstance, { audit: service }: { audit: AuditService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/companies/:companyId/audit-log',
    {
      schema: {
        tags,
        summary: "The company's audit log, newest first: who changed what and when",
        params: CompanyParamsSchema,
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.get(
    '/companies/:companyId/audit-log/export',
    {
      schema: {
        tags,
        summary: 'The matching audit log entries as CSV (comma, ISO times)',
        params: CompanyParamsSchema,
        querystring: AuditExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.instanceof(Readable), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await service.export(requireAuth(request).sub, request.params.companyId, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(csv);
    },
  );
}
