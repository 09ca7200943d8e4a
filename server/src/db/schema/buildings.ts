/**
 * Buildings (decision 0052): where a company's units are, with the federal state (and optional
 * `date-holidays` region) whose public and school holidays apply there and the building's floors. A unit
 * points at its building (`units.building_id`, set null when the building goes) and names one of
 * its floors (`units.floor`).
 */
import { FEDERAL_STATES } from '@heizplan/contracts/buildings';
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { devices } from './devices.ts';

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
    /** WGS 84 degrees; both null = no outdoor temperature for the building (decision 0057). */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /**
     * The company's sensor (codec kind `sensor`, no unit) mounted outside: its hourly means
     * take precedence over the weather provider; null = none (decision 0057).
     */
    // Typed: devices → units → buildings refer back here.
    outdoorSensorId: text('outdoor_sensor_id').references((): AnyPgColumn => devices.id, {
      onDelete: 'set null',
    }),
    /**
     * °C occupants may choose at most in the building's rooms without wall-control limits; null =
     * the company's (decision 0066). A group's own value goes before it.
     */
    occupantMaxTemperature: real('occupant_max_temperature'),
    /** K occupants may move around the plan's setpoint there; null = the company's leeway. */
    occupantBand: real('occupant_band'),
    /** When the outdoor sync next fetches the building's weather; null = at once. */
    outdoorSyncAt: timestamp('outdoor_sync_at', { withTimezone: true }),
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

/**
 * Hourly outdoor temperature per building (decision 0057): the hourly mean of the building's own
 * outdoor sensor (`sensor`), observed and forecast values from the weather provider, one row per
 * building and full UTC hour. Precedence sensor > observed > forecast: a value never replaces
 * one of higher rank. Input of optimum start (and of degree days).
 */
export const buildingOutdoorTemperatures = pgTable(
  'building_outdoor_temperatures',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    /** The full hour (UTC) the value is for. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** °C, 2 m air temperature. */
    temperature: real('temperature').notNull(),
    kind: text('kind', { enum: ['sensor', 'observed', 'forecast'] }).notNull(),
    /** The provider it came from, e.g. `brightsky`; `sensor` for the building's outdoor sensor. */
    provider: text('provider').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.buildingId, t.at] }),
    index('building_outdoor_company_idx').on(t.companyId),
  ],
);

/**
 * Tomorrow's heating start of each building as last computed (decision 0069), so the buildings
 * list computes it only when it may have changed. A row is stale when its `day` is not the local
 * tomorrow any more, or null: every change of its units' heating inputs sets `day` null and bumps
 * `version` in the transaction that makes the change, and a value computed from older inputs is
 * only stored while `version` is still the one read before computing. At most one row per
 * building; a building without a row has nothing kept.
 */
export const buildingHeatingStarts = pgTable(
  'building_heating_starts',
  {
    buildingId: uuid('building_id')
      .primaryKey()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Bumped by every change of the heating inputs of the building's units. */
    version: integer('version').notNull().default(1),
    /** Local date `YYYY-MM-DD` (company zone) `start_at` is for; null = inputs changed since. */
    day: text('day'),
    /** The earliest instant of `day` a room of the building heats up by ≥ 1 K; null = none. */
    startAt: timestamp('start_at', { withTimezone: true }),
    /** When `start_at` was computed (the service's clock); null while nothing is kept. */
    computedAt: timestamp('computed_at', { withTimezone: true }),
  },
  (t) => [index('building_heating_starts_company_idx').on(t.companyId)],
);
