/**
 * Report endpoints (decision 0061) under `/api/companies/{companyId}`: the report, its month as a
 * file, the export API over rollups and raw telemetry, a building's area, targets and meter
 * readings, and the member's monthly-PDF subscription.
 */
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { BuildingParamsSchema } from '@heizplan/contracts/buildings';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import {
  BuildingReportDataSchema,
  BuildingReportSettingsSchema,
  DataExportQuerySchema,
  METER_CARRIERS,
  MeterReadingImportResultSchema,
  MeterReadingImportSchema,
  MeterReadingSchema,
  MonthSchema,
  ReportExportQuerySchema,
  ReportQuerySchema,
  ReportSchema,
  ReportSubscriptionSchema,
  RollupExportQuerySchema,
} from '@heizplan/contracts/reports';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { ReportsService } from './reports.service.ts';

const tags = ['reports'];
const CONTENT_TYPE = { json: 'application/json; charset=utf-8', csv: 'text/csv; charset=utf-8' };
const MeterReadingParamsSchema = BuildingParamsSchema.extend({
  month: MonthSchema,
  carrier: z.enum(METER_CARRIERS),
});

export async function reportsRoutes(
  fastify: FastifyInstance,
  { reports: service }: { reports: ReportsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/companies/:companyId/reports',
    {
      schema: {
        tags,
        summary:
          'The energy and comfort report of the company, a building, group or unit for a month or heating season (from the rollups)',
        params: CompanyParamsSchema,
        querystring: ReportQuerySchema,
        response: { 200: ReportSchema, ...errors },
      },
    },
    async (request) => service.report(requireAuth(request).sub, request.params.companyId, request.query),
  );

  app.get(
    '/companies/:companyId/reports/export',
    {
      schema: {
        tags,
        summary: 'The month as PDF report, or its room days as CSV (German Excel or machine format) or XLSX',
        params: CompanyParamsSchema,
        querystring: ReportExportQuerySchema,
        produces: [
          'application/pdf',
          'text/csv',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        ],
        response: { 200: z.union([z.instanceof(Readable), z.instanceof(Buffer)]), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const file = await service.exportMonth(requireAuth(request).sub, request.params.companyId, q);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="heizplan-report-${q.month}.${file.extension}"`)
        .send(file.stream);
    },
  );

  for (const [path, source, querystring, summary] of [
    [
      '/companies/:companyId/reports/rollups',
      'rollups',
      RollupExportQuerySchema,
      'Export API: 15-minute or daily rollups of a time range (all rooms, a building or a unit), streamed as JSON or CSV',
    ],
    [
      '/companies/:companyId/reports/telemetry',
      'telemetry',
      DataExportQuerySchema,
      'Export API: raw uplinks of a time range within the retention, streamed as JSON or CSV',
    ],
  ] as const) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary,
          params: CompanyParamsSchema,
          querystring,
          produces: ['application/json', 'text/csv'],
          response: { 200: z.instanceof(Readable), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query as z.output<typeof RollupExportQuerySchema>;
        const stream = await service.exportData(
          requireAuth(request).sub,
          request.params.companyId,
          source === 'telemetry' ? 'telemetry' : q.resolution,
          q,
        );
        return reply.type(CONTENT_TYPE[q.format]).send(stream);
      },
    );
  }

  app.get(
    '/companies/:companyId/buildings/:buildingId/report-data',
    {
      schema: {
        tags,
        summary: "A building's heated area, efficiency target values and monthly meter readings",
        params: BuildingParamsSchema,
        response: { 200: BuildingReportDataSchema, ...errors },
      },
    },
    async (request) =>
      service.buildingData(requireAuth(request).sub, request.params.companyId, request.params.buildingId),
  );

  app.put(
    '/companies/:companyId/buildings/:buildingId/report-settings',
    {
      schema: {
        tags,
        summary: "Set a building's heated area (m²) and efficiency target values (GEG §71a); null clears one",
        params: BuildingParamsSchema,
        body: BuildingReportSettingsSchema,
        response: { 200: BuildingReportSettingsSchema, ...errors },
      },
    },
    async (request) =>
      service.putSettings(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.body,
      ),
  );

  app.put(
    '/companies/:companyId/buildings/:buildingId/meter-readings',
    {
      schema: {
        tags,
        summary: "Enter or correct a building's consumption of one month and energy carrier (kWh)",
        params: BuildingParamsSchema,
        body: MeterReadingSchema,
        response: { 200: MeterReadingSchema, ...errors },
      },
    },
    async (request) =>
      service.putReading(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.body,
      ),
  );

  app.post(
    '/companies/:companyId/buildings/:buildingId/meter-readings/import',
    {
      schema: {
        tags,
        summary:
          'Import monthly meter readings from CSV (month, carrier, kWh; ; or , separated); all rows or none',
        params: BuildingParamsSchema,
        body: MeterReadingImportSchema,
        response: { 200: MeterReadingImportResultSchema, ...errors },
      },
    },
    async (request) =>
      service.importReadings(
        requireAuth(request).sub,
        request.params.companyId,
        request.params.buildingId,
        request.body.csv,
      ),
  );

  app.delete(
    '/companies/:companyId/buildings/:buildingId/meter-readings/:month/:carrier',
    {
      schema: {
        tags,
        summary: "Delete a month's meter reading of one carrier",
        params: MeterReadingParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { companyId, buildingId, month, carrier } = request.params;
      await service.deleteReading(requireAuth(request).sub, companyId, buildingId, month, carrier);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/companies/:companyId/reports/subscription',
    {
      schema: {
        tags,
        summary: 'Whether you get the monthly report as PDF by mail on the 1st',
        params: CompanyParamsSchema,
        response: { 200: ReportSubscriptionSchema, ...errors },
      },
    },
    async (request) => service.subscription(requireAuth(request).sub, request.params.companyId),
  );

  app.put(
    '/companies/:companyId/reports/subscription',
    {
      schema: {
        tags,
        summary: 'Subscribe to or unsubscribe from the monthly report by mail',
        params: CompanyParamsSchema,
        body: ReportSubscriptionSchema,
        response: { 200: ReportSubscriptionSchema, ...errors },
      },
    },
    async (request) =>
      service.setSubscription(requireAuth(request).sub, request.params.companyId, request.body.subscribed),
  );
}
