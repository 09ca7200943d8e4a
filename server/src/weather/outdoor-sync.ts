/**
 * The outdoor temperature sync (decision 0057): every 5 minutes the job claims the buildings with
 * coordinates whose `outdoor_sync_at` has come (moving it an hour ahead, `skip locked`, so each
 * building is fetched once an hour across all instances) and stores their hourly values from the
 * last stored observation (at most 30 days back, the learning's window) to 8 days ahead (the
 * 7-day preview). A failed fetch is tried again after 15 minutes; what was stored stays.
 */
import { and, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildingOutdoorTemperatures } from '../db/schema.ts';
import { startPeriodic } from '../jobs/periodic.ts';
import type { Logger } from '../logger.ts';
import { saveOutdoorHours } from './outdoor-store.ts';
import type { WeatherProvider } from './providers.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const TICK_MS = 5 * MINUTE_MS;
const SYNC_EVERY_MS = HOUR_MS;
const RETRY_MS = 15 * MINUTE_MS;
/** History fetched for a building without observations: the learning reads 21 days. */
const BACKFILL_MS = 30 * DAY_MS;
/** Observations of the last hours may still be corrected by the provider: fetched again. */
const REREAD_MS = 3 * HOUR_MS;
const AHEAD_MS = 8 * DAY_MS;
/** Longest span asked in one request (Bright Sky answers ranges of about 10 days quickly). */
const REQUEST_SPAN_MS = 10 * DAY_MS;
const BATCH = 20;

export interface ClaimedBuilding {
  id: string;
  companyId: string;
  latitude: number;
  longitude: number;
}

/** Chooses the provider of a building's company; null = no outdoor temperature for it. */
export type ProviderFor = (building: ClaimedBuilding) => WeatherProvider | null;

const floorHour = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

/** Claims up to 20 due buildings at `now` and moves their next sync an hour ahead. */
async function claimDue(db: Db, now: Date): Promise<ClaimedBuilding[]> {
  const next = new Date(now.getTime() + SYNC_EVERY_MS).toISOString();
  const result = await db.execute(sql`
    update buildings set outdoor_sync_at = ${next}
    where id in (
      select id from buildings
      where latitude is not null and longitude is not null
        and (outdoor_sync_at is null or outdoor_sync_at <= ${now.toISOString()})
      order by outdoor_sync_at nulls first
      limit ${BATCH}
      for update skip locked)
    returning id, company_id, latitude, longitude`);
  const rows = (result as { rows: { id: string; company_id: string; latitude: number; longitude: number }[] })
    .rows;
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
  }));
}

/**
 * Fetches and stores one building's hours at `now`.
 * @throws WeatherError from the provider (nothing of that request is stored).
 */
export async function syncBuildingOutdoor(
  db: Db,
  building: ClaimedBuilding,
  provider: WeatherProvider,
  now: Date,
): Promise<number> {
  const [last] = await db
    .select({ at: max(buildingOutdoorTemperatures.at) })
    .from(buildingOutdoorTemperatures)
    .where(
      and(
        eq(buildingOutdoorTemperatures.buildingId, building.id),
        eq(buildingOutdoorTemperatures.kind, 'observed'),
      ),
    );
  const earliest = now.getTime() - BACKFILL_MS;
  const from = floorHour(Math.max(earliest, (last?.at?.getTime() ?? earliest) - REREAD_MS));
  const to = floorHour(now.getTime() + AHEAD_MS);
  let stored = 0;
  for (let start = from; start < to; start += REQUEST_SPAN_MS) {
    const end = Math.min(to, start + REQUEST_SPAN_MS);
    const hours = await provider.hourly(building, new Date(start), new Date(end));
    await saveOutdoorHours(db, building, provider.name, hours, now);
    stored += hours.length;
  }
  return stored;
}

/**
 * One run: syncs every due building (20 at a time, until none is due).
 * @returns how many buildings were synced and how many failed.
 */
export async function syncOutdoorDue(
  db: Db,
  providerFor: ProviderFor,
  log: Pick<Logger, 'warn'>,
  now: Date = new Date(),
): Promise<{ synced: number; failed: number }> {
  let synced = 0;
  let failed = 0;
  for (let claimed = await claimDue(db, now); claimed.length > 0; claimed = await claimDue(db, now)) {
    for (const building of claimed) {
      const provider = providerFor(building);
      if (!provider) continue;
      try {
        await syncBuildingOutdoor(db, building, provider, now);
        synced += 1;
      } catch (err) {
        failed += 1;
        log.warn({ err, buildingId: building.id }, 'outdoor temperature not fetched');
        await db.execute(
          sql`update buildings set outdoor_sync_at = ${new Date(now.getTime() + RETRY_MS).toISOString()} where id = ${building.id}`,
        );
      }
    }
  }
  return { synced, failed };
}

/** Starts the job; @returns the function that stops it. */
export function startOutdoorSync({
  db,
  providerFor,
  log,
}: {
  db: Db;
  providerFor: ProviderFor;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}): () => void {
  return startPeriodic(
    'outdoor temperature sync',
    TICK_MS,
    async () => {
      const result = await syncOutdoorDue(db, providerFor, log);
      if (result.synced > 0 || result.failed > 0) log.info(result, 'outdoor temperatures synced');
    },
    log,
  );
}
