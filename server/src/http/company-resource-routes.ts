/**
 * The five routes every company-scoped collection has — list, create, read, update, delete under
 * `/companies/:companyId/<resource>[/:<id>]` — declared once (docs/architecture.md). A module passes
 * its zod schemas, OpenAPI summaries and a service whose methods take the signed-in user's `sub`
 * and the company id first; the service scopes every query to the company and throws the
 * problem+json errors (404 for a foreign company). Create answers 201, delete 204 with no body.
 * Update changes only the fields given; an empty patch answers the resource as it is (decision 0030).
 * Extra routes of a resource (bulk create, pause, …) stay in the module's own routes file.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { CompanyParamsSchema } from '@heizplan/contracts/heating';
import { ProblemSchema } from '@heizplan/contracts/problem';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type AuthClaims, requireAuth } from '../auth/bearer.ts';

/** Problem responses every company-scoped route may answer with. */
export const companyRouteErrors = {
  400: ProblemSchema,
  403: ProblemSchema,
  404: ProblemSchema,
  409: ProblemSchema,
};

/** Response schemas for the given error statuses, all problem+json (docs/architecture.md). */
export function problems<S extends number>(...statuses: S[]): Record<S, typeof ProblemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ProblemSchema])) as Record<S, typeof ProblemSchema>;
}

type Query = z.ZodType;
type Body = z.ZodType;

/** What the routes call; `id` is the resource's path parameter. */
export interface CompanyResourceService<Q extends Query, C extends Body, U extends Body> {
  /** `caller`: the token's claims, for a list that checks the caller itself (`checksUser`). */
  list(userId: string, companyId: string, query: z.output<Q>, caller?: AuthClaims): Promise<unknown>;
  get(userId: string, companyId: string, id: string): Promise<unknown>;
  create(userId: string, companyId: string, input: z.output<C>): Promise<unknown>;
  update(userId: string, companyId: string, id: string, patch: z.output<U>): Promise<unknown>;
  remove(userId: string, companyId: string, id: string): Promise<void>;
}

export interface CompanyResourceRoutes<Q extends Query, C extends Body, U extends Body> {
  /** Path segment after the company, e.g. `units`. Also the OpenAPI tag. */
  resource: string;
  /** Name of the item's path parameter, e.g. `unitId`; must be a key of `schemas.params`. */
  idParam: string;
  schemas: {
    /** Params of an item route: companyId plus the id parameter. */
    params: z.ZodObject;
    listQuery: Q;
    page: z.ZodType;
    item: z.ZodType;
    create: C;
    update: U;
  };
  summaries: { list: string; create: string; get: string; update: string; remove: string };
  service: CompanyResourceService<Q, C, U>;
  /** Route config of the list route, e.g. `checksUser` when its statement checks the caller. */
  listConfig?: FastifyContextConfig;
  /**
   * Serialises the list answer instead of the app's zod serializer, which checks every answer
   * against its schema (a quarter of the units page's serialisation cost was that check;
   * docs/decisions/0035). Only for answers built field by field from the contract's type, with a
   * test that parses them with the schema.
   */
  listSerializer?: (page: unknown) => string;
}

/**
 * True when a parsed PATCH body sets no field (`{}`, or only unknown fields, which the schema
 * strips). Such a patch answers 200 with the resource unchanged and writes nothing (decision 0030),
 * so services never build an empty `UPDATE … SET` (Drizzle: "No values to set").
 */
export function isEmptyPatch(patch: unknown): boolean {
  return Object.values(patch ?? {}).every((value) => value === undefined);
}

/** Registers the list/create/read/update/delete routes of one company-scoped resource. */
export function companyResourceRoutes<Q extends Query, C extends Body, U extends Body>(
  fastify: FastifyInstance,
  spec: CompanyResourceRoutes<Q, C, U>,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { schemas, summaries, service } = spec;
  const base = `/companies/:companyId/${spec.resource}`;
  const item = `${base}/:${spec.idParam}`;
  const tags = [spec.resource];
  const errors = companyRouteErrors;
  // The item params schema is generic here; the route's zod validation has checked both keys.
  const ids = (params: unknown) => {
    const p = params as Record<string, string>;
    return [p.companyId as string, p[spec.idParam] as string] as const;
  };

  app.get(
    base,
    {
      config: spec.listConfig,
      ...(spec.listSerializer
        ? { serializerCompiler: () => spec.listSerializer as (page: unknown) => string }
        : {}),
      schema: {
        tags,
        summary: summaries.list,
        params: CompanyParamsSchema,
        querystring: schemas.listQuery,
        response: { 200: schemas.page, ...errors },
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      return service.list(caller.sub, request.params.companyId, request.query as z.output<Q>, caller);
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: summaries.create,
        params: CompanyParamsSchema,
        body: schemas.create,
        response: { 201: schemas.item, ...errors },
      },
    },
    async (request, reply) => {
      const created = await service.create(
        requireAuth(request).sub,
        request.params.companyId,
        request.body as z.output<C>,
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    item,
    {
      schema: {
        tags,
        summary: summaries.get,
        params: schemas.params,
        response: { 200: schemas.item, ...errors },
      },
    },
    async (request) => service.get(requireAuth(request).sub, ...ids(request.params)),
  );

  app.patch(
    item,
    {
      schema: {
        tags,
        summary: summaries.update,
        params: schemas.params,
        body: schemas.update,
        response: { 200: schemas.item, ...errors },
      },
    },
    async (request) => {
      const { sub } = requireAuth(request);
      const patch = request.body as z.output<U>;
      return isEmptyPatch(patch)
        ? service.get(sub, ...ids(request.params))
        : service.update(sub, ...ids(request.params), patch);
    },
  );

  app.delete(
    item,
    {
      schema: {
        tags,
        summary: summaries.remove,
        params: schemas.params,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).sub, ...ids(request.params));
      return reply.code(204).send(null);
    },
  );
}
