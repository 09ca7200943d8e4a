/**
 * `/api/companies/*` (spec §7): the caller's companies, company
 * settings, creation in setup step 2, and the team calls used by the team screen.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import {
  CompanyListQuerySchema,
  CompanyPageSchema,
  CompanyParamsSchema,
  CompanyPatchBodySchema,
  CompanySchema,
  CompanySetupQuerySchema,
  InviteSchema,
  MemberEmailParamsSchema,
  MemberParamsSchema,
  MemberRoleBodySchema,
  MemberSchema,
} from '@heizplan/contracts/account';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../auth/bearer.ts';
import { problems } from '../../http/company-resource-routes.ts';
import type { CompaniesService } from './companies.service.ts';

export async function companiesRoutes(app: FastifyInstance, { companies }: { companies: CompaniesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['companies'];

  r.get(
    '/companies/',
    {
      schema: {
        tags,
        summary: 'The caller’s companies',
        querystring: CompanyListQuerySchema,
        response: { 200: CompanyPageSchema, ...problems(400, 401) },
      },
    },
    async (request) => companies.list(requireAuth(request).sub, request.query),
  );

  r.post(
    '/companies/setup',
    {
      schema: {
        tags,
        summary: 'Create a company; the caller becomes its admin',
        querystring: CompanySetupQuerySchema,
        response: { 201: CompanySchema, ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      const company = await companies.setup(requireAuth(request).sub, request.query.company_name);
      return reply.code(201).send(company);
    },
  );

  r.get(
    '/companies/:id/',
    {
      schema: {
        tags,
        summary: 'One company with its agreement flags',
        params: CompanyParamsSchema,
        response: { 200: CompanySchema, ...problems(401, 404) },
      },
    },
    async (request) => companies.get(requireAuth(request).sub, request.params.id),
  );

  r.patch(
    '/companies/:id/',
    {
      schema: {
        tags,
        summary: 'Change name, temperature range (°C) or time zone (admins)',
        params: CompanyParamsSchema,
        body: CompanyPatchBodySchema,
        response: { 200: CompanySchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => companies.patch(requireAuth(request).sub, request.params.id, request.body),
  );

  r.get(
    '/companies/:id/members/',
    {
      schema: {
        tags,
        summary: 'Team members (admins)',
        params: CompanyParamsSchema,
        response: { 200: z.array(MemberSchema), ...problems(401, 403, 404) },
      },
    },
    async (request) => companies.members(requireAuth(request).sub, request.params.id),
  );

  r.post(
    '/companies/:id/members/:email',
    {
      schema: {
        tags,
        summary: 'Invite this email address to the team (admins)',
        params: MemberEmailParamsSchema,
        response: { 201: InviteSchema, ...problems(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      const { id, email } = request.params;
      const invite = await companies.inviteMember(requireAuth(request).sub, id, email);
      return reply.code(201).send(invite);
    },
  );

  r.delete(
    '/companies/:id/members/:sub',
    {
      schema: {
        tags,
        summary: 'Remove a member (admins) or leave (the member); never the last admin',
        params: MemberParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await companies.removeMember(requireAuth(request).sub, request.params.id, request.params.sub);
      return reply.code(204).send(null);
    },
  );

  r.patch(
    '/companies/:id/members/:sub',
    {
      schema: {
        tags,
        summary: 'Change a member’s role (admins; never demotes the last admin)',
        params: MemberParamsSchema,
        body: MemberRoleBodySchema,
        response: { 200: MemberSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      companies.changeRole(
        requireAuth(request).sub,
        request.params.id,
        request.params.sub,
        request.body.role,
      ),
  );

  r.post(
    '/companies/:id/members/:sub/second-factor/reset',
    {
      schema: {
        tags,
        summary:
          'Remove a member’s TOTP, recovery codes and passkeys and end their sessions (admins; never oneself)',
        params: MemberParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await companies.resetSecondFactor(requireAuth(request).sub, request.params.id, request.params.sub);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/companies/:id/user/:sub',
    {
      schema: {
        tags,
        summary: 'One team member (admins; any member for themselves)',
        params: MemberParamsSchema,
        response: { 200: MemberSchema, ...problems(401, 403, 404) },
      },
    },
    async (request) => companies.member(requireAuth(request).sub, request.params.id, request.params.sub),
  );
}
