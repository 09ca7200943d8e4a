/**
 * The alert centre: alerts with their lifecycle, the onsets of slow conditions the
 * ingest tracks, each alert change as an event (history, mail and webhooks read it), members'
 * mail preferences and the company's webhooks with their deliveries. Times UTC.
 */
import { ALERT_KINDS } from '@heizplan/contracts/alerts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies, users } from './accounts.ts';
import { units } from './heating.ts';

/** A company's overrides of the alert defaults (contracts `AlertSettings`, partial). */
export const alertSettings = pgTable('alert_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').notNull().default({}),
});

export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    subject: text('subject', {
      enum: ['device', 'gateway', 'unit', 'company', 'booking_feed', 'building', 'heating_circuit'],
    }).notNull(),
    /**
     * DevEUI, gateway id, unit id, booking feed id, building id, heating circuit id or
     * (company-wide) the company id.
     */
    subjectId: text('subject_id').notNull(),
    /** Device fault code for `device_fault`; '' otherwise (part of the open-alert key). */
    code: text('code').notNull().default(''),
    unitId: uuid('unit_id').references(() => units.id, { onDelete: 'set null' }),
    state: text('state', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    occurrences: integer('occurrences').notNull().default(1),
    /** Since when the condition has been clear; resolves after the company's clear minutes. */
    clearSince: timestamp('clear_since', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    mutedUntil: timestamp('muted_until', { withTimezone: true }),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [
    // One open alert per condition and object: opening again is an upsert on this key.
    uniqueIndex('alerts_open_key')
      .on(t.companyId, t.kind, t.subjectId, t.code)
      .where(sql`${t.state} = 'open'`),
    index('alerts_company_opened_idx').on(t.companyId, t.openedAt),
    index('alerts_open_kind_idx').on(t.kind).where(sql`${t.state} = 'open'`),
  ],
);

/**
 * When a slow condition of a device began (ingest keeps it current: a row while the condition
 * holds, none otherwise); the periodic evaluation opens an alert once it lasted long enough.
 */
export const alertOnsets = pgTable(
  'alert_onsets',
  {
    deviceId: text('device_id').notNull(),
    condition: text('condition', { enum: ['frost', 'not_warming', 'far_from_setpoint'] }).notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true }).notNull(),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.condition] }), index('alert_onsets_since_idx').on(t.since)],
);

/** Every change of an alert: the history, and the queue mail and webhooks work from. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['opened', 'repeated', 'acknowledged', 'muted', 'resolved'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('alert_events_company_at_idx').on(t.companyId, t.at)],
);

/** A member's choice per kind; absent = the default of their role. */
export const alertPreferences = pgTable(
  'alert_preferences',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    mode: text('mode', { enum: ['immediate', 'digest', 'off'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.kind] })],
);

/** The last alert mail of each kind a member got, so digests and repeats keep their pace. */
export const alertMailLog = pgTable(
  'alert_mail_log',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `immediate` or `digest`. */
    channel: text('channel', { enum: ['immediate', 'digest'] }).notNull(),
    /** Alert events up to this instant were mailed on this channel. */
    mailedUntil: timestamp('mailed_until', { withTimezone: true }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.channel] })],
);

/** When an open alert was last mailed to a member (repeat after the company's repeat hours). */
export const alertMailed = pgTable(
  'alert_mailed',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.userId] })],
);

export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** HMAC-SHA256 key, hex. */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_company_idx').on(t.companyId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);
