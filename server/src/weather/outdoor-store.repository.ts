/**
 * Hourly outdoor temperature per building (decision 0057), as the sync stored it: reads for
 * optimum start (learning and leads) and the buildings list, and the upsert the sync and the demo
 * write with. All instants UTC, temperatures °C.
 */
import {
  type AnyColumn,
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  lt,
  lte,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildingOutdoorTemperatures, telemetry } from '../db/schema.ts';
import type { OutdoorSample } from '../heating/engine/warm-up.ts';
import type { OutdoorHour } from './providers.ts';

const CHUNK = 500;
const HOUR_MS = 3_600_000;
/** A value older than this is no "current" outdoor temperature. */
const CURRENT_MAX_AGE_MS = 3 * HOUR_MS;

/** The rank of a kind: a value replaces the stored one of its hour unless that one ranks higher. */
const rank = (kind: SQL | AnyColumn) =>
  sql`case ${kind} when 'sensor' then 3 when 'observed' then 2 else 1 end`;

/** An hour of the building's own outdoor sensor, or one of the weather provider. */
export type StoredHour = OutdoorHour | { at: Date; temperature: number; kind: 'sensor' };

/**
 * Stores `hours` for a building: a new value replaces the stored one of its hour unless the
 * stored one ranks higher (sensor > observed > forecast): a provider's value never replaces the
 * outdoor sensor's, an observation never a forecast's.
 */
export async function saveOutdoorHours(
  db: Db,
  building: { id: string; companyId: string },
  provider: string,
  hours: readonly StoredHour[],
  now: Date = new Date(),
): Promise<void> {
  const rows = hours.map((h) => ({
    companyId: building.companyId,
    buildingId: building.id,
    at: h.at,
    temperature: h.temperature,
    kind: h.kind,
    provider,
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insert(buildingOutdoorTemperatures)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [buildingOutdoorTemperatures.buildingId, buildingOutdoorTemperatures.at],
        set: {
          temperature: sql`excluded.temperature`,
          kind: sql`excluded.kind`,
          provider: sql`excluded.provider`,
          updatedAt: sql`excluded.updated_at`,
        },
        setWhere: sql`${rank(buildingOutdoorTemperatures.kind)} <= ${rank(sql`excluded.kind`)}`,
      });
  }
}

/** The hourly values of each building in `[from, to)`, sorted by time; buildings without any are absent. */
export async function loadOutdoor(
  db: Db,
  buildingIds: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, OutdoorSample[]>> {
  const result = new Map<string, OutdoorSample[]>();
  if (buildingIds.length === 0) return result;
  const rows = await db
    .select({
      buildingId: buildingOutdoorTemperatures.buildingId,
      at: buildingOutdoorTemperatures.at,
      temperature: buildingOutdoorTemperatures.temperature,
    })
    .from(buildingOutdoorTemperatures)
    .where(
      and(
        inArray(buildingOutdoorTemperatures.buildingId, [...new Set(buildingIds)]),
        gte(buildingOutdoorTemperatures.at, from),
        lt(buildingOutdoorTemperatures.at, to),
      ),
    )
    .orderBy(asc(buildingOutdoorTemperatures.at));
  for (const row of rows) {
    const list = result.get(row.buildingId) ?? [];
    list.push({ at: row.at.getTime(), temperature: row.temperature });
    result.set(row.buildingId, list);
  }
  return result;
}

/** The building's outdoor temperature now: its latest hour at or before `now`, at most 3 h old. */
export interface CurrentOutdoor {
  temperature: number;
  at: Date;
  kind: 'sensor' | 'observed' | 'forecast';
  provider: string;
}

/** The current outdoor temperature of each of the company's buildings that has one (see `CurrentOutdoor`). */
export async function currentOutdoor(
  db: Db,
  companyId: string,
  buildingIds: readonly string[],
  now: Date,
): Promise<Map<string, CurrentOutdoor>> {
  const result = new Map<string, CurrentOutdoor>();
  if (buildingIds.length === 0) return result;
  const rows = await db
    .selectDistinctOn([buildingOutdoorTemperatures.buildingId], {
      buildingId: buildingOutdoorTemperatures.buildingId,
      at: buildingOutdoorTemperatures.at,
      temperature: buildingOutdoorTemperatures.temperature,
      kind: buildingOutdoorTemperatures.kind,
      provider: buildingOutdoorTemperatures.provider,
    })
    .from(buildingOutdoorTemperatures)
    .where(
      and(
        eq(buildingOutdoorTemperatures.companyId, companyId),
        inArray(buildingOutdoorTemperatures.buildingId, [...new Set(buildingIds)]),
        lte(buildingOutdoorTemperatures.at, now),
        gte(buildingOutdoorTemperatures.at, new Date(now.getTime() - CURRENT_MAX_AGE_MS)),
      ),
    )
    .orderBy(buildingOutdoorTemperatures.buildingId, desc(buildingOutdoorTemperatures.at));
  for (const { buildingId, ...value } of rows) result.set(buildingId, value);
  return result;
}

/**
 * The hourly means of the device's room temperature readings in `[from, to)` (the outdoor
 * sensor's hours), by full UTC hour; an hour without readings is absent.
 */
export async function sensorHours(
  db: Db,
  companyId: string,
  deviceId: string,
  from: Date,
  to: Date,
): Promise<{ at: Date; temperature: number; kind: 'sensor' }[]> {
  // Hours since the epoch: a full UTC hour without a time zone to convert.
  const hour = sql<number>`floor(extract(epoch from ${telemetry.time}) / 3600)::int`;
  const rows = await db
    .select({ hour, temperature: sql<number>`avg(${telemetry.roomTemperature})` })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.companyId, companyId),
        eq(telemetry.deviceId, deviceId),
        gte(telemetry.time, from),
        lt(telemetry.time, to),
        isNotNull(telemetry.roomTemperature),
      ),
    )
    .groupBy(hour)
    .orderBy(hour);
  return rows.map((r) => ({
    at: new Date(Number(r.hour) * HOUR_MS),
    temperature: Number(r.temperature),
    kind: 'sensor' as const,
  }));
}
