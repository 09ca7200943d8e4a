/**
 * QR codes of units for the public heating view (spec §2 "Units screen", §4 "QR access
 * is valid until disabled or regenerated"). A unit has at most one enabled code; disabling deletes
 * the row and regenerating replaces the token, so an old link finds nothing at once. The token is
 * kept in clear (unique) because operators print it again later; it is 128 random bits and grants
 * no more than the public page shows. Every change is recorded in `qr_code_changes`.
 */
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { units } from './heating.ts';

export const unitQrCodes = pgTable('unit_qr_codes', {
  unitId: uuid('unit_id')
    .primaryKey()
    .references(() => units.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** base64url of 16 random bytes. */
  token: text('token').notNull().unique(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
  enabledBy: text('enabled_by').references(() => users.id, { onDelete: 'set null' }),
});

export const QR_CODE_ACTIONS = ['enabled', 'regenerated', 'disabled'] as const;

/** Audit trail of QR code changes: who enabled, regenerated or disabled a unit's code, and when. */
export const qrCodeChanges = pgTable(
  'qr_code_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    action: text('action', { enum: QR_CODE_ACTIONS }).notNull(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('qr_code_changes_unit_idx').on(t.unitId, t.at)],
);
