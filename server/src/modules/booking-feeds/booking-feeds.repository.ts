/**
 * Booking feed queries (decision 0053). Every query a member can reach is scoped by company id;
 * the sync job's claim works across companies. The engine's reads of the bookings
 * (`bookingsForUnits`, `bookingDetails`) live in heating/inputs.repository.ts.
 */
import { and, asc, count, eq, gt, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import {
  bookingFeeds,
  bookingFeedUnits,
  bookings,
  buildings,
  companies,
  units,
  users,
} from '../../db/schema.ts';

export type FeedRow = typeof bookingFeeds.$inferSelect;
export type FeedInsert = typeof bookingFeeds.$inferInsert;
export type BookingRow = typeof bookings.$inferSelect;

type Ref = { id: string; name: string };

/** Feeds of `unitId` as their own room or a linked one. */
function ofUnit(unitId: string): SQL {
  return sql`(${bookingFeeds.unitId} = ${unitId} or exists (select 1 from ${bookingFeedUnits}
    where ${bookingFeedUnits.feedId} = ${bookingFeeds.id} and ${bookingFeedUnits.unitId} = ${unitId}))`;
}

/** Feeds whose own room or a linked room is a unit of `companyId` in `buildingId`. */
function inBuilding(companyId: string, buildingId: string): SQL {
  const rooms = sql`select u.id from units u where u.company_id = ${companyId} and u.building_id = ${buildingId}`;
  return sql`(${bookingFeeds.unitId} in (${rooms}) or exists (select 1 from ${bookingFeedUnits}
    where ${bookingFeedUnits.feedId} = ${bookingFeeds.id} and ${bookingFeedUnits.unitId} in (${rooms})))`;
}

function selectFeeds(db: Db) {
  return db
    .select({ feed: bookingFeeds, unitName: units.name, creatorName: users.name })
    .from(bookingFeeds)
    .innerJoin(units, eq(units.id, bookingFeeds.unitId))
    .leftJoin(users, eq(users.id, bookingFeeds.createdBy))
    .$dynamic();
}
export type FeedRecord = Awaited<ReturnType<ReturnType<typeof selectFeeds>['execute']>>[number];

/**
 * One page of the company's feeds (of one room when `unitId`, of the rooms in a building of the
 * company when `buildingId`), by name then id.
 */
export async function listFeeds(
  db: Db,
  companyId: string,
  f: { unitId?: string; buildingId?: string; page: number; size: number },
): Promise<{ rows: FeedRecord[]; count: number }> {
  const where = and(
    eq(bookingFeeds.companyId, companyId),
    f.unitId ? ofUnit(f.unitId) : undefined,
    f.buildingId ? inBuilding(companyId, f.buildingId) : undefined,
  );
  const rows = await selectFeeds(db)
    .where(where)
    .orderBy(naturally(bookingFeeds.name), asc(bookingFeeds.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(bookingFeeds).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findFeed(db: Db, companyId: string, feedId: string): Promise<FeedRecord | null> {
  const [row] = await selectFeeds(db).where(
    and(eq(bookingFeeds.companyId, companyId), eq(bookingFeeds.id, feedId)),
  );
  return row ?? null;
}

/** The linked rooms (id, name) of each feed, by feed id, in natural order. */
export async function linkedUnitsOf(db: Db, feedIds: string[]): Promise<Map<string, Ref[]>> {
  const result = new Map<string, Ref[]>();
  if (feedIds.length === 0) return result;
  const rows = await db
    .select({ feedId: bookingFeedUnits.feedId, id: units.id, name: units.name })
    .from(bookingFeedUnits)
    .innerJoin(units, eq(units.id, bookingFeedUnits.unitId))
    .where(inArray(bookingFeedUnits.feedId, feedIds))
    .orderBy(naturally(units.name), asc(units.id));
  for (const { feedId, id, name } of rows) result.set(feedId, [...(result.get(feedId) ?? []), { id, name }]);
  return result;
}

/** The feed's own room and its linked rooms. */
export async function feedUnitIds(db: Db, feedId: string): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`select ${bookingFeeds.unitId} as id from ${bookingFeeds} where ${bookingFeeds.id} = ${feedId}
      union select ${bookingFeedUnits.unitId} from ${bookingFeedUnits} where ${bookingFeedUnits.feedId} = ${feedId}`),
  );
  return rows.map((r) => r.id);
}

/** Inserts the feed (its id chosen by the caller) and its linked rooms; call inside a transaction. */
export async function insertFeed(tx: Db, values: FeedInsert & { id: string }, linkedUnitIds: string[]) {
  await tx.insert(bookingFeeds).values(values);
  await replaceLinks(tx, values.id, linkedUnitIds);
}

/** Updates the feed's columns and, when given, replaces its linked rooms; call inside a transaction. */
export async function updateFeed(
  tx: Db,
  companyId: string,
  feedId: string,
  values: Partial<FeedInsert>,
  linkedUnitIds?: string[],
) {
  await tx
    .update(bookingFeeds)
    .set(values)
    .where(and(eq(bookingFeeds.companyId, companyId), eq(bookingFeeds.id, feedId)));
  if (linkedUnitIds) await replaceLinks(tx, feedId, linkedUnitIds);
}

async function replaceLinks(tx: Db, feedId: string, unitIds: string[]) {
  await tx.delete(bookingFeedUnits).where(eq(bookingFeedUnits.feedId, feedId));
  if (unitIds.length > 0)
    await tx.insert(bookingFeedUnits).values(unitIds.map((unitId) => ({ feedId, unitId })));
}

export async function deleteFeed(tx: Db, companyId: string, feedId: string) {
  await tx
    .delete(bookingFeeds)
    .where(and(eq(bookingFeeds.companyId, companyId), eq(bookingFeeds.id, feedId)));
}

/** A feed as the sync reads it: its row with its company's IANA zone. */
export type SyncFeed = FeedRow & { timeZone: string };

/**
 * Claims up to `limit` feeds due at `now` for this instance: moves each one's `next_sync_at` one
 * `intervalMs` ahead in the same statement, skipping feeds another instance is claiming, so each
 * feed is fetched once per interval however many instances run. A claim of an instance that
 * dies is simply retried one interval later.
 */
export async function claimDueFeeds(
  db: Db,
  now: Date,
  intervalMs: number,
  limit: number,
): Promise<SyncFeed[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      update ${bookingFeeds} set next_sync_at = ${at} + make_interval(secs => ${intervalMs / 1000})
      where id in (
        select id from ${bookingFeeds} where next_sync_at <= ${at}
        order by next_sync_at limit ${limit} for update skip locked)
      returning id`),
  );
  return feedsForSync(
    db,
    rows.map((r) => r.id),
  );
}

/** The feeds given with their companies' zones (for the sync). */
export async function feedsForSync(db: Db, feedIds: string[]): Promise<SyncFeed[]> {
  if (feedIds.length === 0) return [];
  const rows = await db
    .select({ feed: bookingFeeds, timeZone: companies.timeZone })
    .from(bookingFeeds)
    .innerJoin(companies, eq(companies.id, bookingFeeds.companyId))
    .where(anyOf(bookingFeeds.id, feedIds));
  return rows.map((r) => ({ ...r.feed, timeZone: r.timeZone }));
}

/** Locks the feed's row for a sync's write; null when it was deleted meanwhile. */
export async function lockFeed(tx: Db, feedId: string): Promise<FeedRow | null> {
  const [row] = await tx.select().from(bookingFeeds).where(eq(bookingFeeds.id, feedId)).for('update');
  return row ?? null;
}

/** Sets when the sync job fetches the feed next. */
export async function scheduleSync(db: Db, feedId: string, at: Date) {
  await db.update(bookingFeeds).set({ nextSyncAt: at }).where(eq(bookingFeeds.id, feedId));
}

/**
 * Replaces the feed's bookings that have not ended by `now` with `rows` (the rows as one JSON
 * parameter); call inside the transaction that records the sync. Bookings that ended stay as they
 * were when they heated the room, however the calendar changes later, so the heating log and a past
 * week's preview keep naming them; of `rows`, those ended are added only when not stored yet (a
 * new feed's past days).
 */
export async function replaceBookings(tx: Db, feedId: string, rows: Omit<BookingRow, 'feedId'>[], now: Date) {
  await tx.delete(bookings).where(and(eq(bookings.feedId, feedId), gt(bookings.end, now)));
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    id: r.id,
    uid: r.uid,
    recurrence_id: r.recurrenceId,
    title: r.title,
    start: r.start.toISOString(),
    end: r.end.toISOString(),
    heats: r.heats,
  }));
  await tx.execute(sql`
    insert into ${bookings} (id, feed_id, uid, recurrence_id, title, start, "end", heats)
    select id, ${feedId}::uuid, uid, recurrence_id, title, start, "end", heats
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as x(id uuid, uid text, recurrence_id text,
      title text, start timestamptz, "end" timestamptz, heats boolean)
    on conflict (id) do nothing`);
}

/** Sets `heats` of the bookings given (after the feed's rules changed). */
export async function setHeats(tx: Db, changes: { id: string; heats: boolean }[]) {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update ${bookings} as b set heats = x.heats
    from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as x(id uuid, heats boolean)
    where b.id = x.id`);
}

