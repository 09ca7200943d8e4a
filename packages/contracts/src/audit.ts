/**
 * The company's audit log under `/api/companies/{companyId}/audit-log` (decision 0059; admins):
 * every successful change of the company's data — who (a member or an API token), when, which
 * route and object, and the fields the request set (passwords, keys and secrets masked). Newest
 * first, filterable by what was changed, by actor and by time; exported as CSV.
 */
import { z } from 'zod';
import { PageQuerySchema, pageOf } from './problem.ts';

/** What a masked value reads as. */
export const AUDIT_MASK = '•••';

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actor: z.object({ id: z.string(), name: z.string(), kind: z.enum(['member', 'token']) }),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  /** The route as in the OpenAPI document, e.g. `/api/companies/{companyId}/units/{unitId}`. */
  route: z.string(),
  /** `units`, `plans`, `devices`, `members`, … or `company` for the company's own settings. */
  resource: z.string(),
  resourceId: z.string().nullable(),
  fields: z.record(z.string(), z.unknown()),
  /**
   * What those fields held before a change of an object that can be read (a PATCH or PUT), secrets
   * masked alike; null when not known (a create, a delete, an action).
   */
  previous: z.record(z.string(), z.unknown()).nullable(),
  status: z.number().int(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = pageOf(AuditEntrySchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;

const filters = {
  resource: z.string().trim().min(1).max(40).optional(),
  /** An actor's id (a member's `sub` or `apitoken:<id>`). */
  actor: z.string().trim().min(1).max(200).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
};
export const AuditQuerySchema = PageQuerySchema.extend(filters);
export const AuditExportQuerySchema = z.object(filters);
