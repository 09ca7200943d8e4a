/**
 * Device endpoints under `/api/companies/{companyId}/devices`: list (paging, sorting,
 * filters), register, read, lookup by DevEUI for /assign, update/assign to a unit, delete.
 * Thin: parse, call DevicesService, answer.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  DeviceByEuiParamsSchema,
  DeviceCreateSchema,
  DeviceListQuerySchema,
  DevicePageSchema,
  DeviceParamsSchema,
  DeviceSchema,
  DeviceUpdateSchema,
} from '@heizplan/contracts/devices';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyResourceRoutes, companyRouteErrors } from '../../http/company-resource-routes.ts';
import type { DevicesService } from './devices.service.ts';

export async function devicesRoutes(
  fastify: FastifyInstance,
  { devices: service }: { devices: DevicesService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  companyResourceRoutes(fastify, {
    resource: 'devices',
    idParam: 'deviceId',
    schemas: {
      params: DeviceParamsSchema,
      listQuery: DeviceListQuerySchema,
      page: DevicePageSchema,
      item: DeviceSchema,
      create: DeviceCreateSchema,
      update: DeviceUpdateSchema,
    },
    summaries: {
      list: 'List devices (paged, sortable, filter by model, unit or text)',
      create: 'Register a device (LoRaWAN: id = DevEUI, optional AppKey stored encrypted)',
      get: 'Read a device',
      update:
        "Assign to a unit (404 'Unknown unit'), unassign (unitId null), change model, AppKey or JoinEUI",
      remove: 'Delete a device; the last one only after the subscription is cancelled (409)',
    },
    service,
  });

  app.get(
    '/companies/:companyId/devices/by-eui/:devEui',
    {
      schema: {
        tags: ['devices'],
        summary: "Find a device by DevEUI (the /assign lookup); 404 'Device not found.'",
        params: DeviceByEuiParamsSchema,
        response: { 200: DeviceSchema, ...companyRouteErrors },
      },
    },
    async (request) =>
      service.getByEui(requireAuth(request).sub, request.params.companyId, request.params.devEui),
  );
}
