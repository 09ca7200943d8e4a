/**
 * Device profile endpoints (decision 0062) under `/api/companies/{companyId}/device-profiles`:
 * list (with the configurable models and sync counts), read one, create, change, delete.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  DeviceProfileInputSchema,
  DeviceProfileListSchema,
  DeviceProfileParamsSchema,
  DeviceProfilePatchSchema,
  DeviceProfileSchema,
} from '@heizplan/contracts/device-profiles';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { DeviceProfilesService } from './device-profiles.service.ts';

const tags = ['device-profiles'];

export async function deviceProfilesRoutes(
  fastify: FastifyInstance,
  { deviceProfiles: service }: { deviceProfiles: DeviceProfilesService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/companies/:companyId/device-profiles',
    {
      schema: {
        tags,
        summary: 'Device profiles with where they apply and how many devices report them',
        params: CompanyParamsSchema,
        response: { 200: DeviceProfileListSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId),
  );

  app.post(
    '/companies/:companyId/device-profiles',
    {
      schema: {
        tags,
        summary: 'Create a device profile for a model and say where it applies',
        params: CompanyParamsSchema,
        body: DeviceProfileInputSchema,
        response: { 201: DeviceProfileSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.get(
    '/companies/:companyId/device-profiles/:profileId',
    {
      schema: {
        tags,
        summary: 'One device profile with where it applies and how many devices report it',
        params: DeviceProfileParamsSchema,
        response: { 200: DeviceProfileSchema, ...errors },
      },
    },
    async (request) =>
      service.get(requireAuth(request).sub, request.params.companyId, request.params.profileId),
  );

  app.patch(
    '/companies/:companyId/device-profiles/:profileId',
    {
      schema: {
        tags,
        summary: 'Change a device profile (only the fields given)',
        params: DeviceProfileParamsSchema,
        body: DeviceProfilePatchSchema,
        response: { 200: DeviceProfileSchema, ...errors },
      },
    },
    async (request) =>
      service.update(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.profileId,
        request.body,
      ),
  );

  app.delete(
    '/companies/:companyId/device-profiles/:profileId',
    {
      schema: {
        tags,
        summary: 'Delete a device profile; its devices follow the next less specific one',
        params: DeviceProfileParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.profileId);
      return reply.code(204).send(null);
    },
  );
}
