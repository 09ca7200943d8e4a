/**
 * Fetching a booking feed and recording the result (decision 0053), for the sync job (every
 * feed every FEED_SYNC_INTERVAL_MS, claimed once across instances) and the "sync now" endpoint.
 *
 * A successful fetch replaces the feed's bookings in one transaction with its status; a failed
 * one keeps the bookings of the last success and records the reason, in English and as a code
 * with params for the web's texts (the feed is stale from then on, so the engine leaves its
 * bookings out). Whenever that changes what the engine sees — other bookings, or the feed
 * turning fresh or stale — the feed's rooms are marked due and the scheduler is woken, so a new
 * booking reaches the valves and the preview within seconds. A sync whose feed was deleted, or
 * whose address or credentials changed while it fetched, records nothing.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { FEED_STALE_AFTER_MS, FEED_SYNC_INTERVAL_MS } from '@heizplan/contracts/booking-feeds';
import type { Db } from '../../db/client.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import type { AppKeyCipher } from '../devices/app-key-cipher.ts';
import * as repo from './booking-feeds.repository.ts';
import { basicAuth, fetchCalDavDocuments } from './caldav.ts';
import { FeedFetchError, type FeedFetchOptions, feedFetch, httpUrlOf } from './feed-fetch.ts';
import {
  BOOKINGS_AHEAD_MS,
  BOOKINGS_BACK_MS,
  type BookingRules,
  bookingHeats,
  FeedParseError,
  type ParsedBooking,
  parseBookings,
} from './ics.ts';

/** What a sync needs besides the feed. */
export interface FeedSyncDeps {
  db: Db;
  now: () => Date;
  /** The fetch guards (FEEDS_ALLOW_PRIVATE, the app's own origin, limits). */
  fetch: FeedFetchOptions;
  /** Decrypts stored CalDAV passwords. */
  cipher: () => Promise<AppKeyCipher>;
  /** Wakes the heating scheduler after rooms were marked due. */
  wake: () => void;
}

export interface SyncResult {
  /** False when the fetch or the parse failed (`error` says why). */
  ok: boolean;
  error?: string;
  /** False when the feed changed or vanished meanwhile and nothing was recorded. */
  recorded: boolean;
}

/** `pending` before the first fetch; `stale` after a failed one or 24 h without success; else `ok`. */
export function feedStatus(
  feed: Pick<repo.FeedRow, 'lastSyncAt' | 'lastSuccessAt' | 'lastError'>,
  now: Date,
): 'pending' | 'ok' | 'stale' {
  if (!feed.lastSyncAt) return 'pending';
  if (feed.lastError !== null || !feed.lastSuccessAt) return 'stale';
  return feed.lastSuccessAt.getTime() > now.getTime() - FEED_STALE_AFTER_MS ? 'ok' : 'stale';
}

/** True when the address or credentials of two versions of a feed differ (the fetch is void). */
export function connectionChanged(a: repo.FeedRow, b: repo.FeedRow): boolean {
  return a.kind !== b.kind || a.url !== b.url || a.username !== b.username || a.password !== b.password;
}

/** The URL without user information, and the credentials it or the feed carries. */
function credentialsOf(
  feed: repo.FeedRow,
  password: string | null,
): { url: string; auth: { username: string; password: string } | null } {
  const url = new URL(httpUrlOf(feed.url));
  const fromUrl = url.username
    ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
    : null;
  url.username = '';
  url.password = '';
  const auth = feed.username ? { username: feed.username, password: password ?? '' } : fromUrl;
  return { url: url.toString(), auth };
}

/** A digest of what the engine reads of the bookings: a repeat of the same fetch changes nothing. */
function contentHash(rows: { id: string; start: Date; end: Date; heats: boolean }[]): string {
  const hash = createHash('sha256');
  for (const r of rows) hash.update(`${r.id}|${r.start.getTime()}|${r.end.getTime()}|${r.heats ? 1 : 0}\n`);
  return hash.digest('hex');
}

/**
 * Records a successful fetch of `feed` (its locked row) at `now`: its bookings that have not
 * ended replaced by `parsed` with the feed's rules applied (ended ones stay as they heated), its
 * status fresh. Call inside a transaction.
 * @returns whether what the engine reads of the bookings changed.
 */
export async function storeBookings(
  tx: Db,
  feed: repo.FeedRow,
  parsed: ParsedBooking[],
  now: Date,
): Promise<boolean> {
  const rules: BookingRules = feed;
  const rows = parsed.map((b) => ({ ...b, heats: bookingHeats(b, rules) }));
  const hash = contentHash(rows);
  await repo.replaceBookings(tx, feed.id, rows, now);
  await repo.updateFeed(tx, feed.companyId, feed.id, {
    lastSyncAt: now,
    lastSuccessAt: now,
    lastError: null,
    lastErrorCode: null,
    lastErrorParams: null,
    bookingCount: rows.filter((r) => r.heats).length,
    contentHash: hash,
  });
  return hash !== feed.contentHash;
}

