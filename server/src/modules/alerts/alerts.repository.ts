/**
 * Queries of the alert centre's API, and of the alert jobs that run across companies (mails,
 * webhook deliveries). Every API function filters by the company the service has checked the
 * caller's membership of.
 */
import type { AlertKind, AlertListQuery, AlertSettings } from '@heizplan/contracts/alerts';
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alerts';
import { type AnyColumn, and, asc, count, desc, eq, gte, type SQL, sql } from 'drizzle-orm';
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
  heatingCircuits,
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
      circuitName: heatingCircuits.name,
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
      heatingCircuits,
      sql`${alerts.subject} = 'heating_circuit' and ${heatingCircuits.companyId} = ${alerts.companyId} and ${heatingCircuits.id}::text = ${alerts.subjectId}`,
    )
    .leftJoin(
      buildings,
      // An alert about a building names it itself (compared as text: other subjects are not uuids);
      // one about a heating circuit is in the circuit's building.
      sql`${buildings.id}::text = coalesce(${placeUnit.buildingId}::text, ${heatingCircuits.buildingId}::text, case when ${alerts.subject} = 'building' then ${alerts.subjectId} end)`,
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

/** Lock id of the alert mails (`pg_try_advisory_xact_lock`), the same on every instance. */
const MAIL_LOCK = 715_002;

/** One alert in a member's mail: who gets it, in which language, and what happened to it. */
export interface MailRow {
  company_id: string;
  company_name: string;
  user_id: string;
  email: string;
  lang: 'de' | 'en' | null;
  alert_id: string;
  kind: AlertKind;
  subject_name: string;
  unit_name: string | null;
  code: string;
  event: 'opened' | 'resolved' | 'repeat';
}

/** Mode of `kind` for a member: their choice, else the default of their role. */
const mode = (kind: SQL) => sql`coalesce(
  (select p.mode from alert_preferences p where p.company_id = m.company_id and p.user_id = m.user_id and p.kind = ${kind}),
  case when m.role = 'ems' then 'digest' else 'immediate' end)`;

/** Takes the mail run's lock for `tx`'s transaction. @returns false when another instance holds it. */
export async function tryAlertMailLock(tx: Db): Promise<boolean> {
  const [lock] = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${MAIL_LOCK}) as ok`),
  );
  return lock?.ok === true;
}

/**
 * The mail lines due at `now`, per member, company, alert and channel: immediate ones since the
 * member's last mail, repeats of unacknowledged alerts, and digest lines when the member's last
 * digest is older than `digestSince`.
 */
export async function dueAlertMails(tx: Db, now: Date, digestSince: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const digestDue = sql`${digestSince.toISOString()}::timestamptz`;
  const members = sql`
    select m.company_id, m.user_id, m.role, u.email, u.lang, c.name as company_name
    from memberships m join users u on u.id = m.user_id and u.active and u.email <> ''
    join companies c on c.id = m.company_id`;
  const subjectName = sql`case a.subject when 'unit' then coalesce(un.name, a.subject_id)
    when 'gateway' then coalesce((select g.name from gateways g where g.id::text = a.subject_id), a.subject_id)
    when 'booking_feed' then coalesce((select f.name from booking_feeds f where f.id::text = a.subject_id), a.subject_id)
    when 'building' then coalesce((select b.name from buildings b where b.id::text = a.subject_id), a.subject_id)
    when 'heating_circuit' then coalesce((select h.name from heating_circuits h where h.id::text = a.subject_id), a.subject_id)
    else a.subject_id end`;
  const since = (channel: string, fallback: SQL) => sql`coalesce((select l.mailed_until from alert_mail_log l
    where l.company_id = m.company_id and l.user_id = m.user_id and l.channel = ${channel}), ${fallback})`;
  return rowsOf<MailRow & { channel: 'immediate' | 'digest' }>(
    await tx.execute(sql`
      with m as (${members})
      select distinct on (m.user_id, m.company_id, a.id, channel) m.company_id, m.company_name, m.user_id, m.email, m.lang,
        a.id as alert_id, a.kind, a.code, ${subjectName} as subject_name, un.name as unit_name, x.event, x.channel
      from m
      join alerts a on a.company_id = m.company_id and (a.muted_until is null or a.muted_until <= ${at})
      left join units un on un.id = a.unit_id
      cross join lateral (
        select 'immediate' as channel, 'opened' as event
        where ${mode(sql`a.kind`)} = 'immediate' and a.state = 'open' and exists (
          select 1 from alert_events e where e.alert_id = a.id and e.type in ('opened', 'repeated')
            and e.at > ${since('immediate', sql`${at} - interval '10 minutes'`)} and e.at <= ${at})
        union all
        select 'immediate', 'repeat'
        where ${mode(sql`a.kind`)} = 'immediate' and a.state = 'open' and a.acknowledged_at is null
          and exists (select 1 from alert_mailed d where d.alert_id = a.id and d.user_id = m.user_id
            and d.at <= ${at} - make_interval(hours => coalesce(
              (select (s.settings->>'repeatHours')::int from alert_settings s where s.company_id = a.company_id), 24)))
        union all
        select 'digest', e.type
        from alert_events e
        where ${mode(sql`a.kind`)} = 'digest' and e.alert_id = a.id and e.type in ('opened', 'resolved')
          and e.at > ${since('digest', digestDue)} and e.at <= ${at}
          and coalesce((select l.last_sent_at from alert_mail_log l where l.company_id = m.company_id
            and l.user_id = m.user_id and l.channel = 'digest'), ${digestDue}) <= ${digestDue}
      ) x
      order by m.user_id, m.company_id, a.id, channel, x.event desc`),
  );
}

/** Notes that the member's mail of `row.channel` covered everything up to `now`. */
export async function recordAlertMail(
  tx: Db,
  row: Pick<MailRow, 'company_id' | 'user_id'> & { channel: 'immediate' | 'digest' },
  now: Date,
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`
    insert into alert_mail_log (company_id, user_id, channel, mailed_until, last_sent_at)
    values (${row.company_id}, ${row.user_id}, ${row.channel}, ${at}, ${at})
    on conflict (company_id, user_id, channel) do update set mailed_until = ${at}, last_sent_at = ${at}`);
}

/** Notes that the member was mailed about the alert at `now`; its repeat counts from there. */
export async function recordAlertMailed(
  tx: Db,
  row: Pick<MailRow, 'alert_id' | 'user_id'>,
  now: Date,
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`
    insert into alert_mailed (alert_id, user_id, at) values (${row.alert_id}, ${row.user_id}, ${at})
    on conflict (alert_id, user_id) do update set at = ${at}`);
}

/** A webhook delivery claimed for sending, with its endpoint's address and secret. */
export interface Claimed {
  id: string;
  url: string;
  secret: string;
  event: string;
  payload: unknown;
  attempts: number;
}

/**
 * Claims at most `batch` pending deliveries due at `now` by moving their next attempt to
 * `leaseUntil`, so another instance skips them while this one sends; a crash leaves them due again.
 */
export async function claimDueWebhookDeliveries(db: Db, now: Date, leaseUntil: Date, batch: number) {
  const at = now.toISOString();
  return db.transaction(async (tx) =>
    rowsOf<Claimed>(
      await tx.execute(sql`
        update webhook_deliveries d set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
        from webhooks w
        where w.id = d.webhook_id and d.id in (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${at}::timestamptz
          order by next_attempt_at limit ${batch}
          for update skip locked)
        returning d.id, w.url, w.secret, d.event, d.payload, d.attempts`),
    ),
  );
}

/** The outcome of one delivery attempt; times as ISO instants, `nextAttemptAt` null once final. */
export interface WebhookAttempt {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** Stores the outcome of one attempt on the delivery. */
export async function recordWebhookAttempt(db: Db, id: string, attempt: WebhookAttempt): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set status = ${attempt.status}, attempts = ${attempt.attempts}, last_status_code = ${attempt.statusCode},
      last_error = ${attempt.error}, next_attempt_at = ${attempt.nextAttemptAt}::timestamptz,
      delivered_at = ${attempt.deliveredAt}::timestamptz
    where id = ${id}`);
}
