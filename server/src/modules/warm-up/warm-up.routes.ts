/** `GET /api/companies/{companyId}/units/{unitId}/warm-up` — a unit's learned warm-up model. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { UnitParamsSchema } from '@heizplan/contracts/heating';
import { UnitWarmUpSchema } from '@heizplan/contracts/optimum';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { WarmUpService } from './warm-up.service.ts';

export async function warmUpRoutes(fastify: FastifyInstance, { warmUp: service }: { warmUp: WarmUpService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/companies/:companyId/units/:unitId/warm-up',
    {
      schema: {
        tags: ['units'],
        summary: "The unit's learned warm-up model, its last sessions and the comfort starts of 30 days",
        params: UnitParamsSchema,
        response: { 200: UnitWarmUpSchema, ...errors },
      },
    },
    async (request) => service.get(requireAuth(request).sub, request.params.companyId, request.params.unitId),
  );
}
