/**
 * Booking feeds under `/api/companies/{companyId}/booking-feeds` (decision 0053): a room's
 * calendar — the ICS export of Microsoft 365, Google Workspace, Nextcloud or a room-booking tool,
 * or a CalDAV calendar — whose bookings make the room (and the rooms linked to it) comfortable
 * for their duration, starting a fixed pre-heat lead earlier. The server fetches each feed every
 * 15 minutes and on demand; a feed whose last fetch failed or whose bookings are older than 24 h
 * is stale: its bookings stop counting (the room falls back to its plan) and an alert of kind
 * `booking_feed_stale` opens. Instants are ISO-8601 UTC; temperatures °C; durations minutes.
 */
import { z } from 'zod';
import { ActorSchema, CompanyParamsSchema } from './heating.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

/** `ics`: an iCalendar URL fetched over http(s); `caldav`: a CalDAV calendar collection. */
export const BookingFeedKindSchema = z.enum(['ics', 'caldav']);
export type BookingFeedKind = z.infer<typeof BookingFeedKindSchema>;

export const BookingFeedParamsSchema = CompanyParamsSchema.extend({ feedId: z.uuid() });

/** Default: bookings whose title contains this (case-insensitive) do not heat. */
export const DEFAULT_IGNORE_KEYWORD = 'nicht heizen';
/** Default pre-heat lead (minutes) until optimum start learns it per room. */
export const DEFAULT_PREHEAT_MINUTES = 30;
export const PREHEAT_MAX_MINUTES = 240;
/** Longest "ignore bookings shorter than" rule (minutes). */
export const MIN_DURATION_MAX_MINUTES = 24 * 60;
/** Rooms a feed may heat besides its own (corridor, WC). */
export const LINKED_UNITS_MAX = 20;
/** A feed whose last successful fetch is older than this is stale (ms). */
export const FEED_STALE_AFTER_MS = 24 * 3_600_000;
/** How often each feed is fetched (ms). */
export const FEED_SYNC_INTERVAL_MS = 15 * 60_000;

/**
 * Why a feed's last fetch failed, as `lastErrorCode` with its `lastErrorParams`: the web shows
 * these in the user's language (`web/src/locales/<lng>/booking-feeds.json`, `errors.<code>`);
 * `lastError` keeps the English sentence for the log and API users. A web test checks that each
 * code has a German and an English text.
 */
export const BOOKING_FEED_ERROR_CODES = [
  /** An address other than http(s). params: scheme (e.g. `ftp://`) */
  'feed_scheme',
  /** The address is, or resolves to, a non-public one. params: address */
  'feed_private_address',
  /** No complete answer before the sync's deadline. params: seconds */
  'feed_timeout',
  /** The host name does not resolve. params: host */
  'feed_name_unresolved',
  /** params: host (with port) */
  'feed_connection_refused',
  /** params: host (with port) */
  'feed_connection_closed',
  /** Any other connection error. params: reason (English, from the network stack) */
  'feed_connection_failed',
  /** An answer over the size limit. params: megabytes */
  'feed_too_large',
  /** params: max */
  'feed_too_many_redirects',
  /** The server (ICS or CalDAV) refused. params: status, statusText (may be empty) */
  'feed_http_status',
  /** A CalDAV query that failed without an HTTP status. params: reason (English, from tsdav) */
  'feed_caldav_failed',
  /** The answer does not begin with BEGIN:VCALENDAR (a login page, say). */
  'feed_not_icalendar',
  /** The iCalendar data cannot be parsed. params: reason (English, from the parser) */
  'feed_unreadable',
  /** An event's recurrence cannot be expanded. params: uid (may be empty), reason (English) */
  'feed_recurrence',
  /** More bookings in the window than a feed may have. params: max */
  'feed_too_many_bookings',
] as const;
export type BookingFeedErrorCode = (typeof BOOKING_FEED_ERROR_CODES)[number];

const Ref = z.object({ id: z.uuid(), name: z.string() });

/** `ok`: last fetch succeeded within 24 h; `stale`: failed or too old; `pending`: never fetched yet. */
export const BookingFeedStatusSchema = z.enum(['pending', 'ok', 'stale']);
export type BookingFeedStatus = z.infer<typeof BookingFeedStatusSchema>;

