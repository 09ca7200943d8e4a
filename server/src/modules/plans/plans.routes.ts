/**
 * Heating plan endpoints (issue 5): list/create on a unit (`…/units/{unitId}/plans`) or a group
 * (`…/groups/{groupId}/plans`), read/update/delete by id (`…/plans/{planId}`), and the 7-day
 * preview of a unit (`GET …/units/{unitId}/preview?days=7`, or `POST` with a draft plan).
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  GroupParamsSchema,
  PlanInputSchema,
  PlanListSchema,
  PlanParamsSchema,
  PlanSchema,
  PlanUpdateSchema,
  PreviewQuerySchema,
  PreviewRequestSchema,
  PreviewSchema,
  UnitParamsSchema,
} from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { heatingServiceDeps } from '../units/service-deps.ts';
import { PlansService } from './plans.service.ts';
import { PreviewService } from './preview.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const tags = ['plans'];

export async function plansRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = heatingServiceDeps(fastify);
  const plans = new PlansService(deps);
  const previews = new PreviewService(deps);

  app.get(
    '/companies/:companyId/units/:unitId/plans',
    {
      schema: {
        tags,
        summary: "A unit's own plans",
        params: UnitParamsSchema,
        response: { 200: PlanListSchema, ...errors },
      },
    },
    async (request) => ({
      results: await plans.list(requireAuth(request).sub, request.params.companyId, {
        unitId: request.params.unitId,
      }),
    }),
  );

  app.post(
    '/companies/:companyId/units/:unitId/plans',
    {
      schema: {
        tags,
        summary: 'Add a plan to a unit',
        params: UnitParamsSchema,
        body: PlanInputSchema,
        response: { 201: PlanSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await plans.create(
            requireAuth(request).sub,
            request.params.companyId,
            { unitId: request.params.unitId },
            request.body,
          ),
        ),
  );

  app.get(
    '/companies/:companyId/groups/:groupId/plans',
    {
      schema: {
        tags,
        summary: "A group's plans",
        params: GroupParamsSchema,
        response: { 200: PlanListSchema, ...errors },
      },
    },
    async (request) => ({
      results: await plans.list(requireAuth(request).sub, request.params.companyId, {
        groupId: request.params.groupId,
      }),
    }),
  );

  app.post(
    '/companies/:companyId/groups/:groupId/plans',
    {
      schema: {
        tags,
        summary: 'Add a plan to a group (409 while a unit of the group has its own active plan)',
        params: GroupParamsSchema,
        body: PlanInputSchema,
        response: { 201: PlanSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await plans.create(
            requireAuth(request).sub,
            request.params.companyId,
            { groupId: request.params.groupId },
            request.body,
          ),
        ),
  );

  app.get(
    '/companies/:companyId/plans/:planId',
    {
      schema: {
        tags,
        summary: 'Read a plan',
        params: PlanParamsSchema,
        response: { 200: PlanSchema, ...errors },
      },
    },
    async (request) => plans.get(requireAuth(request).sub, request.params.companyId, request.params.planId),
  );

  app.patch(
    '/companies/:companyId/plans/:planId',
    {
      schema: {
        tags,
        summary: 'Change a plan',
        params: PlanParamsSchema,
        body: PlanUpdateSchema,
        response: { 200: PlanSchema, ...errors },
      },
    },
    async (request) =>
      plans.update(requireAuth(request).sub, request.params.companyId, request.params.planId, request.body),
  );

  app.delete(
    '/companies/:companyId/plans/:planId',
    {
      schema: {
        tags,
        summary: 'Delete a plan',
        params: PlanParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await plans.remove(requireAuth(request).sub, request.params.companyId, request.params.planId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/companies/:companyId/units/:unitId/preview',
    {
      schema: {
        tags,
        summary: 'Setpoint curve of the next days from the stored plans',
        params: UnitParamsSchema,
        querystring: PreviewQuerySchema,
        response: { 200: PreviewSchema, ...errors },
      },
    },
    async (request) =>
      previews.preview(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.unitId,
        request.query.days,
      ),
  );

  app.post(
    '/companies/:companyId/units/:unitId/preview',
    {
      schema: {
        tags,
        summary: 'Setpoint curve with a draft plan swapped in (nothing is saved)',
        params: UnitParamsSchema,
        body: PreviewRequestSchema,
        response: { 200: PreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { days, ...draft } = request.body;
      return previews.preview(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.unitId,
        days,
        draft,
      );
    },
  );
}
