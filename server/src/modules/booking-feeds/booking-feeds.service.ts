/**
 * Booking feeds (decision 0053): a room's calendar whose bookings heat it and the rooms linked to
 * it. Every method checks membership first (404 for strangers; reading needs `read`, everything
 * else `operate`). Rules:
 * - the room and the linked rooms must be the company's (404 `unknown_unit`); linked rooms are
 *   kept without duplicates and without the feed's own room;
 * - the address must not name a loopback, link-local, private or unique-local address (400
 *   `booking_feed_address_private`) unless FEEDS_ALLOW_PRIVATE or it is the app's own origin;
 *   the fetch checks again at every connection (feed-fetch.ts);
 * - a CalDAV password is stored encrypted and never returned; a password in the URL is shown as
 *   `***`, and that masked URL sent back unchanged keeps the stored one;
 * - a new address, kind, user name or password drops the bookings of the old calendar, sets the
 *   feed back to `pending` and has the sync job fetch it at once;
 * - new rules (minimum duration, ignore keyword) are applied to the stored bookings at once;
 * - the list filtered by a building needs a building of the company (404 `unknown_building`).
 * A change of what the heating reads (rooms, rules, pre-heat, temperature, bookings) marks the
 * rooms before and after due in the same transaction and wakes the scheduler.
 */
import { randomUUID } from 'node:crypto';
import {
  type BookingFeed,
  type BookingFeedInputSchema,
  type BookingFeedListQuerySchema,
  type BookingFeedUpdate,
  type BookingList,
  FEED_SYNC_INTERVAL_MS,
} from '@heizplan/contracts/booking-feeds';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { privateTargetOf } from '../alerts/webhook-address.ts';
import { isCompanyBuilding } from '../buildings/buildings.service.ts';
import type { AppKeyCipher } from '../devices/app-key-cipher.ts';
import { ownedUnitIds } from '../units/units.service.ts';
import * as repo from './booking-feeds.repository.ts';
import { type FeedFetchOptions, httpUrlOf } from './feed-fetch.ts';
import { BOOKINGS_BACK_MS, bookingHeats } from './ics.ts';
import { feedStatus, syncDueFeeds, syncFeed } from './sync.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { companyBookingsBetween } from './booking-feeds.repository.ts';

type FeedInput = z.output<typeof BookingFeedInputSchema>;
type ListQuery = z.output<typeof BookingFeedListQuerySchema>;

/** Bookings `GET …/bookings` lists: the next 14 days. */
const BOOKINGS_LIST_MS = 14 * 86_400_000;

export interface BookingFeedsDeps {
  db: Db;
  now: () => Date;
  /** Wakes the heating scheduler after rooms were marked due. */
  wake: () => void;
  /** Encrypts and decrypts CalDAV passwords (the device key, like AppKeys). */
  cipher: () => Promise<AppKeyCipher>;
  /** The fetch guards: FEEDS_ALLOW_PRIVATE and the app's own origin. */
  fetch: FeedFetchOptions;
}

/** The URL with a password in it replaced by `***` (contracts: `BookingFeed.url`). */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** The settings of a feed as the service checks and stores them. */
interface Draft {
  name: string;
  kind: 'ics' | 'caldav';
  unitId: string;
  linkedUnitIds: string[];
  url: string;
  username: string;
  minDurationMinutes: number;
  ignoreKeyword: string;
  preheatMinutes: number;
  temperature: number | null;
}

/** What the heating reads of a feed besides its bookings: a change marks its rooms due. */
const heatingKey = (d: Draft) =>
  JSON.stringify([d.unitId, [...d.linkedUnitIds].sort(), d.preheatMinutes, d.temperature]);
const rulesKey = (d: Pick<Draft, 'minDurationMinutes' | 'ignoreKeyword'>) =>
  `${d.minDurationMinutes}|${d.ignoreKeyword}`;

