/**
 * The outdoor sync's bookkeeping: which buildings are due (`buildings.outdoor_sync_at`, claimed
 * across instances with `skip locked`) and how far each building's stored hours reach (UTC hour
 * starts; `kind` 'sensor', 'observed' or 'forecast'). The hours themselves are read and written in
 * outdoor-store.repository.ts.
 */
import { and, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildingOutdoorTemperatures } from '../db/schema.ts';
import type { ClaimedBuilding } from './outdoor-sync.ts';

/**
 * Claims up to `batch` buildings whose sync is due at `now` (`skip locked`) and moves their next
 * sync to `next`; ids and coordinates (degrees) as numbers.
 */
export async function claimDueBuildings(
  db: Db,
  now: Date,
  next: Date,
  batch: number,
): Promise<ClaimedBuilding[]> {
  const result = await db.execute(sql`
    update buildings set outdoor_sync_at = ${next.toISOString()}
    where id in (
      select id from buildings
      where ((latitude is not null and longitude is not null) or outdoor_sensor_id is not null)
        and (outdoor_sync_at is null or outdoor_sync_at <= ${now.toISOString()})
      order by outdoor_sync_at nulls first
      limit ${batch}
      for update skip locked)
    returning id, company_id, latitude, longitude, outdoor_sensor_id`);
  const rows = (
    result as {
      rows: {
        id: string;
        company_id: string;
        latitude: number | null;
        longitude: number | null;
        outdoor_sensor_id: string | null;
      }[];
    }
  ).rows;
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    latitude: r.latitude === null ? null : Number(r.latitude),
    longitude: r.longitude === null ? null : Number(r.longitude),
    outdoorSensorId: r.outdoor_sensor_id,
  }));
}

/** The building's latest hour from its outdoor sensor, or null before the first. */
export async function lastSensorHour(db: Db, buildingId: string): Promise<Date | null> {
  const [last] = await db
    .select({ at: max(buildingOutdoorTemperatures.at) })
    .from(buildingOutdoorTemperatures)
    .where(
      and(
        eq(buildingOutdoorTemperatures.buildingId, buildingId),
        eq(buildingOutdoorTemperatures.kind, 'sensor'),
      ),
    );
  return last?.at ?? null;
}

/**
 * The building's latest hour that is not a forecast, and how many hours came from a provider
 * (not the sensor).
 */
export async function measuredHours(db: Db, buildingId: string) {
  const { at, kind } = buildingOutdoorTemperatures;
  const [known] = await db
    .select({
      last: sql<Date | null>`max(${at}) filter (where ${kind} <> 'forecast')`.mapWith(at),
      fromProvider: sql<number>`count(*) filter (where ${kind} <> 'sensor')`,
    })
    .from(buildingOutdoorTemperatures)
    .where(eq(buildingOutdoorTemperatures.buildingId, buildingId));
  return known;
}

export async function postponeOutdoorSync(db: Db, buildingId: string, until: Date): Promise<void> {
  await db.execute(
    sql`update buildings set outdoor_sync_at = ${until.toISOString()} where id = ${buildingId}`,
  );
}
