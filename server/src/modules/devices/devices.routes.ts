/**
 * Device endpoints (issue 6) under `/api/companies/{companyId}/devices`: list (paging, sorting,
 * filters), register, read, lookup by DevEUI for /assign, update/assign to a unit, delete.
 * Thin: parse, call DevicesService, answer.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyParamsSchema,
  DeviceByEuiParamsSchema,
  DeviceCreateSchema,
  DeviceListQuerySchema,
  DevicePageSchema,
  DeviceParamsSchema,
  DeviceSchema,
  DeviceUpdateSchema,
} from '@heizplan/contracts/devices';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { createAppKeyCipher, loadDeviceKey } from './app-key-cipher.ts';
import { defaultBillingPolicy } from './billing-policy.ts';
import { DevicesService } from './devices.service.ts';

const errors = { 400: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema };
const base = '/companies/:companyId/devices';
const tags = ['devices'];

export async function devicesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database, billingPolicy } = fastify.deps;
  let cipher: ReturnType<typeof createAppKeyCipher> | undefined;
  const service = new DevicesService({
    db: database.db,
    cipher: async () => {
      cipher ??= createAppKeyCipher(await loadDeviceKey(config));
      return cipher;
    },
    billing: billingPolicy ?? defaultBillingPolicy(database.db),
  });

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List devices (paged, sortable, filter by model, unit or text)',
        params: CompanyParamsSchema,
        querystring: DeviceListQuerySchema,
        response: { 200: DevicePageSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Register a device (LoRaWAN: id = DevEUI, optional AppKey stored encrypted)',
        params: CompanyParamsSchema,
        body: DeviceCreateSchema,
        response: { 201: DeviceSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.get(
    `${base}/by-eui/:devEui`,
    {
      schema: {
        tags,
        summary: "Find a device by DevEUI (the /assign lookup); 404 'Device not found.'",
        params: DeviceByEuiParamsSchema,
        response: { 200: DeviceSchema, ...errors },
      },
    },
    async (request) =>
      service.getByEui(requireAuth(request).sub, request.params.companyId, request.params.devEui),
  );

  app.get(
    `${base}/:deviceId`,
    {
      schema: {
        tags,
        summary: 'Read a device',
        params: DeviceParamsSchema,
        response: { 200: DeviceSchema, ...errors },
      },
    },
    async (request) =>
      service.get(requireAuth(request).sub, request.params.companyId, request.params.deviceId),
  );

  app.patch(
    `${base}/:deviceId`,
    {
      schema: {
        tags,
        summary:
          "Assign to a unit (404 'Unknown unit'), unassign (unitId null), change model, AppKey or JoinEUI",
        params: DeviceParamsSchema,
        body: DeviceUpdateSchema,
        response: { 200: DeviceSchema, ...errors },
      },
    },
    async (request) =>
      service.update(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.deviceId,
        request.body,
      ),
  );

  app.delete(
    `${base}/:deviceId`,
    {
      schema: {
        tags,
        summary: 'Delete a device; the last one only after the subscription is cancelled (409)',
        params: DeviceParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, request.params.companyId, request.params.deviceId);
      return reply.code(204).send(null);
    },
  );
}