export class BookingFeedsService {
  constructor(private readonly deps: BookingFeedsDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** @throws 404 `unknown_building` for a `buildingId` that is not the company's. */
  async list(userId: string, companyId: string, q: ListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    if (q.buildingId && !(await isCompanyBuilding(this.db, companyId, q.buildingId)))
      throw notFound('Unknown building', { code: 'unknown_building' });
    const { rows, count } = await repo.listFeeds(this.db, companyId, q);
    return { results: await this.toResponses(rows), count, page: q.page, size: q.size };
  }

  /** @throws 404 `unknown_booking_feed` (also another company's). */
  async get(userId: string, companyId: string, feedId: string): Promise<BookingFeed> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.load(companyId, feedId);
  }

  /**
   * Creates the feed; the sync job fetches it within moments.
   * @throws 404 `unknown_unit`, 400 `booking_feed_address_private`.
   */
  async create(userId: string, companyId: string, input: FeedInput): Promise<BookingFeed> {
    await requireMember(this.db, userId, companyId, 'operate');
    const draft = normalise({ ...input });
    await this.requireOwnUnits(companyId, draft);
    await this.requirePublicAddress(draft.url);
    const id = randomUUID();
    const password = input.password ? (await this.deps.cipher()).encrypt(input.password, id) : null;
    const now = this.deps.now();
    await this.db.transaction((tx) =>
      repo.insertFeed(
        tx,
        {
          id,
          companyId,
          ...columnsOf(draft),
          password,
          createdBy: userId,
          createdAt: now,
          updatedAt: now,
          nextSyncAt: now,
        },
        draft.linkedUnitIds,
      ),
    );
    return this.load(companyId, id);
  }

  /**
   * Changes only the fields given (see the module doc for what follows from them).
   * @throws 404 `unknown_booking_feed` / `unknown_unit`, 400 `booking_feed_address_private`.
   */
  async update(
    userId: string,
    companyId: string,
    feedId: string,
    patch: BookingFeedUpdate,
  ): Promise<BookingFeed> {
    await requireMember(this.db, userId, companyId, 'operate');
    const current = await this.loadRecord(companyId, feedId);
    const row = current.feed;
    const linked = (await repo.linkedUnitsOf(this.db, [feedId])).get(feedId)?.map((u) => u.id) ?? [];
    const before: Draft = { ...row, linkedUnitIds: linked };
    // The masked URL the API showed, sent back as it was, keeps the stored one.
    const url = patch.url === undefined || patch.url === maskedUrl(row.url) ? row.url : patch.url;
    const after = normalise({
      name: patch.name ?? row.name,
      kind: patch.kind ?? row.kind,
      unitId: patch.unitId ?? row.unitId,
      linkedUnitIds: patch.linkedUnitIds ?? linked,
      url,
      username: patch.username ?? row.username,
      minDurationMinutes: patch.minDurationMinutes ?? row.minDurationMinutes,
      ignoreKeyword: patch.ignoreKeyword ?? row.ignoreKeyword,
      preheatMinutes: patch.preheatMinutes ?? row.preheatMinutes,
      temperature: patch.temperature === undefined ? row.temperature : patch.temperature,
    });
    await this.requireOwnUnits(companyId, after);
    if (url !== row.url) await this.requirePublicAddress(url);
    let password = row.password;
    if (patch.password !== undefined)
      password = patch.password === '' ? null : (await this.deps.cipher()).encrypt(patch.password, feedId);
    const reconnect =
      after.kind !== row.kind ||
      after.url !== row.url ||
      after.username !== row.username ||
      patch.password !== undefined;
    const rulesChanged = rulesKey(after) !== rulesKey(before);
    const now = this.deps.now();
    await this.db.transaction(async (tx) => {
      const unitsBefore = await repo.feedUnitIds(tx, feedId);
      await repo.updateFeed(
        tx,
        companyId,
        feedId,
        {
          ...columnsOf(after),
          password,
          updatedAt: now,
          ...(reconnect
            ? {
                lastSyncAt: null,
                lastSuccessAt: null,
                lastError: null,
                lastErrorCode: null,
                lastErrorParams: null,
                bookingCount: 0,
                contentHash: '',
                nextSyncAt: now,
              }
            : {}),
        },
        patch.linkedUnitIds !== undefined ? after.linkedUnitIds : undefined,
      );
      // Another calendar: its bookings replace the old one's from now on; those that ended stay.
      if (reconnect) await repo.replaceBookings(tx, feedId, [], now);
      else if (rulesChanged) await reapplyRules(tx, companyId, feedId, after, now);
      if (reconnect || rulesChanged || heatingKey(after) !== heatingKey(before)) {
        await inputsChanged(
          tx,
          { companyId, unitIds: unique([...unitsBefore, after.unitId, ...after.linkedUnitIds]) },
          now,
        );
      }
    });
    this.deps.wake();
    return this.load(companyId, feedId);
  }

