/**
 * Gateway endpoints (issue 6) under `/api/companies/{companyId}/gateways`: list (paging,
 * sorting, search), register, read, rename / change stats interval, delete. Each answer carries
 * the online state derived from last seen.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyParamsSchema,
  GatewayCreateSchema,
  GatewayListQuerySchema,
  GatewayPageSchema,
  GatewayParamsSchema,
  GatewaySchema,
  GatewayUpdateSchema,
} from '@heizplan/contracts/devices';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { GatewaysService } from './gateways.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const base = '/companies/:companyId/gateways';
const tags = ['gateways'];

export async function gatewaysRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new GatewaysService({ db: fastify.deps.database.db, now: () => new Date() });

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List gateways with their online state (paged, sortable, searchable)',
        params: CompanyParamsSchema,
        querystring: GatewayListQuerySchema,
        response: { 200: GatewayPageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Register a gateway by its EUI',
        params: CompanyParamsSchema,
        body: GatewayCreateSchema,
        response: { 201: GatewaySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.get(
    `${base}/:gatewayId`,
    {
      schema: {
        tags,
        summary: 'Read a gateway',
        params: GatewayParamsSchema,
        response: { 200: GatewaySchema, ...errors },
      },
    },
    async (request) =>
      service.get(requireAuth(request).sub, request.params.companyId, request.params.gatewayId),
  );

  app.patch(
    `${base}/:gatewayId`,
    {
      schema: {
        tags,
        summary: 'Rename a gateway or change its stats interval',
        params: GatewayParamsSchema,
        body: GatewayUpdateSchema,
        response: { 200: GatewaySchema, ...errors },
      },
    },
    async (request) =>
      service.update(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.gatewayId,
        request.body,
      ),
  );

  app.delete(
    `${base}/:gatewayId`,
    {
      schema: {
        tags,
        summary: 'Delete a gateway',
        params: GatewayParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.gatewayId);
      return reply.code(204).send(null);
    },
  );
}
