/**
 * State that several server instances share through the database (docs/decisions/0032).
 *
 * `mqtt_sessions` is the registry of the persistent MQTT sessions Heizplan keeps on an external
 * broker. An instance uses a session only while it holds its lease (`holder`, `lease_until`,
 * renewed every few seconds); a session whose lease ran out while it still subscribes `filters`
 * belongs to an instance that died or was scaled away, and another instance adopts it: it
 * unsubscribes, ingests what the broker queued for it and then ends it.
 *
 * `rate_limit_windows` holds the fixed-window counters of `@fastify/rate-limit` when the
 * instances share them (INSTANCES > 1).
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const mqttSessions = pgTable('mqtt_sessions', {
  /** MQTT client id of the session. */
  clientId: text('client_id').primaryKey(),
  /** n of a shared-subscription member `<MQTT_CLIENT_ID>-<n>`; null for a plain session. */
  slot: integer('slot'),
  /** Topic filters the session subscribes at the broker; empty once it has been ended. */
  filters: text('filters').array().notNull().default([]),
  /** Instance (random id per process) holding the lease; null when free. */
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});

export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    /** End of the counting window; a hit after it starts a new one, rows long past it are purged. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_windows_expires_idx').on(t.expiresAt)],
);
