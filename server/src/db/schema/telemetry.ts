/**
 * Device telemetry and setpoint downlinks (docs/architecture.md). Temperatures are °C,
 * valve opening %, battery as the device reports it (V or %, see `battery_unit`), RSSI dBm,
 * SNR dB, every instant UTC.
 *
 * `telemetry` holds one row per uplink; its primary key (dev_eui, time, f_cnt) makes ingest
 * idempotent: a redelivered MQTT message carries the same network-server `time` and `fCnt`, so
 * `ON CONFLICT DO NOTHING` drops it. Rows name the device by DevEUI and the unit/company it
 * belonged to when the uplink arrived, so history stays put when a device is moved or removed.
 *
 * `downlinks` records each setpoint command with its delivery state:
 * queued → sent (gateway txack) → acknowledged | failed, or superseded by a newer setpoint
 * before it was sent. A downlink without a setpoint (null) is a raw device command queued by
 * the server, e.g. a heating circuit's relay command (decision 0077), tracked the same way.
 *
 * `downlink_dead_letters` keeps the commands the downlink queue set aside because the database
 * refused to record them, or the broker to take them, again and again (a poisoned command):
 * counted, alerted and kept for the operator instead of blocking every command behind it.
 */
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';
import { units } from './heating.ts';

export const telemetry = pgTable(
  'telemetry',
  {
    devEui: text('dev_eui').notNull(),
    /** Network-server receive time of the uplink. */
    time: timestamp('time', { withTimezone: true }).notNull(),
    fCnt: integer('f_cnt').notNull(),
    deviceId: text('device_id'),
    /**
     * Company and unit the device belonged to when the uplink arrived. No foreign keys: their
     * checks were most of the insert's cost (docs/decisions/0035); the account purge deletes a
     * company's rows with the company, and a deleted unit's rows keep its id as history.
     */
    companyId: uuid('company_id').notNull(),
    unitId: uuid('unit_id'),
    fPort: integer('f_port').notNull(),
    roomTemperature: real('room_temperature'),
    supplyTemperature: real('supply_temperature'),
    /** The setpoint the device reports it is regulating to (what really arrived). */
    setpointReported: real('setpoint_reported'),
    valveOpening: real('valve_opening'),
    battery: real('battery'),
    batteryUnit: text('battery_unit', { enum: ['V', '%'] }),
    rssi: real('rssi'),
    snr: real('snr'),
  },
  (t) => [
    primaryKey({ columns: [t.devEui, t.time, t.fCnt] }),
    index('telemetry_unit_time_idx').on(t.unitId, t.time),
    index('telemetry_company_time_idx').on(t.companyId, t.time),
  ],
);

export const DOWNLINK_STATES = ['queued', 'sent', 'acknowledged', 'failed', 'superseded'] as const;
export type DownlinkState = (typeof DOWNLINK_STATES)[number];

export const downlinks = pgTable(
  'downlinks',
  {
    /** Also the id given to the network server (ChirpStack queue item id / TTS correlation id). */
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id').references(() => units.id, { onDelete: 'set null' }),
    deviceId: text('device_id').notNull(),
    devEui: text('dev_eui').notNull(),
    /**
     * °C; null for a downlink that carries no setpoint (a relay command, decision 0077). Nulls are
     * distinct in the unique key, so each such command is its own row.
     */
    setpoint: real('setpoint'),
    fPort: integer('f_port').notNull(),
    /** Application payload as lowercase hex. */
    payload: text('payload').notNull(),
    state: text('state', { enum: DOWNLINK_STATES }).notNull().default('queued'),
    /** Queue item id the network server reports in txack/ack events. */
    queueItemId: text('queue_item_id'),
    /** Heating log kind that caused it. */
    reason: text('reason').notNull(),
    /** When the scheduler applied the setpoint (UTC); with device and setpoint it makes `send` idempotent. */
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
    /** When it was handed to the MQTT broker; null = not yet published (retried at start). */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /**
     * An instance is publishing it until then (claimed with SKIP LOCKED); another instance may
     * publish it only after this lease ran out (docs/decisions/0032).
     */
    publishLeaseUntil: timestamp('publish_lease_until', { withTimezone: true }),
    /**
     * Publishes that failed while the broker was connected; at the limit the row is set aside
     * (state failed, a dead letter) so it no longer holds up the rows behind it.
     */
    publishAttempts: integer('publish_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('downlinks_device_state_idx').on(t.deviceId, t.state),
    index('downlinks_unit_state_idx').on(t.unitId, t.state),
    index('downlinks_unpublished_idx').on(t.createdAt).where(sql`${t.publishedAt} is null`),
    // The few downlinks not settled yet, for the "setpoint not delivered" alert.
    index('downlinks_unsettled_idx').on(t.createdAt).where(sql`${t.state} in ('queued', 'sent', 'failed')`),
    uniqueIndex('downlinks_command_key').on(t.deviceId, t.appliedAt, t.setpoint),
  ],
);

/**
 * A setpoint command set aside (docs/decisions/0047). No foreign keys: the command may have been
 * refused exactly because its company, unit or device no longer exists. One row per command
 * (device, applied-at, setpoint); a command set aside again counts up `attempts`.
 */
export const downlinkDeadLetters = pgTable(
  'downlink_dead_letters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    unitId: uuid('unit_id'),
    deviceId: text('device_id').notNull(),
    /** °C; null for a command without a setpoint (a relay command). */
    setpoint: real('setpoint'),
    reason: text('reason').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
    /** Where it failed: `record` (database insert) or `publish` (MQTT broker). */
    stage: text('stage', { enum: ['record', 'publish'] }).notNull(),
    error: text('error').notNull(),
    attempts: integer('attempts').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('downlink_dead_letters_command_key').on(t.deviceId, t.appliedAt, t.setpoint),
    index('downlink_dead_letters_company_idx').on(t.companyId, t.updatedAt),
  ],
);
