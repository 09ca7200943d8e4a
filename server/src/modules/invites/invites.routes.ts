/** `/api/invite/*` (spec §7): invite codes and joining by code. */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanySchema,
  CreateInviteBodySchema,
  InviteParamsSchema,
  InviteQuerySchema,
  InviteSchema,
  InviteSetupParamsSchema,
} from '@heizplan/contracts/account';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import type { InvitesService } from './invites.service.ts';

export async function invitesRoutes(app: FastifyInstance, { invites }: { invites: InvitesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['invites'];

  r.get(
    '/invite/',
    {
      schema: {
        tags,
        summary: 'Open invites of a company (admins)',
        querystring: InviteQuerySchema,
        response: { 200: z.array(InviteSchema), ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => invites.list(requireAuth(request).sub, request.query.company_id),
  );

  r.post(
    '/invite/',
    {
      schema: {
        tags,
        summary: 'Create an invite code, mailed when an email is given (admins)',
        querystring: InviteQuerySchema,
        body: CreateInviteBodySchema.nullish(),
        response: { 201: InviteSchema, ...problems(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      const invite = await invites.create(
        requireAuth(request).sub,
        request.query.company_id,
        request.body ?? {},
      );
      return reply.code(201).send(invite);
    },
  );

  r.delete(
    '/invite/:id',
    {
      schema: {
        tags,
        summary: 'Withdraw an invite (admins)',
        params: InviteParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await invites.remove(requireAuth(request).sub, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/invite/setup/:invite_code',
    {
      schema: {
        tags,
        summary:
          'Join the company of an invite code; the invite is used up (wrong codes throttled per account and IP: 429)',
        params: InviteSetupParamsSchema,
        response: { 200: CompanySchema, ...problems(401, 404, 429) },
      },
    },
    async (request) => invites.join(requireAuth(request).sub, request.params.invite_code, request.ip),
  );
}
