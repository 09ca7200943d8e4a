/** `/api/licenses/*` (spec §7, helpers/ACCOUNT_API.md): current and accepted agreement versions. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { CompanyParamsSchema, LicenseCurrentSchema, LicenseRecordSchema } from '@heizplan/contracts/account';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { accountServices, problems } from '../me/account-wiring.ts';

export async function licensesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const licenses = () => accountServices(app).licenses;
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
      return licenses().current();
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
    async (request) => licenses().record(requireAuth(request).sub, request.params.id),
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
    async (request) => licenses().accept(requireAuth(request).sub, request.params.id),
  );
}
