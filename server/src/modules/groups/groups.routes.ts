/**
 * Group endpoints (issue 5) under `/api/companies/{companyId}/groups`: list, create, read,
 * rename, delete, add units (`POST …/{groupId}/units`) and remove one
 * (`DELETE …/{groupId}/units/{unitId}`). Group plans live in plans.routes.ts.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyParamsSchema,
  GroupAssignSchema,
  GroupCreateSchema,
  GroupListQuerySchema,
  GroupPageSchema,
  GroupParamsSchema,
  GroupSchema,
  GroupUpdateSchema,
} from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { heatingServiceDeps } from '../units/service-deps.ts';
import { GroupsService } from './groups.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const base = '/companies/:companyId/groups';
const tags = ['groups'];

export async function groupsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new GroupsService(heatingServiceDeps(fastify));

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List groups',
        params: CompanyParamsSchema,
        querystring: GroupListQuerySchema,
        response: { 200: GroupPageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a group',
        params: CompanyParamsSchema,
        body: GroupCreateSchema,
        response: { 201: GroupSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body.name)),
  );

  app.get(
    `${base}/:groupId`,
    {
      schema: {
        tags,
        summary: 'Read a group',
        params: GroupParamsSchema,
        response: { 200: GroupSchema, ...errors },
      },
    },
    async (request) =>
      service.get(requireAuth(request).sub, request.params.companyId, request.params.groupId),
  );

  app.patch(
    `${base}/:groupId`,
    {
      schema: {
        tags,
        summary: 'Rename a group',
        params: GroupParamsSchema,
        body: GroupUpdateSchema,
        response: { 200: GroupSchema, ...errors },
      },
    },
    async (request) =>
      service.rename(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.groupId,
        request.body.name,
      ),
  );

  app.delete(
    `${base}/:groupId`,
    {
      schema: {
        tags,
        summary: 'Delete a group and its plans (its units stay)',
        params: GroupParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.groupId);
      return reply.code(204).send(null);
    },
  );

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
