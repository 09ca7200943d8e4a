/**
 * `GET /api/companies/{companyId}/units/{unitId}/feedback?from=&to=` — the occupants' "Zu warm" /
 * "Zu kalt" of a room in `[from, to)` (ISO instants, at most 366 days), for every member of the
 * company. The occupants' own endpoint is the public heating view's
 * (`POST /api/public/heating-view/{token}/feedback`).
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { UnitParamsSchema } from '@heizplan/contracts/heating';
import { UnitFeedbackQuerySchema, UnitFeedbackSchema } from '@heizplan/contracts/occupant-feedback';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { OccupantFeedbackService } from './occupant-feedback.service.ts';

export async function occupantFeedbackRoutes(
  fastify: FastifyInstance,
  { occupantFeedback: service }: { occupantFeedback: OccupantFeedbackService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/companies/:companyId/units/:unitId/feedback',
    {
      schema: {
        tags: ['units'],
        summary: "The occupants' feedback (too warm / too cold) of a room in a period, newest first",
        params: UnitParamsSchema,
        querystring: UnitFeedbackQuerySchema,
        response: { 200: UnitFeedbackSchema, ...errors },
      },
    },
    async (request) =>
      service.list(requireAuth(request).sub, request.params.companyId, request.params.unitId, request.query),
  );
}
