/**
 * Closures (decision 0051): a named period with a heating mode over the whole company, chosen
 * buildings or floors (`closure_buildings`), chosen groups (`closure_groups`; like buildings,
 * their units at the time the engine runs) or chosen units (`closure_units` with
 * `exception = false`); units with `exception = true` keep their normal heating. A closure may
 * recur (`recurrence`, an RRULE value); `start`/`end` are its first occurrence. Instants UTC.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { buildings } from './buildings.ts';
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
    /** RFC 5545 RRULE value without `RRULE:` (upper case); null: the closure does not recur. */
    recurrence: text('recurrence'),
    /**
     * A recurring closure's end of its last occurrence, computed in the company's zone when the
     * closure was written; null: the recurrence has no end (or one too far to compute). The lists
     * and the engine's query filter recurring closures by it, the others by `end` (which the
     * service writes here too).
     */
    lastEnd: timestamp('last_end', { withTimezone: true }),
    mode: text('mode', { enum: ['frost', 'economy', 'standby'] }).notNull(),
    scope: text('scope', { enum: ['company', 'buildings', 'groups', 'units'] }).notNull(),
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

/** Buildings a closure of scope `buildings` covers: the whole building (`floor` '') or one floor. */
export const closureBuildings = pgTable(
  'closure_buildings',
  {
    closureId: uuid('closure_id')
      .notNull()
      .references(() => closures.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    /** One of the building's floors; '' = the whole building. */
    floor: text('floor').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.closureId, t.buildingId, t.floor] }),
    index('closure_buildings_building_idx').on(t.buildingId),
  ],
);
