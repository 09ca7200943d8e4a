/**
 * Units (rooms), groups, heating plans, the heating log and the setpoint outbox (spec §3,
 * docs/architecture.md §4–§5). Temperatures are °C (`real`), valve opening is %, every
 * instant is UTC `timestamptz`. Each row carries `company_id` so repositories can scope every
 * query by tenant.
 */

// The heating log's kinds and setpoint sources, for the columns' enums: the contracts' list alone.
import { LOG_KINDS } from '@heizplan/contracts/heating';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SwitchPoint } from '../../heating/engine/types.ts';
import { companies, users } from './accounts.ts';
import { buildings } from './buildings.ts';

export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * °C occupants may choose at most in the group's rooms without wall-control limits; null = the
     * building's or the company's (decision 0066).
     */
    occupantMaxTemperature: real('occupant_max_temperature'),
    /** K occupants may move around the plan's setpoint there; null = the building's or company's. */
    occupantBand: real('occupant_band'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_company_name_key').on(t.companyId, t.name)],
);

export const units = pgTable(
  'units',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A unit belongs to at most one group. */
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    /** The building the unit is in (decision 0052); null when none or the building was deleted. */
    buildingId: uuid('building_id').references(() => buildings.id, { onDelete: 'set null' }),
    /** One of the building's floors; null without building or floor. */
    floor: text('floor'),
    /** Limits an occupant or wall thermostat may set, °C; null = only the company range applies. */
    wallControlMin: real('wall_control_min'),
    wallControlMax: real('wall_control_max'),
    paused: boolean('paused').notNull().default(false),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    resumedAt: timestamp('resumed_at', { withTimezone: true }),
    /** Latest manual change (web or QR page); the engine decides how long it holds. */
    manualKind: text('manual_kind', { enum: ['web_change', 'qr_change'] }),
    manualSetpoint: real('manual_setpoint'),
    manualAt: timestamp('manual_at', { withTimezone: true }),
    manualUntil: timestamp('manual_until', { withTimezone: true }),
    /** What the scheduler last applied; null until the first evaluation. */
    setpoint: real('setpoint'),
    setpointSource: text('setpoint_source', { enum: LOG_KINDS }),
    setpointSince: timestamp('setpoint_since', { withTimezone: true }),
    ignoreWallControl: boolean('ignore_wall_control').notNull().default(false),
    /** Whether the company's optimum start and stop applies to this unit (decision 0056). */
    optimumStart: boolean('optimum_start').notNull().default(true),
    /** When the scheduler must evaluate this unit next; null = nothing scheduled. */
    nextChangeAt: timestamp('next_change_at', { withTimezone: true }),
    /** Telemetry, filled by device integration. */
    roomTemperature: real('room_temperature'),
    valveOpening: real('valve_opening'),
    supplyTemperature: real('supply_temperature'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // In the order the units list pages by (natural, decision 0040), so the index serves it.
    index('units_company_name_idx').on(t.companyId, sql`${t.name} collate "natural_sort"`),
    index('units_group_idx').on(t.groupId),
    index('units_building_idx').on(t.buildingId),
  ],
);

export const heatingPlans = pgTable(
  'heating_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Exactly one of unitId / groupId is set (check constraint). */
    unitId: uuid('unit_id').references(() => units.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    kind: text('kind', { enum: ['seasonal', 'specific_days'] }).notNull(),
    active: boolean('active').notNull().default(true),
    /** seasonal: 'MM-DD', inclusive, recurring every year. */
    validFrom: text('valid_from'),
    validTo: text('valid_to'),
    /** specific_days: local dates 'YYYY-MM-DD'. */
    dates: jsonb('dates').$type<string[]>(),
    switchPoints: jsonb('switch_points').$type<SwitchPoint[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('heating_plans_unit_idx').on(t.unitId),
    index('heating_plans_group_idx').on(t.groupId),
    check('heating_plans_owner_check', sql`(${t.unitId} is null) <> (${t.groupId} is null)`),
  ],
);

export const heatingLog = pgTable(
  'heating_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * The unit's company. No foreign key of its own: the unit's already cascades from the
     * company, and each checked key costs the scheduler's log insert a lookup and a row lock
     * per entry (docs/decisions/0035).
     */
    companyId: uuid('company_id').notNull(),
    /**
     * The unit. No foreign key either, for the same reason (decision 0073: the check was a sixth
     * of the scheduler's tick); a trigger on `units` deletes a deleted unit's entries, as the
     * key's cascade did (migration 0052).
     */
    unitId: uuid('unit_id').notNull(),
    kind: text('kind', { enum: LOG_KINDS }).notNull(),
    oldSetpoint: real('old_setpoint'),
    newSetpoint: real('new_setpoint').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The member who caused the change; null for the scheduler or an anonymous QR visitor. */
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('heating_log_unit_at_idx').on(t.unitId, t.at.desc(), t.id.desc())],
);

/**
 * Transactional outbox of applied setpoints (one row per unit change). Written in the same
 * transaction as the log entry; drained to the SetpointSink, one command per device.
 */
export const setpointOutbox = pgTable(
  'setpoint_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    setpoint: real('setpoint').notNull(),
    wallControlMin: real('wall_control_min'),
    wallControlMax: real('wall_control_max'),
    ignoreWallControl: boolean('ignore_wall_control').notNull(),
    reason: text('reason', { enum: LOG_KINDS }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  // The drain asks "is a newer row of this unit pending?" for every row it sends.
  (t) => [index('setpoint_outbox_unit_id_idx').on(t.unitId, t.id)],
);
