/**
 * Unit endpoints (issue 5) under `/api/companies/{companyId}/units`: list (paging, sorting,
 * `?q=` search), create one, create many (`/bulk`), read, update, delete, manual setpoint,
 * pause and resume. Thin: parse, call UnitsService, answer.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyParamsSchema,
  SetpointChangeRequestSchema,
  UnitBulkCreateSchema,
  UnitCreateSchema,
  UnitListQuerySchema,
  UnitListSchema,
  UnitPageSchema,
  UnitParamsSchema,
  UnitSchema,
  UnitUpdateSchema,
} from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { heatingServiceDeps } from './service-deps.ts';
import { UnitsService } from './units.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const base = '/companies/:companyId/units';
const tags = ['units'];

export async function unitsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new UnitsService(heatingServiceDeps(fastify));

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List units (paged, sortable, searchable)',
        params: CompanyParamsSchema,
        querystring: UnitListQuerySchema,
        response: { 200: UnitPageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a unit',
        params: CompanyParamsSchema,
        body: UnitCreateSchema,
        response: { 201: UnitSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.post(
    `${base}/bulk`,
    {
      schema: {
        tags,
        summary: 'Create many units from a name pattern ("Raum {n}") in one transaction',
        params: CompanyParamsSchema,
        body: UnitBulkCreateSchema,
        response: { 201: UnitListSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        results: await service.createMany(requireAuth(request).sub, request.params.companyId, request.body),
      }),
  );

  app.get(
    `${base}/:unitId`,
    {
      schema: {
        tags,
        summary: 'Read a unit',
        params: UnitParamsSchema,
        response: { 200: UnitSchema, ...errors },
      },
    },
    async (request) => service.get(requireAuth(request).sub, request.params.companyId, request.params.unitId),
  );

  app.patch(
    `${base}/:unitId`,
    {
      schema: {
        tags,
        summary: 'Rename, regroup or set wall control limits',
        params: UnitParamsSchema,
        body: UnitUpdateSchema,
        response: { 200: UnitSchema, ...errors },
      },
    },
    async (request) =>
      service.update(requireAuth(request).sub, request.params.companyId, request.params.unitId, request.body),
  );

  app.delete(
    `${base}/:unitId`,
    {
      schema: {
        tags,
        summary: 'Delete a unit with its plans and log',
        params: UnitParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.unitId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:unitId/setpoint`,
    {
      schema: {
        tags,
        summary: 'Manual setpoint change (logged web_change; holds until the next switch point)',
        params: UnitParamsSchema,
        body: SetpointChangeRequestSchema,
        response: { 200: UnitSchema, ...errors },
      },
    },
    async (request) =>
      service.changeSetpoint(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.unitId,
        request.body.setpoint,
      ),
  );

  app.post(
    `${base}/:unitId/pause`,
    {
      schema: {
        tags,
        summary: 'Pause: hold the frost protection setpoint',
        params: UnitParamsSchema,
        response: { 200: UnitSchema, ...errors },
      },
    },
    async (request) =>
      service.pause(requireAuth(request).sub, request.params.companyId, request.params.unitId),
  );

  app.post(
    `${base}/:unitId/resume`,
    {
      schema: {
        tags,
        summary: 'Resume the plans after a pause',
        params: UnitParamsSchema,
        response: { 200: UnitSchema, ...errors },
      },
    },
    async (request) =>
      service.resume(requireAuth(request).sub, request.params.companyId, request.params.unitId),
  );
}
