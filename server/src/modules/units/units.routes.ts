/**
 * Unit endpoints under `/api/companies/{companyId}/units`: list (paging, sorting,
 * `?q=` search), create one, create many (`/bulk`), read, update, delete, change or delete many
 * at once (`/bulk-update`, `/bulk-delete`: the rooms list's bulk edit, all or nothing), manual
 * setpoint, pause and resume, and the filtered list as CSV (`/export`, decision 0060). Thin:
 * parse, call UnitsService, answer.
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyParamsSchema,
  SetpointChangeRequestSchema,
  UnitBulkCreateSchema,
  UnitBulkDeleteSchema,
  UnitBulkResultSchema,
  UnitBulkUpdateSchema,
  UnitCreateSchema,
  UnitExportQuerySchema,
  UnitListQuerySchema,
  UnitListSchema,
  UnitPageSchema,
  UnitParamsSchema,
  UnitSchema,
  UnitUpdateSchema,
} from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import type { Db } from '../../db/client.ts';
import { companyResourceRoutes, companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import { EXPORT_MEDIA_TYPES, sendTableExport } from '../../http/table-export.ts';
import type { UnitsService } from './units.service.ts';
import { exportUnits } from './units-export.ts';

const base = '/companies/:companyId/units';
const tags = ['units'];

export async function unitsRoutes(
  fastify: FastifyInstance,
  { units: service, db }: { units: UnitsService; db: Db },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${base}/export`,
    {
      schema: {
        tags,
        summary: 'The units the filters match as CSV (German Excel or machine format) or XLSX',
        params: CompanyParamsSchema,
        querystring: UnitExportQuerySchema,
        produces: EXPORT_MEDIA_TYPES,
        response: { 200: z.instanceof(Readable), ...errors },
      },
    },
    async (request, reply) => {
      const file = await exportUnits(
        db,
        service,
        requireAuth(request).sub,
        request.params.companyId,
        request.query,
      );
      return sendTableExport(reply, file, 'units');
    },
  );

  companyResourceRoutes(fastify, {
    resource: 'units',
    idParam: 'unitId',
    schemas: {
      params: UnitParamsSchema,
      listQuery: UnitListQuerySchema,
      page: UnitPageSchema,
      item: UnitSchema,
      create: UnitCreateSchema,
      update: UnitUpdateSchema,
    },
    summaries: {
      list: 'List units (paged, sortable, searchable)',
      create: 'Create a unit',
      get: 'Read a unit',
      update: 'Rename, regroup or set wall control limits',
      remove: 'Delete a unit with its plans and log',
    },
    service,
    // The page's statement reads the caller's user row itself (UnitsService.list), and the page
    // is built by toUnitResponse from the contract's types (units.test.ts parses it with the schema).
    listConfig: { checksUser: true },
    listSerializer: JSON.stringify,
  });

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

  // The services write one audit entry per unit in the change's transaction (recordUnitsChange):
  // the hook would keep only the field names of a body of more than about a hundred ids.
  const audited = { audit: false as const };

  app.post(
    `${base}/bulk-update`,
    {
      config: audited,
      schema: {
        tags,
        summary:
          "Set wall control limits and/or the group of many units in one transaction (all or nothing; 404 when any id is not the company's)",
        params: CompanyParamsSchema,
        body: UnitBulkUpdateSchema,
        response: { 200: UnitBulkResultSchema, ...errors },
      },
    },
    async (request) => service.bulkUpdate(requireAuth(request).sub, request.params.companyId, request.body),
  );

  app.post(
    `${base}/bulk-delete`,
    {
      config: audited,
      schema: {
        tags,
        summary: 'Delete many units with their plans and log in one transaction (all or nothing)',
        params: CompanyParamsSchema,
        body: UnitBulkDeleteSchema,
        response: { 200: UnitBulkResultSchema, ...errors },
      },
    },
    async (request) => service.bulkRemove(requireAuth(request).sub, request.params.companyId, request.body),
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

  const actions = {
    pause: 'Pause: hold the frost protection setpoint',
    resume: 'Resume the plans after a pause',
  } as const;
  for (const [action, summary] of Object.entries(actions) as [keyof typeof actions, string][]) {
    app.post(
      `${base}/:unitId/${action}`,
      { schema: { tags, summary, params: UnitParamsSchema, response: { 200: UnitSchema, ...errors } } },
      async (request) =>
        service[action](requireAuth(request).sub, request.params.companyId, request.params.unitId),
    );
  }
}
