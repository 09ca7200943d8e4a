/**
 * Heating circuits (Heizkreise): a building's circuits with their heat generator, design point,
 * heating curve and limits, the rooms each serves (a room in one circuit at most), the
 * controller's state between its 5-minute steps, and those steps' readings for the chart (kept
 * 30 days). Temperatures °C.
 */
import {
  CIRCUIT_MODES,
  CIRCUIT_REASONS,
  type CircuitOutputConfig,
  GENERATOR_TYPES,
} from '@heizplan/contracts/heating-circuits';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';
import { buildings } from './buildings.ts';
import { units } from './heating.ts';

/** What the controller keeps from one step to the next (`SupplyResetState` of the engine). */
export interface CircuitControlState {
  enabled: boolean;
  switchedAt: number;
  supplySetpoint: number | null;
  requesters: string[];
}

export const heatingCircuits = pgTable(
  'heating_circuits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    generatorType: text('generator_type', { enum: GENERATOR_TYPES }).notNull(),
    designSupply: real('design_supply').notNull(),
    designReturn: real('design_return').notNull(),
    designOutdoor: real('design_outdoor').notNull(),
    curveSupply: real('curve_supply').notNull(),
    curveRoom: real('curve_room').notNull(),
    minSupply: real('min_supply').notNull(),
    maxSupply: real('max_supply').notNull(),
    mode: text('mode', { enum: CIRCUIT_MODES }).notNull().default('shadow'),
    /**
     * Where the command goes in mode `on` (decision 0077); null for none. An MQTT broker password
     * is kept encrypted (`v1:<iv>:<tag>:<ciphertext>`, AES-256-GCM under the device key with the
     * circuit id as additional data, like device AppKeys) and never returned.
     */
    output: jsonb('output').$type<CircuitOutputConfig>(),
    /** Between steps; null before the first. */
    controlState: jsonb('control_state').$type<CircuitControlState>(),
    /** When the next step is due; the job claims circuits by it. */
    nextStepAt: timestamp('next_step_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('heating_circuits_building_name_key').on(t.buildingId, t.name),
    index('heating_circuits_company_idx').on(t.companyId),
    index('heating_circuits_next_step_idx').on(t.nextStepAt),
  ],
);

export const heatingCircuitUnits = pgTable(
  'heating_circuit_units',
  {
    circuitId: uuid('circuit_id')
      .notNull()
      .references(() => heatingCircuits.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.circuitId, t.unitId] }),
    uniqueIndex('heating_circuit_units_unit_key').on(t.unitId),
  ],
);

export const heatingCircuitReadings = pgTable(
  'heating_circuit_readings',
  {
    circuitId: uuid('circuit_id')
      .notNull()
      .references(() => heatingCircuits.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull(),
    reason: text('reason', { enum: CIRCUIT_REASONS }).notNull(),
    supplySetpoint: real('supply_setpoint'),
    curveSupply: real('curve_supply'),
    outdoor: real('outdoor'),
    demandPercent: real('demand_percent').notNull(),
    roomsNeedingHeat: real('rooms_needing_heat').notNull(),
    /** Rooms asking this step: `[{ unitId, requests }]`, most first. */
    holdingUp: jsonb('holding_up').$type<Array<{ unitId: string; requests: number }>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.circuitId, t.at] })],
);

/**
 * Each write of a circuit's command to its output (decision 0077), kept 30 days like the
 * readings: what was written (°C), whether the generator took it, the output's one-line detail,
 * what it read back, and whether that read-back showed a change by hand (an override).
 */
export const heatingCircuitWrites = pgTable(
  'heating_circuit_writes',
  {
    circuitId: uuid('circuit_id')
      .notNull()
      .references(() => heatingCircuits.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull(),
    supplySetpoint: real('supply_setpoint'),
    ok: boolean('ok').notNull(),
    detail: text('detail').notNull(),
    readBackEnabled: boolean('read_back_enabled'),
    readBackSetpoint: real('read_back_setpoint'),
    override: boolean('override').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.circuitId, t.at] }),
    index('heating_circuit_writes_company_idx').on(t.companyId, t.at),
  ],
);
