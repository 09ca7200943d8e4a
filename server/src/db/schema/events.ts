/**
 * One-time heating events (spec §3 "Event", docs/architecture.md). An event
 * targets either units (`event_units`) or, in group mode, groups (`event_groups`); group-mode
 * events reach the units that are in the group when the engine runs, so units added later are
 * covered. Temperatures are °C, instants UTC. A deleted running event keeps its row with
 * `deleted_at` and an end at the deletion instant, so the engine still logs its `one_time_end`.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { groups, units } from './heating.ts';

export const heatingEvents = pgTable(
  'heating_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    note: text('note').notNull().default(''),
    start: timestamp('start', { withTimezone: true }).notNull(),
    /** null = open-ended (holds until the next switch point). */
    end: timestamp('end', { withTimezone: true }),
    temperature: real('temperature').notNull(),
    /** While running, plan switch points are ignored; requires an end (check constraint). */
    preventRegular: boolean('prevent_regular').notNull().default(false),
    groupMode: boolean('group_mode').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('heating_events_company_start_idx').on(t.companyId, t.start),
    check('heating_events_end_check', sql`${t.end} is null or ${t.end} >= ${t.start}`),
    check('heating_events_prevent_check', sql`not ${t.preventRegular} or ${t.end} is not null`),
  ],
);

export const heatingEventUnits = pgTable(
  'heating_event_units',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => heatingEvents.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.unitId] }), index('heating_event_units_unit_idx').on(t.unitId)],
);

export const heatingEventGroups = pgTable(
  'heating_event_groups',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => heatingEvents.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.groupId] }),
    index('heating_event_groups_group_idx').on(t.groupId),
  ],
);
