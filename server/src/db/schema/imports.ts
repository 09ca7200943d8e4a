/**
 * Bulk import settings per company (units and devices from CSV/XLSX): the column mapping the
 * company last used and its defaults for missing columns, so the next file of the same vendor
 * maps itself.
 */
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';

export const importMappings = pgTable(
  'import_mappings',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** What the file holds: `units` or `devices`. */
    kind: text('kind', { enum: ['units', 'devices'] }).notNull(),
    /** Field → column header of the file, e.g. `{ "devEui": "dev_eui" }`. */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    /** Field → value used where the file has no such column or the cell is empty. */
    defaults: jsonb('defaults').$type<Record<string, string>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);
