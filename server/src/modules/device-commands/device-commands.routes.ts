/** One-off device commands (decision 0062): `POST /api/companies/{companyId}/devices/recalibrate`. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { RecalibrateInputSchema, RecalibrateResultSchema } from '@heizplan/contracts/device-profiles';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { DeviceCommandsService } from './device-commands.service.ts';

export async function deviceCommandsRoutes(
  fastify: FastifyInstance,
  { deviceCommands: service }: { deviceCommands: DeviceCommandsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/companies/:companyId/devices/recalibrate',
    {
      schema: {
        tags: ['devices'],
        summary: 'Recalibrate the motors of up to 1,000 valves with their next downlink',
        params: CompanyParamsSchema,
        body: RecalibrateInputSchema,
        response: { 200: RecalibrateResultSchema, ...errors },
      },
    },
    async (request) => service.recalibrate(requireAuth(request).sub, request.params.companyId, request.body),
  );
}
