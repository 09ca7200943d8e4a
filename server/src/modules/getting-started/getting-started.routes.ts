/**
 * `GET /api/companies/{companyId}/getting-started`: the company's getting-started checklist —
 * which steps are done and when the newest uplink arrived.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { GettingStartedSchema } from '@heizplan/contracts/getting-started';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import type { GettingStartedService } from './getting-started.service.ts';

export async function gettingStartedRoutes(
  fastify: FastifyInstance,
  { gettingStarted }: { gettingStarted: GettingStartedService },
) {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/companies/:companyId/getting-started',
    {
      schema: {
        tags: ['getting-started'],
        summary: "The getting-started checklist: which setup steps are done, and the newest uplink's time",
        params: CompanyParamsSchema,
        response: { 200: GettingStartedSchema, ...problems(403, 404) },
      },
    },
    async (request) => gettingStarted.get(requireAuth(request).sub, request.params.companyId),
  );
}