export const BookingFeedSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: BookingFeedKindSchema,
  /** The room whose bookings these are. */
  unit: Ref,
  /** Rooms heated along with it (corridor, WC). */
  linkedUnits: z.array(Ref),
  /** ICS URL or CalDAV calendar URL, with any password in it replaced by `***`. */
  url: z.string(),
  /** CalDAV user name; empty for ICS. */
  username: z.string(),
  /** True when a CalDAV password is stored (it is never sent back). */
  hasPassword: z.boolean(),
  /** Bookings shorter than this (minutes) do not heat. */
  minDurationMinutes: z.number().int(),
  /** Bookings whose title contains this (case-insensitive) do not heat; empty for none. */
  ignoreKeyword: z.string(),
  /** Heating starts this many minutes before a booking. */
  preheatMinutes: z.number().int(),
  /** °C during a booking; null for the highest switch point of that day's plan. */
  temperature: z.number().nullable(),
  status: BookingFeedStatusSchema,
  lastSyncAt: z.iso.datetime().nullable(),
  lastSuccessAt: z.iso.datetime().nullable(),
  /** Why the last fetch failed (English, for the log); null after a success. */
  lastError: z.string().nullable(),
  /**
   * `lastError` as one of BOOKING_FEED_ERROR_CODES, for the web's texts; null after a success and
   * for failures recorded before codes existed. A plain string so an older web parses a newer code.
   */
  lastErrorCode: z.string().nullable(),
  /** The values of `lastErrorCode`'s text; null whenever it is null. */
  lastErrorParams: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  /** Bookings of the last successful fetch that heat (from 8 days back to 400 days ahead). */
  bookingCount: z.number().int(),
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type BookingFeed = z.infer<typeof BookingFeedSchema>;
export const BookingFeedPageSchema = pageOf(BookingFeedSchema);
export type BookingFeedPage = z.infer<typeof BookingFeedPageSchema>;

const feedUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^(https?|webcal):\/\//i, 'The address must start with http://, https:// or webcal://.');

export const BookingFeedInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  kind: BookingFeedKindSchema.default('ics'),
  unitId: z.uuid(),
  linkedUnitIds: z.array(z.uuid()).max(LINKED_UNITS_MAX).default([]),
  url: feedUrl,
  username: z.string().trim().max(200).default(''),
  password: z.string().max(500).optional(),
  minDurationMinutes: z.number().int().min(0).max(MIN_DURATION_MAX_MINUTES).default(0),
  ignoreKeyword: z.string().trim().max(100).default(DEFAULT_IGNORE_KEYWORD),
  preheatMinutes: z.number().int().min(0).max(PREHEAT_MAX_MINUTES).default(DEFAULT_PREHEAT_MINUTES),
  temperature: z.number().min(0).max(40).nullable().default(null),
});
export type BookingFeedInput = z.input<typeof BookingFeedInputSchema>;

/** Partial update: only the fields given change; a new `url` or `password` syncs the feed again. */
export const BookingFeedUpdateSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  kind: BookingFeedKindSchema.optional(),
  unitId: z.uuid().optional(),
  linkedUnitIds: z.array(z.uuid()).max(LINKED_UNITS_MAX).optional(),
  url: feedUrl.optional(),
  username: z.string().trim().max(200).optional(),
  password: z.string().max(500).optional(),
  minDurationMinutes: z.number().int().min(0).max(MIN_DURATION_MAX_MINUTES).optional(),
  ignoreKeyword: z.string().trim().max(100).optional(),
  preheatMinutes: z.number().int().min(0).max(PREHEAT_MAX_MINUTES).optional(),
  temperature: z.number().min(0).max(40).nullable().optional(),
});
export type BookingFeedUpdate = z.infer<typeof BookingFeedUpdateSchema>;

export const BookingFeedListQuerySchema = PageQuerySchema.extend({
  /** Only feeds of this room (as its own or a linked room). */
  unitId: z.uuid().optional(),
  /**
   * Only feeds whose own room or a linked room is in this building of the company; another
   * company's or an unknown building: 404 `unknown_building`.
   */
  buildingId: z.uuid().optional(),
});

/** One booking of a feed, as the last successful fetch found it. */
export const BookingSchema = z.object({
  id: z.string(),
  title: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  /** False when a feed rule leaves it out (too short, keyword in the title). */
  heats: z.boolean(),
});
export type Booking = z.infer<typeof BookingSchema>;
/** `GET …/booking-feeds/{feedId}/bookings`: the next 14 days' bookings, by start. */
export const BookingListSchema = z.object({ results: z.array(BookingSchema) });
export type BookingList = z.infer<typeof BookingListSchema>;
