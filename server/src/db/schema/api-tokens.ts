/**
 * Company API tokens (decision 0058): credentials for integrators and energy-management systems.
 * Only a SHA-256 hash of a token is stored; the token itself is shown once. Each token acts
 * through a principal of its own — a `users` row `apitoken:<id>` with a membership in its company
 * in the token's role — so the same permission walk that covers members covers tokens.
 */
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The token's principal, `apitoken:<id>`. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the token (`hp_` and 6 more), so people can recognise it. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole token, hex. */
    tokenHash: text('token_hash').notNull(),
    role: text('role', { enum: ['heating', 'ems'] }).notNull(),
    /** The buildings the token is limited to; null = the whole company. */
    buildingIds: uuid('building_ids').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_idx').on(t.tokenHash),
    index('api_tokens_company_idx').on(t.companyId),
  ],
);
