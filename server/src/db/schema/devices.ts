/**
 * Device and gateway registry (spec §3/§5, docs/architecture.md).
 *
 * A device's `id` is its identifier in Heizplan (max 16 characters, spec §5); for LoRaWAN it is
 * the DevEUI in lowercase (ChirpStack's spelling), so `dev_eui = id` and a DevEUI can belong to
 * one company only (primary key and unique index span all companies). The AppKey is stored
 * only encrypted (AES-256-GCM, see modules/devices/app-key-cipher.ts) with its last four hex
 * digits for display. Last seen, battery (V or % as the device reports it), RSSI (dBm) and SNR
 * (dB) are updated by uplink ingest. Gateways go offline after 2 × their stats interval
 * without stats.
 */

import type { ReportedConfig } from '@heizplan/contracts/device-profiles';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { units } from './heating.ts';

export const DEVICE_PROTOCOLS = ['lorawan'] as const;

export const devices = pgTable(
  'devices',
  {
    id: text('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    protocol: text('protocol', { enum: DEVICE_PROTOCOLS }).notNull().default('lorawan'),
    devEui: text('dev_eui'),
    joinEui: text('join_eui'),
    /** `v1:<iv>:<tag>:<ciphertext>` (base64) under DEVICE_KEY_SECRET; null = not set. */
    appKeyEncrypted: text('app_key_encrypted'),
    appKeyLast4: text('app_key_last4'),
    /** Codec model id (lorawan/codecs/registry.ts), the "config type" of spec §3. */
    model: text('model').notNull(),
    unitId: uuid('unit_id').references(() => units.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    battery: real('battery'),
    batteryUnit: text('battery_unit', { enum: ['V', '%'] }),
    lastRssi: real('last_rssi'),
    lastSnr: real('last_snr'),
    /** Firmware "major.minor" as the device answered the firmware query; null = not yet known. */
    firmware: text('firmware'),
    /** The device's own frost protection as it last reported it (lorawan/device-settings.ts). */
    antiFreeze: jsonb('anti_freeze').$type<{ activation: number; deactivation: number; target: number }>(),
    /** The configuration the device last reported, field by field (lorawan/device-config.ts). */
    reportedConfig: jsonb('reported_config').$type<ReportedConfig>().notNull().default({}),
    /** LoRa spreading factor (7…12) and application payload length (bytes) of the last uplink. */
    spreadingFactor: smallint('spreading_factor'),
    uplinkBytes: smallint('uplink_bytes'),
    /** A motor recalibration asked for and not yet sent (a one-off command; lorawan/device-config.ts). */
    recalibrateRequestedAt: timestamp('recalibrate_requested_at', { withTimezone: true }),
    /**
     * A relay controller's relays as its last uplink with relay state reported them (closed =
     * true; the LT-22222-L's MOD1 uplink) and that uplink's network-server time: the read-back of
     * a heating circuit's relay output (decision 0077). Null for devices without relays.
     */
    relays: jsonb('relays').$type<{ ro1Closed: boolean; ro2Closed: boolean }>(),
    relaysAt: timestamp('relays_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('devices_dev_eui_key').on(t.devEui),
    index('devices_company_created_idx').on(t.companyId, t.createdAt),
    index('devices_unit_idx').on(t.unitId),
    check('devices_id_length', sql`char_length(${t.id}) between 1 and 16`),
    check(
      'devices_lorawan_dev_eui',
      sql`${t.protocol} <> 'lorawan' or (${t.devEui} = ${t.id} and ${t.id} ~ '^[0-9a-f]{16}$')`,
    ),
  ],
);

export const gateways = pgTable(
  'gateways',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** 16 hex digits, lowercase; unique across companies like a DevEUI. */
    gatewayEui: text('gateway_eui').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    /** Seconds between the gateway's stats messages (ChirpStack default 30). */
    statsIntervalS: integer('stats_interval_s').notNull().default(30),
  },
  (t) => [
    uniqueIndex('gateways_gateway_eui_key').on(t.gatewayEui),
    index('gateways_company_idx').on(t.companyId),
    check('gateways_gateway_eui_hex', sql`${t.gatewayEui} ~ '^[0-9a-f]{16}$'`),
    check('gateways_stats_interval_positive', sql`${t.statsIntervalS} > 0`),
  ],
);
