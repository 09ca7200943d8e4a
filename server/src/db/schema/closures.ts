/**
 * Closures (decision 0051): a named period with a heating mode over the whole company, chosen
 * groups (`closure_groups`, their units at the time the engine runs) or chosen units
 * (`closure_units` with `exception = false`); units with `exception = true` keep their normal
 * heating. Instants UTC.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { groups, units } from './heating.ts';

export const closures = pgTable(
  'closures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }).notNull(),
    mode: text('mode', { enum: ['frost', 'economy', 'standby'] }).notNull(),
    scope: text('scope', { enum: ['company', 'groups', 'units'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('closures_company_end_idx').on(t.companyId, t.end),
    check('closures_end_check', sql`${t.end} > ${t.start}`),
  ],
);

export const closureUnits = pgTable(
  'closure_units',
  {
    closureId: uuid('closure_id')
      .notNull()
      .references(() => closures.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    /** true: the unit keeps its normal heating although the closure covers it. */
    exception: boolean('exception').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.closureId, t.unitId] }), index('closure_units_unit_idx').on(t.unitId)],
);

export const closureGroups = pgTable(
  'closure_groups',
  {
    closureId: uuid('closure_id')
      .notNull()
      .references(() => closures.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.closureId, t.groupId] }), index('closure_groups_group_idx').on(t.groupId)],
);