/** The feed's bookings in the window from the calendar, or why they could not be read. */
async function fetchBookings(deps: FeedSyncDeps, feed: repo.SyncFeed, now: Date): Promise<ParsedBooking[]> {
  const from = new Date(now.getTime() - BOOKINGS_BACK_MS);
  const to = new Date(now.getTime() + BOOKINGS_AHEAD_MS);
  const password = feed.password ? (await deps.cipher()).decrypt(feed.password, feed.id) : null;
  const { url, auth } = credentialsOf(feed, password);
  const client = feedFetch(deps.fetch);
  let documents: string[];
  if (feed.kind === 'caldav') {
    documents = await fetchCalDavDocuments(url, auth, client, from, to);
  } else {
    const res = await client(url, {
      headers: {
        accept: 'text/calendar, */*;q=0.5',
        ...(auth ? { authorization: basicAuth(auth.username, auth.password) } : {}),
      },
    });
    if (!res.ok) {
      // A server may send no reason phrase (HTTP/2 has none): the status's standard one stands in.
      const statusText = res.statusText || (STATUS_CODES[res.status] ?? '');
      throw new FeedFetchError(
        `The server answered HTTP ${res.status} ${statusText}`.trim(),
        'feed_http_status',
        { status: res.status, statusText },
      );
    }
    documents = [await res.text()];
  }
  return parseBookings(feed.id, documents, feed.timeZone, from, to);
}

/**
 * Fetches `feed` and records the result (module doc). Never throws for a feed's own failure
 * (unreachable, refused, no iCalendar, too many bookings): that is recorded as its `lastError`,
 * `lastErrorCode` and `lastErrorParams`.
 * @throws only database errors.
 */
export async function syncFeed(deps: FeedSyncDeps, feed: repo.SyncFeed): Promise<SyncResult> {
  const started = deps.now();
  let parsed: ParsedBooking[] | undefined;
  let failure: FeedFetchError | FeedParseError | undefined;
  try {
    parsed = await fetchBookings(deps, feed, started);
  } catch (err) {
    if (!(err instanceof FeedFetchError || err instanceof FeedParseError)) throw err;
    failure = err;
  }
  const now = deps.now();
  const recorded = await deps.db.transaction(async (tx) => {
    const current = await repo.lockFeed(tx, feed.id);
    if (!current || connectionChanged(current, feed)) return false;
    const wasOk = feedStatus(current, now) === 'ok';
    const units = await repo.feedUnitIds(tx, feed.id);
    if (!parsed) {
      await repo.updateFeed(tx, current.companyId, feed.id, {
        lastSyncAt: now,
        lastError: failure?.message ?? 'Unknown error',
        lastErrorCode: failure?.code ?? null,
        lastErrorParams: failure?.params ?? null,
      });
      // Its bookings stop counting now (if the 24 hours had not done so already): the rooms fall
      // back to their plans.
      if (current.lastError === null && current.lastSuccessAt !== null)
        await inputsChanged(tx, { companyId: current.companyId, unitIds: units }, now);
      return true;
    }
    const changed = await storeBookings(tx, current, parsed, now);
    if (!wasOk || changed) await inputsChanged(tx, { companyId: current.companyId, unitIds: units }, now);
    return true;
  });
  if (recorded) deps.wake();
  return failure === undefined ? { ok: true, recorded } : { ok: false, error: failure.message, recorded };
}

/**
 * The sync job's work at `now`: claims due feeds in batches (each once across instances, see
 * `claimDueFeeds`) and syncs them, `concurrency` at a time, until none is due.
 * @returns how many were fetched and how many of those failed.
 */
export async function syncDueFeeds(
  deps: FeedSyncDeps,
  options: { batch?: number; concurrency?: number; intervalMs?: number } = {},
): Promise<{ synced: number; failed: number }> {
  const batch = options.batch ?? 20;
  const concurrency = options.concurrency ?? 5;
  const intervalMs = options.intervalMs ?? FEED_SYNC_INTERVAL_MS;
  let synced = 0;
  let failed = 0;
  for (;;) {
    const feeds = await repo.claimDueFeeds(deps.db, deps.now(), intervalMs, batch);
    const queue = [...feeds];
    const worker = async () => {
      for (let feed = queue.shift(); feed; feed = queue.shift()) {
        const result = await syncFeed(deps, feed);
        synced++;
        if (!result.ok) failed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    if (feeds.length < batch) return { synced, failed };
  }
}