  /** Deletes the feed; its bookings stop heating at once. @throws 404 `unknown_booking_feed`. */
  async remove(userId: string, companyId: string, feedId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.loadRecord(companyId, feedId);
    await this.db.transaction(async (tx) => {
      const unitIds = await repo.feedUnitIds(tx, feedId);
      await repo.deleteFeed(tx, companyId, feedId);
      await inputsChanged(tx, { companyId, unitIds }, this.deps.now());
    });
    this.deps.wake();
  }

  /**
   * Fetches the feed now (the job's next fetch follows one interval later) and answers it with
   * its status: a failed fetch is no error of the request, it shows as `stale` with `lastError`.
   * @throws 404 `unknown_booking_feed`.
   */
  async sync(userId: string, companyId: string, feedId: string): Promise<BookingFeed> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.loadRecord(companyId, feedId);
    const [feed] = await repo.feedsForSync(this.db, [feedId]);
    if (feed) {
      await repo.scheduleSync(this.db, feedId, new Date(this.deps.now().getTime() + FEED_SYNC_INTERVAL_MS));
      await syncFeed(this.deps, feed);
    }
    return this.load(companyId, feedId);
  }

  /**
   * The sync job's work (no member involved): fetches every due feed, each once per interval
   * across instances (`syncDueFeeds`). @returns how many were fetched and how many failed.
   */
  async syncDue(): Promise<{ synced: number; failed: number }> {
    return syncDueFeeds(this.deps);
  }

  /** The feed's bookings of the next 14 days, by start. @throws 404 `unknown_booking_feed`. */
  async bookings(userId: string, companyId: string, feedId: string): Promise<BookingList> {
    await requireMember(this.db, userId, companyId, 'read');
    await this.loadRecord(companyId, feedId);
    const now = this.deps.now();
    const rows = await repo.bookingsBetween(this.db, feedId, now, new Date(now.getTime() + BOOKINGS_LIST_MS));
    return {
      results: rows.map((b) => ({
        id: b.id,
        title: b.title,
        start: b.start.toISOString(),
        end: b.end.toISOString(),
        heats: b.heats,
      })),
    };
  }

  /** @throws HttpError 404 `unknown_unit` when the room or a linked room is not the company's. */
  private async requireOwnUnits(companyId: string, d: Draft) {
    const ids = unique([d.unitId, ...d.linkedUnitIds]);
    const owned = await ownedUnitIds(this.db, companyId, ids);
    if (owned.length !== ids.length) throw notFound('Unknown unit', { code: 'unknown_unit' });
  }

  /**
   * @throws HttpError 400 `booking_feed_address_private` (params address) when the URL names or
   * resolves to a non-public address and neither FEEDS_ALLOW_PRIVATE nor the own origin allows it.
   */
  private async requirePublicAddress(url: string) {
    const target = new URL(httpUrlOf(url));
    const { allowPrivate, ownOrigin } = this.deps.fetch;
    if (allowPrivate || target.origin === ownOrigin) return;
    const address = await privateTargetOf(target.toString());
    if (!address) return;
    const message = `The address ${address} is not public; booking feeds are fetched only from public addresses.`;
    const reason = { code: 'booking_feed_address_private', params: { address } } as const;
    throw badRequest(message, [{ field: 'url', message, ...reason }], reason);
  }

  private async loadRecord(companyId: string, feedId: string): Promise<repo.FeedRecord> {
    const record = await repo.findFeed(this.db, companyId, feedId);
    if (!record) throw notFound('Unknown booking feed', { code: 'unknown_booking_feed' });
    return record;
  }

  private async load(companyId: string, feedId: string): Promise<BookingFeed> {
    const [feed] = await this.toResponses([await this.loadRecord(companyId, feedId)]);
    if (!feed) throw notFound('Unknown booking feed', { code: 'unknown_booking_feed' });
    return feed;
  }

  private async toResponses(records: repo.FeedRecord[]): Promise<BookingFeed[]> {
    const linked = await repo.linkedUnitsOf(
      this.db,
      records.map((r) => r.feed.id),
    );
    const now = this.deps.now();
    return records.map(({ feed: f, unitName, creatorName }) => ({
      id: f.id,
      name: f.name,
      kind: f.kind,
      unit: { id: f.unitId, name: unitName },
      linkedUnits: linked.get(f.id) ?? [],
      url: maskedUrl(f.url),
      username: f.username,
      hasPassword: f.password !== null,
      minDurationMinutes: f.minDurationMinutes,
      ignoreKeyword: f.ignoreKeyword,
      preheatMinutes: f.preheatMinutes,
      temperature: f.temperature,
      status: feedStatus(f, now),
      lastSyncAt: f.lastSyncAt?.toISOString() ?? null,
      lastSuccessAt: f.lastSuccessAt?.toISOString() ?? null,
      lastError: f.lastError,
      lastErrorCode: f.lastErrorCode,
      lastErrorParams: f.lastErrorParams,
      bookingCount: f.bookingCount,
      createdAt: f.createdAt.toISOString(),
      createdBy: f.createdBy ? { id: f.createdBy, name: creatorName ?? '' } : null,
    }));
  }
}

