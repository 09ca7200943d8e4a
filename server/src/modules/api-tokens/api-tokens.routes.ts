/**
 * API token endpoints (decision 0058) under `/api/companies/{companyId}/api-tokens`: list, create
 * (the answer carries the token, this once) and revoke. Admins only.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  ApiTokenCreatedSchema,
  ApiTokenInputSchema,
  ApiTokenListSchema,
  ApiTokenParamsSchema,
  ApiTokenSchema,
} from '@heizplan/contracts/api-tokens';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../auth/bearer.ts';
import { companyRouteErrors as errors } from '../../http/company-resource-routes.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

const tags = ['api-tokens'];

export async function apiTokensRoutes(
  fastify: FastifyInstance,
  { apiTokens: service }: { apiTokens: ApiTokensService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/companies/:companyId/api-tokens',
    {
      schema: {
        tags,
        summary: "The company's API tokens (never the tokens themselves)",
        params: CompanyParamsSchema,
        response: { 200: ApiTokenListSchema, ...errors },
      },
    },
    async (request) => service.list(requireAuth(request).sub, request.params.companyId),
  );

  app.post(
    '/companies/:companyId/api-tokens',
    {
      schema: {
        tags,
        summary: 'Create an API token; the answer carries the token, shown this once',
        params: CompanyParamsSchema,
        body: ApiTokenInputSchema,
        response: { 201: ApiTokenCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(requireAuth(request).sub, request.params.companyId, request.body)),
  );

  app.post(
    '/companies/:companyId/api-tokens/:tokenId/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke an API token: it is refused (401) from now on',
        params: ApiTokenParamsSchema,
        response: { 200: ApiTokenSchema, ...errors },
      },
    },
    async (request) =>
      service.revoke(requireAuth(request).sub, request.params.companyId, request.params.tokenId),
  );
}