/** The feed's bookings that end after `since` (for re-applying its rules and counting them). */
export async function bookingsEndingAfter(db: Db, feedId: string, since: Date): Promise<BookingRow[]> {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.feedId, feedId), gt(bookings.end, since)));
}

/** The feed's bookings overlapping `[from, to)`, by start. */
export async function bookingsBetween(db: Db, feedId: string, from: Date, to: Date): Promise<BookingRow[]> {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.feedId, feedId), gt(bookings.end, from), lt(bookings.start, to)))
    .orderBy(asc(bookings.start), asc(bookings.id));
}

/** A booking as the events calendar shows it: its own times, its feed's room and that room's building. */
export interface CalendarBooking {
  id: string;
  title: string;
  start: Date;
  end: Date;
  unitId: string;
  unitName: string;
  buildingId: string | null;
  buildingName: string | null;
}

/**
 * The heating bookings of the company's feeds that are fresh at `now` (decision 0053: a stale
 * feed's bookings do not count) overlapping `[from, to)`, by start, at most `limit`: each with
 * its feed's own room and that room's building, only rooms of `buildingId` when given.
 */
export async function companyBookingsBetween(
  db: Db,
  companyId: string,
  window: { from: Date; to: Date; now: Date; staleAfterMs: number; buildingId?: string; limit: number },
): Promise<CalendarBooking[]> {
  const freshAfter = new Date(window.now.getTime() - window.staleAfterMs);
  return db
    .select({
      id: bookings.id,
      title: bookings.title,
      start: bookings.start,
      end: bookings.end,
      unitId: units.id,
      unitName: units.name,
      buildingId: buildings.id,
      buildingName: buildings.name,
    })
    .from(bookings)
    .innerJoin(bookingFeeds, eq(bookingFeeds.id, bookings.feedId))
    .innerJoin(units, eq(units.id, bookingFeeds.unitId))
    .leftJoin(buildings, eq(buildings.id, units.buildingId))
    .where(
      and(
        eq(bookingFeeds.companyId, companyId),
        isNull(bookingFeeds.lastError),
        gt(bookingFeeds.lastSuccessAt, freshAfter),
        eq(bookings.heats, true),
        gt(bookings.end, window.from),
        lt(bookings.start, window.to),
        window.buildingId ? eq(units.buildingId, window.buildingId) : undefined,
      ),
    )
    .orderBy(asc(bookings.start), asc(bookings.id))
    .limit(window.limit);
}