/** Linked rooms without duplicates and without the feed's own room. */
function normalise<D extends Draft>(d: D): D {
  return { ...d, linkedUnitIds: unique(d.linkedUnitIds).filter((id) => id !== d.unitId) };
}

function columnsOf(d: Draft) {
  return {
    name: d.name,
    kind: d.kind,
    unitId: d.unitId,
    url: d.url,
    username: d.username,
    minDurationMinutes: d.minDurationMinutes,
    ignoreKeyword: d.ignoreKeyword,
    preheatMinutes: d.preheatMinutes,
    temperature: d.temperature,
  };
}

/**
 * Applies new rules to the stored bookings that have not ended by `now` (ended ones heated as
 * they did), and counts the heating ones of the sync's window; call inside the transaction.
 */
async function reapplyRules(tx: Db, companyId: string, feedId: string, rules: Draft, now: Date) {
  const rows = await repo.bookingsEndingAfter(tx, feedId, new Date(now.getTime() - BOOKINGS_BACK_MS));
  const changes = rows.flatMap((b) => {
    if (b.end.getTime() <= now.getTime()) return [];
    const heats = bookingHeats(b, rules);
    return heats === b.heats ? [] : [{ id: b.id, heats }];
  });
  await repo.setHeats(tx, changes);
  const changed = new Map(changes.map((c) => [c.id, c.heats]));
  const bookingCount = rows.filter((b) => changed.get(b.id) ?? b.heats).length;
  // The digest no longer matches the bookings: the next sync counts as a change.
  await repo.updateFeed(tx, companyId, feedId, { bookingCount, contentHash: '' });
}
