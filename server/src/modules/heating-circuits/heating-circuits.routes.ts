/**
 * Heating circuit endpoints under `/api/companies/{companyId}/heating-circuits`: list (per
 * building), create, read, change, delete — `…/{circuitId}/readings?from&to`, the controller's
 * 5-minute steps for the chart, and `…/{circuitId}/writes?limit`, its writes to the heat
 * generator in mode `on`, newest first.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CircuitReadingsQuerySchema,
  CircuitReadingsSchema,
  CircuitWritesQuerySchema,
  CircuitWritesSchema,
  HeatingCircuitCreateSchema,
  HeatingCircuitListQuerySchema,
  HeatingCircuitPageSchema,
  HeatingCircuitParamsSchema,
  HeatingCircuitSchema,
  HeatingCircuitUpdateSchema,
} from '@heizplan/contracts/heating-circuits';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyResourceRoutes, companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { HeatingCircuitsService } from './heating-circuits.service.ts';

export async function heatingCircuitsRoutes(
  fastify: FastifyInstance,
  { heatingCircuits: service }: { heatingCircuits: HeatingCircuitsService },
) {
  companyResourceRoutes(fastify, {
    resource: 'heating-circuits',
    idParam: 'circuitId',
    schemas: {
      params: HeatingCircuitParamsSchema,
      listQuery: HeatingCircuitListQuerySchema,
      page: HeatingCircuitPageSchema,
      item: HeatingCircuitSchema,
      create: HeatingCircuitCreateSchema,
      update: HeatingCircuitUpdateSchema,
    },
    summaries: {
      list: 'List heating circuits with their last step (optionally of one building)',
      create: 'Create a heating circuit with its rooms, heat generator and heating curve',
      get: 'Read a heating circuit with its last step and the rooms holding the supply temperature up',
      update: 'Change a heating circuit (only the fields given; unitIds replaces its rooms)',
      remove: 'Delete a heating circuit',
    },
    service,
  });
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/companies/:companyId/heating-circuits/:circuitId/readings',
    {
      schema: {
        tags: ['heating-circuits'],
        summary:
          'The circuit’s 5-minute steps: outdoor, heating curve and recommended supply temperature, demand',
        params: HeatingCircuitParamsSchema,
        querystring: CircuitReadingsQuerySchema,
        response: { 200: CircuitReadingsSchema, ...errors },
      },
    },
    async (request) =>
      service.readings(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.circuitId,
        new Date(request.query.from),
        new Date(request.query.to),
      ),
  );
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/companies/:companyId/heating-circuits/:circuitId/writes',
    {
      schema: {
        tags: ['heating-circuits'],
        summary:
          'The circuit’s writes to its heat generator, newest first: value, result, read-back and override',
        params: HeatingCircuitParamsSchema,
        querystring: CircuitWritesQuerySchema,
        response: { 200: CircuitWritesSchema, ...errors },
      },
    },
    async (request) =>
      service.writes(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.circuitId,
        request.query.limit,
      ),
  );
}
