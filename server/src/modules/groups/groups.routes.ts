/**
 * Group endpoints under `/api/companies/{companyId}/groups`: list, create, read,
 * rename, delete, add units (`POST …/{groupId}/units`) and remove one
 * (`DELETE …/{groupId}/units/{unitId}`). Group plans live in plans.routes.ts.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  GroupAssignSchema,
  GroupCreateSchema,
  GroupListQuerySchema,
  GroupPageSchema,
  GroupParamsSchema,
  GroupSchema,
  GroupUpdateSchema,
} from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyResourceRoutes, companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { GroupsService } from './groups.service.ts';

const base = '/companies/:companyId/groups';
const tags = ['groups'];

export async function groupsRoutes(fastify: FastifyInstance, { groups: service }: { groups: GroupsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  companyResourceRoutes(fastify, {
    resource: 'groups',
    idParam: 'groupId',
    schemas: {
      params: GroupParamsSchema,
      listQuery: GroupListQuerySchema,
      page: GroupPageSchema,
      item: GroupSchema,
      create: GroupCreateSchema,
      update: GroupUpdateSchema,
    },
    summaries: {
      list: 'List groups',
      create: 'Create a group',
      get: 'Read a group',
      update: 'Rename a group',
      remove: 'Delete a group and its plans (its units stay)',
    },
    service,
  });

  app.post(
    `${base}/:groupId/units`,
    {
      schema: {
        tags,
        summary: 'Move units into the group',
        params: GroupParamsSchema,
        body: GroupAssignSchema,
        response: { 200: GroupSchema, ...errors },
      },
    },
    async (request) =>
      service.assign(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.groupId,
        request.body.unitIds,
      ),
  );

  app.delete(
    `${base}/:groupId/units/:unitId`,
    {
      schema: {
        tags,
        summary: 'Take a unit out of the group',
        params: GroupParamsSchema.extend({ unitId: z.uuid() }),
        response: { 200: GroupSchema, ...errors },
      },
    },
    async (request) =>
      service.unassign(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.groupId,
        request.params.unitId,
      ),
  );
}
