/**
 * `/api/licenses/*` (spec §7): current and accepted versions of the agreements a company accepts
 * (AVV, licence terms, privacy). The path keeps the spec's name; device licences are billing's.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { CompanyParamsSchema, LicenseCurrentSchema, LicenseRecordSchema } from '@heizplan/contracts/account';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import type { AgreementsService } from './agreements.service.ts';

export async function agreementsRoutes(
  app: FastifyInstance,
  { agreements }: { agreements: AgreementsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['licenses'];

  r.get(
    '/licenses/current',
    {
      schema: {
        tags,
        summary: 'Current agreement versions',
        response: { 200: LicenseCurrentSchema, ...problems(401) },
      },
    },
    async (request) => {
      requireAuth(request);
      return agreements.current();
    },
  );

  r.get(
    '/licenses/:id/',
    {
      schema: {
        tags,
        summary: 'Agreement versions the company accepted',
        params: CompanyParamsSchema,
        response: { 200: LicenseRecordSchema, ...problems(401, 404) },
      },
    },
    async (request) => agreements.record(requireAuth(request).sub, request.params.id),
  );

  r.post(
    '/licenses/:id/',
    {
      schema: {
        tags,
        summary: 'Accept the current agreement versions for the company',
        params: CompanyParamsSchema,
        response: { 200: LicenseRecordSchema, ...problems(401, 403, 404) },
      },
    },
    async (request) => agreements.accept(requireAuth(request).sub, request.params.id),
  );
}
