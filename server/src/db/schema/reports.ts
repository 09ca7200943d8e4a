/**
 * Rollups of the telemetry, the reports' inputs (decision 0061). Temperatures °C, valve %,
 * minutes as counts, instants UTC.
 *
 * - `unit_rollups_15m`: one row per unit and 15-minute bucket in which the unit had a reading
 *   (or one in the hour before, carried forward): room min/mean/max, valve mean, the setpoint in
 *   force at the bucket's start and what set it, minutes heating and with a window open, the
 *   building's outdoor temperature.
 * - `unit_rollups_daily`: the 15-minute rows summed per unit and local day of the company, with
 *   the comfort counts of the report precomputed (occupied minutes, below comfort, EN 16798-1
 *   categories, setback, valve stuck open).
 * - `rollup_state`: per company, up to where the rollups are complete. The job takes a company's
 *   row with `for update skip locked`, so one instance maintains it at a time; every write is an
 *   upsert, so a bucket computed twice ends the same.
 *
 * Rollups outlive the raw telemetry (TELEMETRY_RETENTION_MONTHS); they have no foreign key to
 * units so a deleted room's history stays in the company's reports.
 */
import { METER_CARRIERS } from '@heizplan/contracts/reports';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { buildings } from './buildings.ts';

export const unitRollups15m = pgTable(
  'unit_rollups_15m',
  {
    companyId: uuid('company_id').notNull(),
    unitId: uuid('unit_id').notNull(),
    buildingId: uuid('building_id'),
    /** Start of the bucket (UTC, on the quarter hour). */
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    /** Uplinks in the bucket; 0 = values carried from the last reading of the hour before. */
    readings: integer('readings').notNull(),
    roomMin: real('room_min'),
    roomMean: real('room_mean'),
    roomMax: real('room_max'),
    valveMean: real('valve_mean'),
    /** Setpoint in force at the bucket's start (heating log); null = none yet. */
    setpoint: real('setpoint'),
    /** The heating log kind that set it (`regular_plan`, `booking`, `qr_change`…). */
    setpointSource: text('setpoint_source'),
    /** Minutes of the bucket the valve was open (> 5 %). */
    heatingMinutes: real('heating_minutes').notNull(),
    /** Minutes of the bucket an open-window alert of the unit was open. */
    windowMinutes: real('window_minutes').notNull(),
    outdoor: real('outdoor'),
  },
  (t) => [
    primaryKey({ columns: [t.unitId, t.bucket] }),
    index('unit_rollups_15m_company_bucket_idx').on(t.companyId, t.bucket),
  ],
);

export const unitRollupsDaily = pgTable(
  'unit_rollups_daily',
  {
    companyId: uuid('company_id').notNull(),
    unitId: uuid('unit_id').notNull(),
    buildingId: uuid('building_id'),
    /** Local date in the company's time zone. */
    day: date('day', { mode: 'string' }).notNull(),
    /** 15-minute buckets with values; `readingBuckets` of them had an uplink of their own. */
    buckets: integer('buckets').notNull(),
    readingBuckets: integer('reading_buckets').notNull(),
    roomMin: real('room_min'),
    roomMean: real('room_mean'),
    roomMax: real('room_max'),
    valveMean: real('valve_mean'),
    setpointMean: real('setpoint_mean'),
    /** Mean setpoint while occupied: the room's comfort temperature (the saving estimate's reference). */
    occupiedSetpointMean: real('occupied_setpoint_mean'),
    heatingMinutes: real('heating_minutes').notNull(),
    windowMinutes: real('window_minutes').notNull(),
    /** Minutes heated while a window was open. */
    windowHeatingMinutes: real('window_heating_minutes').notNull(),
    outdoorMean: real('outdoor_mean'),
    /** Minutes with a comfort setpoint in force (≥ the comfort floor, `reports/comfort.ts`). */
    occupiedMinutes: integer('occupied_minutes').notNull(),
    /** Occupied minutes with the room more than 0.5 K below the setpoint. */
    belowComfortMinutes: integer('below_comfort_minutes').notNull(),
    /** Occupied minutes by EN 16798-1 winter category: I ≥ 21 °C, II ≥ 20 °C, III ≥ 19 °C. */
    categoryIMinutes: integer('category_i_minutes').notNull(),
    categoryIIMinutes: integer('category_ii_minutes').notNull(),
    categoryIIIMinutes: integer('category_iii_minutes').notNull(),
    /** Minutes with a setback setpoint in force and the room cooled below the comfort floor. */
    setbackMinutes: integer('setback_minutes').notNull(),
    /** Minutes with the valve ≥ 95 % open while the room was more than 1 K above the setpoint. */
    stuckOpenMinutes: integer('stuck_open_minutes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.unitId, t.day] }),
    index('unit_rollups_daily_company_day_idx').on(t.companyId, t.day),
  ],
);

export const rollupState = pgTable('rollup_state', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** Buckets before this instant are complete (UTC, on the quarter hour). */
  doneUntil: timestamp('done_until', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A building's consumption per month and energy carrier as read off its meter (kWh). */
export const buildingMeterReadings = pgTable(
  'building_meter_readings',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    /** `YYYY-MM`. */
    month: text('month').notNull(),
    carrier: text('carrier', { enum: METER_CARRIERS }).notNull(),
    /** kWh consumed in the month. */
    kwh: real('kwh').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.buildingId, t.month, t.carrier] }),
    index('building_meter_readings_company_idx').on(t.companyId, t.month),
  ],
);

/**
 * A building's heated area and efficiency target values (GEG §71a points 3–5); null = not set.
 */
export const buildingReportSettings = pgTable('building_report_settings', {
  buildingId: uuid('building_id')
    .primaryKey()
    .references(() => buildings.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** m² of heated floor area, for kWh per m² and year. */
  heatedAreaM2: real('heated_area_m2'),
  /** Most heating hours per heating degree day (per room, averaged) a month may use. */
  maxHeatingHoursPerDegreeDay: real('max_heating_hours_per_degree_day'),
  /** Largest share (0–1) of occupied hours below comfort a month may have. */
  maxBelowComfortShare: real('max_below_comfort_share'),
  /** The last month (`YYYY-MM`) checked against the targets. */
  checkedMonth: text('checked_month'),
  /** The targets that month missed (`Report['targets']['missed']`); the alert's condition. */
  missedTargets: jsonb('missed_targets').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const reportSubscriptions = pgTable(
  'report_subscriptions',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The last month (`YYYY-MM`) mailed to this member. */
    lastMonth: text('last_month'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);
