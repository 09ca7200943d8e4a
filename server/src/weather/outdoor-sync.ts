/**
 * The outdoor temperature sync (decision 0057): every 5 minutes the job claims the buildings with
 * coordinates or an outdoor sensor whose `outdoor_sync_at` has come (moving it an hour ahead,
 * `skip locked`, so each building is synced once an hour across all instances). It stores the
 * outdoor sensor's hourly means since its last stored hour (at most 30 days back, the learning's
 * window), and the provider's hourly values from the last stored measured hour to 8 days ahead
 * (the 7-day preview); a sensor's hour is never replaced by the provider's. A failed fetch is
 * tried again after 15 minutes; what was stored stays.
 */
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { saveOutdoorHours, sensorHours } from './outdoor-store.repository.ts';
import type { WeatherProvider } from './providers.ts';
import {
  claimDueBuildings,
  lastSensorHour,
  measuredHours,
  postponeOutdoorSync,
} from './weather.repository.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** How often the job looks for due buildings (jobs/server-jobs.ts). */
export const OUTDOOR_SYNC_TICK_MS = 5 * MINUTE_MS;
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

/** A building the provider is asked for: one with coordinates. */
export interface LocatedBuilding {
  id: string;
  companyId: string;
  latitude: number;
  longitude: number;
}

/** A due building: coordinates (both or neither) and/or an outdoor sensor. */
export interface ClaimedBuilding {
  id: string;
  companyId: string;
  latitude: number | null;
  longitude: number | null;
  outdoorSensorId: string | null;
}

/** Chooses the provider of a building's company; null = no provider values for it. */
export type ProviderFor = (building: LocatedBuilding) => WeatherProvider | null;

/** The `provider` of the outdoor sensor's rows. */
export const SENSOR_PROVIDER = 'sensor';

const floorHour = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

/**
 * Stores the hourly means of the building's outdoor sensor from its last stored hour (read again:
 * it may have been incomplete; at most 30 days back) up to `now`, the running hour included.
 * @returns how many hours were stored.
 */
export async function syncSensorOutdoor(
  db: Db,
  building: { id: string; companyId: string; outdoorSensorId: string },
  now: Date,
): Promise<number> {
  const earliest = now.getTime() - BACKFILL_MS;
  const last = await lastSensorHour(db, building.id);
  const from = floorHour(Math.max(earliest, last?.getTime() ?? earliest));
  const hours = await sensorHours(db, building.companyId, building.outdoorSensorId, new Date(from), now);
  await saveOutdoorHours(db, building, SENSOR_PROVIDER, hours, now);
  return hours.length;
}

/**
 * Fetches and stores one building's hours at `now`.
 * @throws WeatherError from the provider (nothing of that request is stored).
 */
export async function syncBuildingOutdoor(
  db: Db,
  building: LocatedBuilding,
  provider: WeatherProvider,
  now: Date,
): Promise<number> {
  // Hours the outdoor sensor measured count as measured, once the provider has answered for the
  // building at all (its forecast ahead is always stored): it is not asked for them again.
  const known = await measuredHours(db, building.id);
  const last = known?.last && Number(known.fromProvider) > 0 ? known.last : null;
  const earliest = now.getTime() - BACKFILL_MS;
  const from = floorHour(Math.max(earliest, (last?.getTime() ?? earliest) - REREAD_MS));
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
 * One run: syncs every due building (20 at a time, until none is due): its outdoor sensor's hours,
 * then the provider's (with coordinates).
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
  const claim = () => claimDueBuildings(db, now, new Date(now.getTime() + SYNC_EVERY_MS), BATCH);
  for (let claimed = await claim(); claimed.length > 0; claimed = await claim()) {
    for (const building of claimed) {
      const { latitude, longitude, outdoorSensorId } = building;
      const located = latitude !== null && longitude !== null ? { ...building, latitude, longitude } : null;
      const provider = located ? providerFor(located) : null;
      if (!provider && !outdoorSensorId) continue;
      try {
        if (outdoorSensorId) await syncSensorOutdoor(db, { ...building, outdoorSensorId }, now);
        if (located && provider) await syncBuildingOutdoor(db, located, provider, now);
        synced += 1;
      } catch (err) {
        failed += 1;
        log.warn({ err, buildingId: building.id }, 'outdoor temperature not fetched');
        await postponeOutdoorSync(db, building.id, new Date(now.getTime() + RETRY_MS));
      }
    }
  }
  return { synced, failed };
}
