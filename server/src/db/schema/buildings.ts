/**
 * Buildings (decision 0052): where a company's units are, with the federal state (and optional
 * `date-holidays` region) whose public and school holidays apply there and the building's floors. A unit
 * points at its building (`units.building_id`, set null when the building goes) and names one of
 * its floors (`units.floor`).
 */
import { FEDERAL_STATES } from '@heizplan/contracts/buildings';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';

export const buildings = pgTable(
  'buildings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    street: text('street').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    city: text('city').notNull().default(''),
    /** ISO 3166-2 code of the federal state without `DE-`, e.g. `BY`. */
    state: text('state', { enum: FEDERAL_STATES }).notNull(),
    /** A `date-holidays` region of the state (e.g. `A`, Augsburg); null = the state's holidays. */
    region: text('region'),
    /** Floor labels in the order the company lists them. */
    floors: jsonb('floors').$type<string[]>().notNull().default([]),
    publicHolidays: text('public_holidays', { enum: ['ignore', 'closure', 'sunday'] })
      .notNull()
      .default('ignore'),
    holidayMode: text('holiday_mode', { enum: ['frost', 'economy', 'standby'] })
      .notNull()
      .default('frost'),
    /** School holidays of the state are closures in `holiday_mode` (off by default; schools). */
    schoolHolidays: boolean('school_holidays').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('buildings_company_idx').on(t.companyId)],
);

/**
 * The company's own days for a building (a bridge day, a movable day off): whole local days that
 * count like public holidays. One per date and building.
 */
export const buildingDays = pgTable(
  'building_days',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    /** Local date `YYYY-MM-DD` in the company's zone. */
    date: text('date').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('building_days_building_date_key').on(t.buildingId, t.date)],
);
