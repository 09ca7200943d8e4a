/**
 * Invites to join a company (spec §3 "Invite", §4 "Invites are deleted once used") and
 * account deletion requests (spec §4 "Account deletion request").
 */
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';

/** The primary key is the invite code itself: random, ≥ 128 bits, base64url (see invites.service.ts). */
export const invites = pgTable(
  'invites',
  {
    id: text('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Address the code was mailed to; null for a code handed over by other means. */
    email: text('email'),
    /** Role the member gets; null when the company's role choice is off (its default role applies). */
    role: text('role', { enum: ['admin', 'heating', 'ems'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invites_company_id_idx').on(t.companyId)],
);

/**
 * One row per user who asked to delete their account; the purge job removes the user (and
 * companies left without members) once `purge_after` has passed.
 */
export const accountDeletionRequests = pgTable(
  'account_deletion_requests',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    purgeAfter: timestamp('purge_after', { withTimezone: true }).notNull(),
  },
  (t) => [index('account_deletion_requests_purge_after_idx').on(t.purgeAfter)],
);
