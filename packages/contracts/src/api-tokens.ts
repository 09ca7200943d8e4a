/**
 * Company API tokens under `/api/companies/{companyId}/api-tokens` (decision 0058): for
 * integrators and energy-management systems. An admin creates one with a name, a role of the
 * role matrix (`ems` reads, `heating` also runs the heating; never `admin`) and an expiry of at
 * most 366 days; the token (`hp_…`) is shown in the create answer only, the server keeps its
 * SHA-256 hash. It is sent as `Authorization: Bearer hp_…` and reaches the company's own
 * endpoints only.
 */
import { z } from 'zod';
import { ActorSchema, CompanyParamsSchema } from './heating.ts';

/** Longest lifetime of a token, days. */
export const API_TOKEN_MAX_DAYS = 366;
/** Most buildings a token may be limited to. */
export const API_TOKEN_MAX_BUILDINGS = 100;
/** Most tokens a company has that are not revoked. */
export const API_TOKENS_MAX = 50;
/** What a token's role may be: the role matrix without `admin`. */
export const ApiTokenRoleSchema = z.enum(['ems', 'heating']);
export type ApiTokenRole = z.infer<typeof ApiTokenRoleSchema>;

export const ApiTokenParamsSchema = CompanyParamsSchema.extend({ tokenId: z.uuid() });

export const ApiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The token's first characters, e.g. `hp_x7Kq2m`, to recognise it. */
  prefix: z.string(),
  role: ApiTokenRoleSchema,
  /** The buildings the token is limited to; null = the whole company. */
  buildingIds: z.array(z.uuid()).nullable(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** Set once revoked; a revoked token is refused (401). */
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const ApiTokenListSchema = z.object({ results: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

export const ApiTokenInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  role: ApiTokenRoleSchema.default('ems'),
  /** Days from now until the token expires. */
  expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS).default(90),
  /**
   * Limits the token to these buildings: it then reaches their units and data and the lists
   * filtered to one of them (`buildingId`), nothing of the whole company. Empty = the whole company.
   */
  buildingIds: z.array(z.uuid()).max(API_TOKEN_MAX_BUILDINGS).default([]),
});
export type ApiTokenInput = z.input<typeof ApiTokenInputSchema>;

/** The create answer: the token itself, shown this once. */
export const ApiTokenCreatedSchema = ApiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedSchema>;
