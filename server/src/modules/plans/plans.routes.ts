/**
 * Heating plan endpoints: list/create on a unit (`…/units/{unitId}/plans`) or a group
 * (`…/groups/{groupId}/plans`), read/update/delete by id (`…/plans/{planId}`), and the 7-day
 * preview of a unit (`GET …/units/{unitId}/preview?days=7`, or `POST` with a draft plan), and every
 * plan of the company as a file (`GET …/plans/export`, decision 0060).
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { PlanExportQuerySchema } from '@heizplan/contracts/exports';
import {
  CompanyParamsSchema,
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
import { isEmptyPatch } from '../../http/company-resource-routes.ts';
import { EXPORT_MEDIA_TYPES, sendTableExport } from '../../http/table-export.ts';
import type { PlansService } from './plans.service.ts';
import type { PreviewService } from './preview.service.ts';

const errors = { 400: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const tags = ['plans'];

export async function plansRoutes(
  fastify: FastifyInstance,
  { plans, previews }: { plans: PlansService; previews: PreviewService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // A plan belongs to a unit or to a group; both owners get the same two routes.
  const owners = [
    {
      path: 'units/:unitId',
      params: UnitParamsSchema,
      owner: (p: { unitId?: string }) => ({ unitId: p.unitId as string }),
      summaries: { list: "A unit's own plans", create: 'Add a plan to a unit' },
    },
    {
      path: 'groups/:groupId',
      params: GroupParamsSchema,
      owner: (p: { groupId?: string }) => ({ groupId: p.groupId as string }),
      summaries: {
        list: "A group's plans",
        create: 'Add a plan to a group (409 while a unit of the group has its own active plan)',
      },
    },
  ];
  for (const { path, params, owner, summaries } of owners) {
    app.get(
      `/companies/:companyId/${path}/plans`,
      { schema: { tags, summary: summaries.list, params, response: { 200: PlanListSchema, ...errors } } },
      async (request) => ({
        results: await plans.list(requireAuth(request).sub, request.params.companyId, owner(request.params)),
      }),
    );
    app.post(
      `/companies/:companyId/${path}/plans`,
      {
        schema: {
          tags,
          summary: summaries.create,
          params,
          body: PlanInputSchema,
          response: { 201: PlanSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { sub } = requireAuth(request);
        const plan = await plans.create(sub, request.params.companyId, owner(request.params), request.body);
        return reply.code(201).send(plan);
      },
    );
  }

  app.get(
    '/companies/:companyId/plans/export',
    {
      schema: {
        tags,
        summary:
          'Every heating plan of the company (unit and group plans), one row per switch point, as CSV (German Excel or machine format) or XLSX',
        params: CompanyParamsSchema,
        querystring: PlanExportQuerySchema,
        produces: EXPORT_MEDIA_TYPES,
        response: { 200: z.instanceof(Readable), ...errors },
      },
    },
    async (request, reply) => {
      const file = await plans.export(requireAuth(request).sub, request.params.companyId, request.query);
      return sendTableExport(reply, file, 'plans');
    },
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
    async (request) => {
      const { sub } = requireAuth(request);
      const { companyId, planId } = request.params;
      return isEmptyPatch(request.body)
        ? plans.get(sub, companyId, planId)
        : plans.update(sub, companyId, planId, request.body);
    },
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
        summary: 'Setpoint curve of the next days (or from `from`, within two years) from the stored plans',
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
        request.query,
      ),
  );

  app.post(
    '/companies/:companyId/units/:unitId/preview',
    {
      // A draft is evaluated, nothing is saved: no audit entry.
      config: { audit: false },
      schema: {
        tags,
        summary: 'Setpoint curve with a draft plan swapped in (nothing is saved)',
        params: UnitParamsSchema,
        body: PreviewRequestSchema,
        response: { 200: PreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { days, from, ...draft } = request.body;
      return previews.preview(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.unitId,
        { days, from },
        draft,
      );
    },
  );
}
