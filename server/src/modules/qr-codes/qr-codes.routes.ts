/**
 * QR code endpoints under `/api/companies/{companyId}`: a unit's code
 * (`GET|POST|DELETE …/units/{unitId}/qr-code`, `POST …/qr-code/regenerate`) and every enabled
 * code with the remaining allowance (`GET …/qr-codes`, for the print sheet), and the codes of many
 * units enabled or disabled at once (`POST …/units/bulk-qr-code`, the rooms list's bulk edit).
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { CompanyParamsSchema, UnitParamsSchema } from '@heizplan/contracts/heating';
import {
  QrCodeListSchema,
  UnitQrBulkResultSchema,
  UnitQrBulkSchema,
  UnitQrStateSchema,
} from '@heizplan/contracts/qr-codes';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { QrCodesService } from './qr-codes.service.ts';

const tags = ['qr-codes'];
const unitCode = '/companies/:companyId/units/:unitId/qr-code';

export async function qrCodesRoutes(
  fastify: FastifyInstance,
  { qrCodes: service }: { qrCodes: QrCodesService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const response = { 200: UnitQrStateSchema, ...errors };

  app.get(
    '/companies/:companyId/qr-codes',
    {
      schema: {
        tags,
        summary: 'Every enabled QR code of the company, with the remaining allowance',
        params: CompanyParamsSchema,
        response: { 200: QrCodeListSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId),
  );

  const routes = [
    ['get', unitCode, "A unit's QR code (null while disabled) and the remaining allowance", 'get'],
    ['post', unitCode, 'Enable the QR code (409 when none remains)', 'enable'],
    ['post', `${unitCode}/regenerate`, 'New token: the old link stops working at once', 'regenerate'],
    ['delete', unitCode, 'Disable the QR code: its link stops working at once', 'disable'],
  ] as const;
  for (const [method, url, summary, action] of routes) {
    app[method](url, { schema: { tags, summary, params: UnitParamsSchema, response } }, async (request) =>
      service[action](requireAuth(request).sub, request.params.companyId, request.params.unitId),
    );
  }

  app.post(
    '/companies/:companyId/units/bulk-qr-code',
    {
      // The service writes one audit entry per unit in its transaction (recordUnitsChange).
      config: { audit: false },
      schema: {
        tags,
        summary:
          'Enable or disable the QR codes of many units in one transaction (409 qr_allowance_short when too few are free; nothing changes)',
        params: CompanyParamsSchema,
        body: UnitQrBulkSchema,
        response: { 200: UnitQrBulkResultSchema, ...errors },
      },
    },
    async (request) => service.bulkSet(requireAuth(request).sub, request.params.companyId, request.body),
  );
}
