/**
 * Queries of the alert centre's API. Every function filters by the company the service
 * has checked the caller's membership of.
 */
import type { AlertListQuery, AlertSettings } from '@heizplan/contracts/alerts';
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alerts';
import { type AnyColumn, and, asc, count, desc, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { buildingAndFloorOrder } from '../../db/building-order.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  alertEvents,
  alertPreferences,
  alertSettings,
  alerts,
  bookingFeeds,
  buildings,
  devices,
  gateways,
  units,
  users,
  webhookDeliveries,
  webhooks,
} from '../../db/schema.ts';

/**
 * The unit that places an alert in a building and on a floor, as `inBuilding` filters: the
 * alert's unit or, a device's alert without one, the unit its device is in now.
 */
const placeUnit = alias(units, 'place_unit');

function selectAlerts(db: Db) {
  return db
    .select({
      alert: alerts,
      unitName: units.name,
      buildingId: buildings.id,
      buildingName: buildings.name,
      floor: placeUnit.floor,
      gatewayName: gateways.name,
      feedName: bookingFeeds.name,
      acknowledgedByName: users.name,
    })
    .from(alerts)
    .leftJoin(units, eq(units.id, alerts.unitId))
    .leftJoin(
      devices,
      sql`${alerts.subject} = 'device' and ${devices.companyId} = ${alerts.companyId} and ${devices.id} = ${alerts.subjectId}`,
    )
    .leftJoin(placeUnit, sql`${placeUnit.id} = coalesce(${alerts.unitId}, ${devices.unitId})`)
    .leftJoin(
      buildings,
      // An alert about a building names it itself (compared as text: other subjects are not uuids).
      sql`${buildings.id}::text = coalesce(${placeUnit.buildingId}::text, case when ${alerts.subject} = 'building' then ${alerts.subjectId} end)`,
    )
    .leftJoin(gateways, sql`${alerts.subject} = 'gateway' and ${gateways.id}::text = ${alerts.subjectId}`)
    .leftJoin(
      bookingFeeds,
      sql`${alerts.subject} = 'booking_feed' and ${bookingFeeds.id}::text = ${alerts.subjectId}`,
    )
    .leftJoin(users, eq(users.id, alerts.acknowledgedBy))
    .$dynamic();
}
export type AlertRecord = Awaited<ReturnType<ReturnType<typeof selectAlerts>['execute']>>[number];

const SORT: Record<Exclude<AlertListQuery['sort'], 'building'>, AnyColumn> = {
  openedAt: alerts.openedAt,
  lastSeenAt: alerts.lastSeenAt,
  kind: alerts.kind,
  subject: alerts.subjectId,
};

/**
 * Alerts of the units in a building and/or on a floor (decision 0052): the alert's own unit, or
 * — for a device's alert — the unit the device is in now.
 */
function inBuilding(companyId: string, buildingId: string | undefined, floor: string | undefined) {
  if (!buildingId && !floor) return undefined;
  const place = sql`select u.id from units u where u.company_id = ${companyId}${
    buildingId ? sql` and u.building_id = ${buildingId}` : sql``
  }${floor ? sql` and u.floor = ${floor}` : sql``}`;
  return sql`(${alerts.unitId} in (${place}) or (${alerts.subject} = 'device' and ${alerts.subjectId} in (
    select d.id from devices d where d.company_id = ${companyId} and d.unit_id in (${place}))))`;
}

