/**
 * Booking feeds (decision 0053): a room's calendar (an ICS URL or a CalDAV collection) whose
 * bookings heat the room and the rooms linked to it (`booking_feed_units`). `bookings` holds what
 * the last successful fetch found from 8 days back to 400 days ahead, replaced as a whole in one
 * transaction per successful sync. Instants UTC; temperatures °C; durations minutes.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
import { units } from './heating.ts';

export const bookingFeeds = pgTable(
  'booking_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The room whose bookings these are. */
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['ics', 'caldav'] }).notNull(),
    /** As entered (webcal:// is fetched as https://); may hold credentials, never sent back as is. */
    url: text('url').notNull(),
    /** CalDAV user name; '' for none. */
    username: text('username').notNull().default(''),
    /**
     * CalDAV password, `v1:<iv>:<tag>:<ciphertext>` (AES-256-GCM under the device key, the feed id
     * as additional data, like device AppKeys); null = none. Never returned by the API.
     */
    password: text('password'),
    minDurationMinutes: integer('min_duration_minutes').notNull().default(0),
    /** Bookings whose title contains this (case-insensitive) do not heat; '' for none. */
    ignoreKeyword: text('ignore_keyword').notNull().default(''),
    preheatMinutes: integer('preheat_minutes').notNull().default(30),
    /** °C during a booking; null = the highest switch point of that day's plan. */
    temperature: real('temperature'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** English reason the last fetch failed; null after a success. */
    lastError: text('last_error'),
    /**
     * `last_error` as a code of BOOKING_FEED_ERROR_CODES (contracts) for the web's texts; null
     * after a success and for failures recorded before the codes.
     */
    lastErrorCode: text('last_error_code'),
    /** The values of `last_error_code`'s text; null whenever it is null. */
    lastErrorParams: jsonb('last_error_params').$type<Record<string, string | number>>(),
    /** Bookings of the last successful fetch that heat. */
    bookingCount: integer('booking_count').notNull().default(0),
    /**
     * Digest of what the engine reads of the last successful fetch (ids, times, heats): a sync that
     * finds the same bookings leaves the rooms alone.
     */
    contentHash: text('content_hash').notNull().default(''),
    /** When the sync job fetches the feed next; claiming it moves this one interval ahead. */
    nextSyncAt: timestamp('next_sync_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Every change of the feed's settings; a sync started before one discards its result. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('booking_feeds_company_idx').on(t.companyId),
    index('booking_feeds_unit_idx').on(t.unitId),
    index('booking_feeds_next_sync_idx').on(t.nextSyncAt),
  ],
);

/** Rooms heated along with a feed's own room (corridor, WC). */
export const bookingFeedUnits = pgTable(
  'booking_feed_units',
  {
    feedId: uuid('feed_id')
      .notNull()
      .references(() => bookingFeeds.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.unitId] }), index('booking_feed_units_unit_idx').on(t.unitId)],
);

/** One booking (one occurrence of a recurring one) as the feed's last successful fetch found it. */
export const bookings = pgTable(
  'bookings',
  {
    /** Derived from feed, UID and occurrence, so it stays the same across syncs. */
    id: uuid('id').primaryKey(),
    feedId: uuid('feed_id')
      .notNull()
      .references(() => bookingFeeds.id, { onDelete: 'cascade' }),
    /** The calendar event's UID. */
    uid: text('uid').notNull(),
    /** The occurrence's original start (ISO) for an instance of a recurring event; '' otherwise. */
    recurrenceId: text('recurrence_id').notNull().default(''),
    title: text('title').notNull(),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }).notNull(),
    /** False when a feed rule leaves it out (too short, keyword in the title). */
    heats: boolean('heats').notNull(),
  },
  (t) => [
    index('bookings_feed_start_idx').on(t.feedId, t.start),
    check('bookings_end_check', sql`${t.end} > ${t.start}`),
  ],
);
