/**
 * Device endpoints under `/api/companies/{companyId}/devices`: list (paging, sorting,
 * filters), register, read, lookup by DevEUI for /assign, update/assign to a unit, delete, and
 * the filtered list as CSV (`/export`, decision 0060).
 * Thin: parse, call DevicesService, answer.
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  DeviceByEuiParamsSchema,
  DeviceCreateSchema,
  DeviceExportQuerySchema,
  DeviceListQuerySchema,
  DevicePageSchema,
  DeviceParamsSchema,
  DeviceSchema,
  DeviceUpdateSchema,
} from '@heizplan/contracts/devices';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyResourceRoutes, companyRouteErrors } from '../../http/company-resource-routes.ts';
import { EXPORT_MEDIA_TYPES, sendTableExport } from '../../http/table-export.ts';
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
    '/companies/:companyId/devices/export',
    {
      schema: {
        tags: ['devices'],
        summary:
          "The devices the filters match as CSV (German Excel or machine format), XLSX or a network server's import CSV (The Things Stack, ChirpStack v4), never an AppKey",
        params: CompanyParamsSchema,
        querystring: DeviceExportQuerySchema,
        produces: EXPORT_MEDIA_TYPES,
        response: { 200: z.instanceof(Readable), ...companyRouteErrors },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const file = await service.export(requireAuth(request).sub, request.params.companyId, request.query);
      // A network server's file says whose it is; the list formats are just the devices.
      return sendTableExport(
        reply,
        file,
        format === 'tts' || format === 'chirpstack' ? `devices-${format}` : 'devices',
      );
    },
  );

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