export async function listAlerts(db: Db, companyId: string, q: AlertListQuery) {
  const where = and(
    eq(alerts.companyId, companyId),
    q.kind ? eq(alerts.kind, q.kind) : undefined,
    q.state ? eq(alerts.state, q.state) : undefined,
    q.unitId ? eq(alerts.unitId, q.unitId) : undefined,
    q.groupId ? sql`${alerts.unitId} in (select id from units where group_id = ${q.groupId})` : undefined,
    inBuilding(companyId, q.buildingId, q.floor),
  );
  // By building: newest first on each floor, whatever the direction of buildings and floors.
  const order =
    q.sort === 'building'
      ? buildingAndFloorOrder(q.order, placeUnit.floor)
      : [q.order === 'asc' ? asc(SORT[q.sort]) : desc(SORT[q.sort])];
  const rows = await selectAlerts(db)
    .where(where)
    .orderBy(...order, desc(alerts.openedAt), asc(alerts.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size);
  const [total] = await db.select({ n: count() }).from(alerts).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findAlert(
  db: Db,
  companyId: string,
  alertId: string,
): Promise<AlertRecord | undefined> {
  const [row] = await selectAlerts(db).where(and(eq(alerts.companyId, companyId), eq(alerts.id, alertId)));
  return row;
}

/** Open alerts needing attention, and open alerts per unit and per device. */
export async function summary(db: Db, companyId: string, now: Date) {
  const rows = rowsOf<{ subject: string; subject_id: string; unit_id: string | null; attention: boolean }>(
    await db.execute(sql`
      select subject, subject_id, unit_id,
        (acknowledged_at is null and (muted_until is null or muted_until <= ${now.toISOString()}::timestamptz)) as attention
      from alerts where company_id = ${companyId} and state = 'open'`),
  );
  const units: Record<string, number> = {};
  const devices: Record<string, number> = {};
  for (const row of rows) {
    if (row.unit_id) units[row.unit_id] = (units[row.unit_id] ?? 0) + 1;
    if (row.subject === 'device') devices[row.subject_id] = (devices[row.subject_id] ?? 0) + 1;
  }
  return { attention: rows.filter((r) => r.attention).length, open: rows.length, units, devices };
}

/** Applies `changes` to one alert of the company and records the event, in one transaction. */
export async function changeAlert(
  db: Db,
  companyId: string,
  alertId: string,
  changes: Partial<typeof alerts.$inferInsert>,
  event: 'acknowledged' | 'muted',
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .update(alerts)
    .set(changes)
    .where(and(eq(alerts.companyId, companyId), eq(alerts.id, alertId)))
    .returning({ id: alerts.id });
  if (!row) return false;
  await db.insert(alertEvents).values({ alertId, companyId, type: event, at: now });
  return true;
}

export async function readSettings(db: Db, companyId: string): Promise<AlertSettings> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.companyId, companyId));
  return { ...DEFAULT_ALERT_SETTINGS, ...((row?.settings as Partial<AlertSettings> | undefined) ?? {}) };
}

export async function writeSettings(db: Db, companyId: string, settings: AlertSettings): Promise<void> {
  await db
    .insert(alertSettings)
    .values({ companyId, settings })
    .onConflictDoUpdate({ target: alertSettings.companyId, set: { settings } });
}

export async function readPreferences(db: Db, companyId: string, userId: string) {
  return db
    .select({ kind: alertPreferences.kind, mode: alertPreferences.mode })
    .from(alertPreferences)
    .where(and(eq(alertPreferences.companyId, companyId), eq(alertPreferences.userId, userId)));
}

export async function writePreferences(
  db: Db,
  companyId: string,
  userId: string,
  modes: {
    kind: (typeof alertPreferences.$inferInsert)['kind'];
    mode: (typeof alertPreferences.$inferInsert)['mode'];
  }[],
): Promise<void> {
  if (modes.length === 0) return;
  await db
    .insert(alertPreferences)
    .values(modes.map((m) => ({ companyId, userId, ...m })))
    .onConflictDoUpdate({
      target: [alertPreferences.companyId, alertPreferences.userId, alertPreferences.kind],
      set: { mode: sql`excluded.mode` },
    });
}

/** The company's webhooks with their delivery counts since `since`. */
export async function listWebhooks(db: Db, companyId: string, since: Date) {
  return rowsOf<{
    id: string;
    url: string;
    enabled: boolean;
    created_at: Date | string;
    delivered: number | string;
    failing: number | string;
  }>(
    await db.execute(sql`
      select w.id, w.url, w.enabled, w.created_at,
        count(d.id) filter (where d.status = 'delivered') as delivered,
        count(d.id) filter (where d.status = 'failed' or (d.status = 'pending' and d.attempts > 0)) as failing
      from webhooks w
      left join webhook_deliveries d on d.webhook_id = w.id and d.created_at >= ${since.toISOString()}::timestamptz
      where w.company_id = ${companyId}
      group by w.id order by w.created_at, w.id`),
  );
}

export async function insertWebhook(db: Db, companyId: string, url: string, secret: string) {
  const [row] = await db.insert(webhooks).values({ companyId, url, secret }).returning();
  if (!row) throw new Error('webhook insert returned no row');
  return row;
}

export async function updateWebhook(db: Db, companyId: string, id: string, enabled: boolean) {
  const [row] = await db
    .update(webhooks)
    .set({ enabled })
    .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return row !== undefined;
}

export async function webhookExists(db: Db, companyId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
    .limit(1);
  return row !== undefined;
}

export async function deleteWebhook(db: Db, companyId: string, id: string) {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

export async function listDeliveries(db: Db, companyId: string, webhookId: string, since: Date) {
  return db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      and(
        eq(webhooks.companyId, companyId),
        eq(webhookDeliveries.webhookId, webhookId),
        gte(webhookDeliveries.createdAt, since),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(100);
}
