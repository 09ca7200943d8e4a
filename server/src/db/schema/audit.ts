/**
 * The audit log per company (decision 0059): who — a member or an API token — changed what and
 * when, with the fields the request set (secrets masked). Written by one hook for every successful
 * change of a company's data; kept for AUDIT_RETENTION_DAYS.
 */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** `users.id` of the member, or the token's principal `apitoken:<id>`; kept after they go. */
    actorId: text('actor_id').notNull(),
    /** The actor's name when it acted. */
    actorName: text('actor_name').notNull(),
    actorKind: text('actor_kind', { enum: ['member', 'token'] }).notNull(),
    /** `POST`, `PUT`, `PATCH` or `DELETE`. */
    method: text('method').notNull(),
    /** The route as the OpenAPI document names it, e.g. `/api/companies/{companyId}/units/{unitId}`. */
    route: text('route').notNull(),
    /** What was changed: the route's first segment after the company (`units`, `plans`, `members`…; `company` for the company itself). */
    resource: text('resource').notNull(),
    /** Id of the changed object (the route's last parameter), or null (a create, the company). */
    resourceId: text('resource_id'),
    /** The request's fields and values, secrets masked; only the field names of a large body. */
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * What those fields held before a `PATCH` or `PUT` of an object the API can read (secrets
     * masked alike); null when not known (a create, a delete, an action, entries before 0045).
     */
    previous: jsonb('previous').$type<Record<string, unknown>>(),
    status: integer('status').notNull(),
  },
  (t) => [index('audit_log_company_at_idx').on(t.companyId, t.at)],
);
