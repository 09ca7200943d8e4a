/**
 * Alert evaluation (decision 0024), set-based so 100,000 devices take well under 2 s:
 * one statement per condition computes who is in trouble now, then alerts are opened (one open
 * alert per condition and object), counted again when a condition comes back before its alert
 * resolved, marked clear when the condition went away, and resolved once they stayed clear for
 * the company's clear minutes (hysteresis). Every change is an `alert_events` row in the same
 * transaction, and queues the company's webhook deliveries.
 *
 * Reads devices, gateways, telemetry, the onsets, setpoint outbox and booking feeds; writes
 * `alerts`, `alert_events`, `alert_onsets` and `webhook_deliveries`. The ingest's per-batch
 * checks (`evaluateLatestUplinks`) run here too, since they open and clear alerts with the same
 * statements and the same lock.
 *
 * Runs under one transaction-level advisory lock, so evaluations of several instances never
 * interleave; the periodic job skips when another instance holds it, the ingest waits.
 *
 * Conditions evaluated here (time-based): device and gateway offline, low battery, not warming
 * far from setpoint and frost (from the onsets the ingest tracks), setpoint not delivered, setpoints
 * not being sent at all (a company's recorded setpoints waiting for the broker for minutes, or
 * set aside as dead letters: docs/decisions/0047), and booking feeds whose last fetch failed or
 * succeeded more than FEED_STALE_AFTER_MS ago (decision 0053; never fetched yet is no alert),
 * efficiency targets a building missed, and heating circuits whose last write to their heat
 * generator failed (decision 0077). Device
 * faults and reported open windows are opened and cleared by the ingest (`alert-ingest.ts`);
 * they resolve here like everything else.
 */
import { FROST_CELSIUS, FROST_MINUTES } from '@heizplan/contracts/alert-defaults';
import { FEED_STALE_AFTER_MS } from '@heizplan/contracts/booking-feeds';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { modelTable } from '../../lorawan/codecs/model-table.repository.ts';
import type { DecodedUplink } from '../../lorawan/ingest.ts';

/** Lock id of alert evaluation (`pg_advisory_xact_lock`), the same on every instance. */
export const ALERT_LOCK = 715_001;

/** Kinds this module decides on; the ingest decides on the others. */
const PERIODIC_KINDS = [
  'device_offline',
  'gateway_offline',
  'low_battery',
  'frost',
  'not_warming',
  'far_from_setpoint',
  'setpoint_not_delivered',
  'setpoints_stalled',
  'booking_feed_stale',
  'efficiency_target_missed',
  'generator_write_failed',
] as const;

/**
 * A recorded setpoint still not handed to the broker after this long means the sender is stuck
 * (a working one publishes within seconds), not one valve out of reach.
 */
const STALLED_MINUTES = 5;
/** A dead-lettered setpoint keeps its company's alert open this long. */
const SET_ASIDE_HOURS = 24;

/** A company setting with its default, read from the `alert_settings` JSON `s`. */
const setting = {
  offlineIntervals: sql`coalesce((s.settings->>'offlineIntervals')::int, 3)`,
  lowBatteryPercent: sql`coalesce((s.settings->>'lowBatteryPercent')::real, 20)`,
  notWarmingMinutes: sql`coalesce((s.settings->>'notWarmingMinutes')::int, 120)`,
  farFromSetpointMinutes: sql`coalesce((s.settings->>'farFromSetpointMinutes')::int, 240)`,
  undeliveredMinutes: sql`coalesce((s.settings->>'undeliveredMinutes')::int, 60)`,
};
/** True when the company lets `kind` open alerts (all kinds unless it chose a list). */
const enabled = (kind: SQL) => sql`(s.settings->'enabled' is null or (s.settings->'enabled') ? ${kind})`;

export interface EvaluationScope {
  /** Only these devices' device conditions (the ingest's batch); all of everything when absent. */
  deviceIds?: string[];
  /**
   * More candidate rows decided by the caller (the ingest's faults, windows), with the columns
   * company_id, kind, subject, subject_id, code, unit_id, details.
   */
  extra?: SQL;
  /** Kinds `extra` decides: their open alerts of the scope's devices clear when not in `extra`. */
  extraKinds?: string[];
}

export interface EvaluationResult {
  opened: number;
  repeated: number;
  resolved: number;
}

/**
 * The candidates of every periodic condition at `now`: rows (company_id, kind, subject,
 * subject_id, code, unit_id, details). An open low-battery alert stays a candidate until the
 * battery is 5 % (or 0.1 V) above its threshold, so it does not flap around it.
 */
function candidates(now: Date, scope: EvaluationScope): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const devices = scope.deviceIds ? sql`d.id = any(${`{${scope.deviceIds.join(',')}}`}::text[])` : sql`true`;
  const everything = scope.deviceIds === undefined;
  const parts: SQL[] = [
    // The learned interval (median gap of the last uplinks) is looked up only for devices already
    // past their model's keep-alive, so a fleet that reports on time costs one scan.
    sql`
      select d.company_id, 'device_offline'::text as kind, 'device'::text as subject, d.id as subject_id,
        ''::text as code, d.unit_id,
        jsonb_build_object('lastSeen', d.last_seen, 'expectedIntervalS', greatest(d.interval_s, coalesce(l.gap_s, 0))) as details
      from (
        select d.*, m.interval_s, ${setting.offlineIntervals} as intervals
        from devices d
        join ${modelTable()} on m.model = d.model
        left join alert_settings s on s.company_id = d.company_id
        where ${devices} and ${enabled(sql`'device_offline'`)}
          and coalesce(d.last_seen, d.created_at) < ${at} - make_interval(secs => m.interval_s * ${setting.offlineIntervals})
      ) d
      left join lateral (
        select percentile_cont(0.5) within group (order by gap) as gap_s
        from (
          select extract(epoch from x.time - lag(x.time) over (order by x.time)) as gap
          from (select t.time from telemetry t where t.dev_eui = d.dev_eui order by t.time desc limit 7) x
        ) g
      ) l on true
      where coalesce(d.last_seen, d.created_at)
        < ${at} - make_interval(secs => greatest(d.interval_s, coalesce(l.gap_s, 0)) * d.intervals)`,
    sql`
      select d.company_id, 'low_battery', 'device', d.id, '', d.unit_id,
        jsonb_build_object('battery', d.battery, 'unit', d.battery_unit,
          'threshold', case d.battery_unit when 'V' then m.low_volts else ${setting.lowBatteryPercent} end,
          'daysLeft', (
            select case when regr_slope(t.battery, extract(epoch from t.time)) < 0
              then round(((case d.battery_unit when 'V' then m.low_volts * 0.9 else 0 end) - d.battery)
                / regr_slope(t.battery, extract(epoch from t.time)) / 86400)
            end
            from telemetry t
            where t.dev_eui = d.dev_eui and t.battery is not null and t.time > ${at} - interval '30 days'
            having count(*) >= 10))
      from devices d
      join ${modelTable()} on m.model = d.model
      left join alert_settings s on s.company_id = d.company_id
      where ${devices} and ${enabled(sql`'low_battery'`)} and d.battery is not null
        and ((d.battery_unit = 'V' and d.battery < coalesce(m.low_volts, 0) + 0.1)
          or (d.battery_unit = '%' and d.battery < ${setting.lowBatteryPercent} + 5))
        -- Within the margin only while its alert is open; looked up for those few devices only.
        and ((d.battery_unit = 'V' and d.battery < coalesce(m.low_volts, 0))
          or (d.battery_unit = '%' and d.battery < ${setting.lowBatteryPercent})
          or exists (select 1 from alerts open where open.company_id = d.company_id and open.kind = 'low_battery'
            and open.subject_id = d.id and open.code = '' and open.state = 'open'))`,
  ];
  if (everything) {
    parts.push(
      sql`
        select g.company_id, 'gateway_offline', 'gateway', g.id::text, '', null::uuid,
          jsonb_build_object('lastSeen', g.last_seen)
        from gateways g
        left join alert_settings s on s.company_id = g.company_id
        where ${enabled(sql`'gateway_offline'`)}
          and coalesce(g.last_seen, g.created_at)
            < ${at} - make_interval(secs => greatest(g.stats_interval_s, 100) * ${setting.offlineIntervals})`,
      sql`
        select distinct on (o.unit_id, o.condition) o.company_id, o.condition, 'unit', o.unit_id::text, '', o.unit_id,
          o.details || jsonb_build_object('since', o.since)
        from alert_onsets o
        left join alert_settings s on s.company_id = o.company_id
        where ${enabled(sql`o.condition`)}
          and o.since < ${at} - make_interval(mins => case o.condition
            when 'frost' then ${FROST_MINUTES}
            when 'not_warming' then ${setting.notWarmingMinutes} else ${setting.farFromSetpointMinutes} end)
        order by o.unit_id, o.condition, o.since`,
      sql`
        select distinct on (dl.device_id) dl.company_id, 'setpoint_not_delivered', 'device', dl.device_id, '', dl.unit_id,
          jsonb_build_object('setpoint', dl.setpoint, 'state', dl.state, 'queuedAt', dl.created_at)
        from downlinks dl
        left join alert_settings s on s.company_id = dl.company_id
        where dl.state in ('queued', 'sent', 'failed') and dl.created_at > ${at} - interval '7 days'
          -- A relay's commands carry no setpoint; its circuit's writes show their fate.
          and dl.setpoint is not null
          and ${enabled(sql`'setpoint_not_delivered'`)}
          and (dl.state = 'failed' or dl.created_at < ${at} - make_interval(mins => ${setting.undeliveredMinutes}))
          and not exists (select 1 from downlinks n where n.device_id = dl.device_id
            and n.created_at > dl.created_at and n.state = 'acknowledged')
        order by dl.device_id, dl.created_at desc`,
      sql`
        select x.company_id, 'setpoints_stalled', 'company', x.company_id::text, '', null::uuid,
          jsonb_build_object('waiting', sum(x.waiting), 'since', min(x.since), 'setAside', sum(x.set_aside))
        from (
          select dl.company_id, count(*) as waiting, min(dl.created_at) as since, 0 as set_aside
          from downlinks dl
          where dl.published_at is null and dl.state = 'queued'
            and dl.created_at < ${at} - make_interval(mins => ${STALLED_MINUTES})
          group by dl.company_id
          union all
          select dd.company_id, 0, min(dd.created_at), count(*)
          from downlink_dead_letters dd
          where dd.updated_at > ${at} - make_interval(hours => ${SET_ASIDE_HOURS})
          group by dd.company_id
        ) x
        join companies c on c.id = x.company_id
        left join alert_settings s on s.company_id = x.company_id
        where ${enabled(sql`'setpoints_stalled'`)}
        group by x.company_id, s.settings`,
      // The engine leaves a stale feed's bookings out (booking-feeds.repository.ts), by the same rule.
      sql`
        select f.company_id, 'booking_feed_stale', 'booking_feed', f.id::text, '', f.unit_id,
          jsonb_build_object('feed', f.name, 'since', coalesce(f.last_success_at, f.created_at),
            'lastSuccessAt', f.last_success_at, 'lastError', f.last_error,
            'lastErrorCode', f.last_error_code)
        from booking_feeds f
        left join alert_settings s on s.company_id = f.company_id
        where ${enabled(sql`'booking_feed_stale'`)} and f.last_sync_at is not null
          and (f.last_error is not null or f.last_success_at is null
            or f.last_success_at <= ${at} - make_interval(secs => ${FEED_STALE_AFTER_MS / 1000}))`,
      // The monthly check (jobs/report-jobs.ts) records the targets the last month missed.
      sql`
        select b.company_id, 'efficiency_target_missed', 'building', b.id::text, '', null::uuid,
          jsonb_build_object('building', b.name, 'month', r.checked_month,
            -- Alert details are flat values: the missed targets as a comma-separated list.
            'missed', array_to_string(array(select jsonb_array_elements_text(r.missed_targets)), ','))
        from building_report_settings r
        join buildings b on b.id = r.building_id
        left join alert_settings s on s.company_id = b.company_id
        where ${enabled(sql`'efficiency_target_missed'`)} and jsonb_array_length(r.missed_targets) > 0`,
      // A circuit in mode `on` whose newest write failed (decision 0077); `since` is the first
      // failed write after the last one that succeeded.
      sql`
        select c.company_id, 'generator_write_failed', 'heating_circuit', c.id::text, '', null::uuid,
          jsonb_build_object('circuit', c.name, 'detail', w.detail, 'at', w.at,
            'since', (select min(f.at) from heating_circuit_writes f where f.circuit_id = c.id
              and f.at > coalesce((select max(o.at) from heating_circuit_writes o
                where o.circuit_id = c.id and o.ok), '-infinity'::timestamptz)))
        from heating_circuits c
        join lateral (
          select x.at, x.ok, x.detail from heating_circuit_writes x
          where x.circuit_id = c.id order by x.at desc limit 1
        ) w on true
        left join alert_settings s on s.company_id = c.company_id
        where ${enabled(sql`'generator_write_failed'`)} and c.mode = 'on' and not w.ok`,
    );
  }
  if (scope.extra) {
    parts.push(sql`
      select x.company_id, x.kind, x.subject, x.subject_id, x.code, x.unit_id, x.details
      from (${scope.extra}) x left join alert_settings s on s.company_id = x.company_id
      where ${enabled(sql`x.kind`)}`);
  }
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  );
}

/** Which open alerts this evaluation may mark clear: its periodic kinds, within its scope. */
function clearable(scope: EvaluationScope): SQL {
  const kinds = [
    ...(scope.deviceIds ? ['device_offline', 'low_battery'] : PERIODIC_KINDS),
    ...(scope.extraKinds ?? []),
  ];
  const kindList = sql`a.kind = any(${`{${kinds.join(',')}}`}::text[])`;
  return scope.deviceIds
    ? sql`${kindList} and a.subject = 'device' and a.subject_id = any(${`{${scope.deviceIds.join(',')}}`}::text[])`
    : kindList;
}

/**
 * Evaluates the periodic conditions at `now` (all, or `scope.deviceIds` only) inside the caller's
 * transaction `tx`, which must hold `ALERT_LOCK`. @returns how many alerts opened, came back and
 * resolved.
 */
export async function evaluateAlerts(
  tx: Db,
  now: Date,
  scope: EvaluationScope = {},
): Promise<EvaluationResult> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`create temporary table if not exists alert_candidates (
    company_id uuid, kind text, subject text, subject_id text, code text, unit_id uuid, details jsonb
  ) on commit delete rows`);
  await tx.execute(sql`delete from alert_candidates`);
  await tx.execute(sql`insert into alert_candidates ${candidates(now, scope)}`);
  // Without statistics the planner takes the temporary table for tiny and joins it to the open
  // alerts in nested loops: thousands of candidates against thousands of alerts took seconds.
  await tx.execute(sql`analyze alert_candidates`);
  const match = sql`a.company_id = c.company_id and a.kind = c.kind and a.subject_id = c.subject_id and a.code = c.code`;

  const repeated = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with back as (
        update alerts a set occurrences = a.occurrences + 1, clear_since = null
        from alert_candidates c where ${match} and a.state = 'open' and a.clear_since is not null
        returning a.id, a.company_id)
      insert into alert_events (alert_id, company_id, type, at) select id, company_id, 'repeated', ${at} from back
      returning alert_id as id`),
  );
  await tx.execute(sql`
    update alerts a set last_seen_at = ${at}, details = c.details, unit_id = c.unit_id
    from alert_candidates c where ${match} and a.state = 'open'`);
  const opened = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with fresh as (
        insert into alerts (company_id, kind, subject, subject_id, code, unit_id, opened_at, last_seen_at, details)
        select c.company_id, c.kind, c.subject, c.subject_id, c.code, c.unit_id, ${at}, ${at}, c.details
        from alert_candidates c
        where not exists (select 1 from alerts a where ${match} and a.state = 'open')
        returning id, company_id)
      insert into alert_events (alert_id, company_id, type, at) select id, company_id, 'opened', ${at} from fresh
      returning alert_id as id`),
  );
  await tx.execute(sql`
    update alerts a set clear_since = ${at}
    where a.state = 'open' and a.clear_since is null and ${clearable(scope)}
      and not exists (select 1 from alert_candidates c where ${match})`);
  const resolved = await resolveCleared(tx, now);
  await queueWebhookDeliveries(tx, now);
  return { opened: opened.length, repeated: repeated.length, resolved };
}

/** Resolves open alerts that have been clear for their company's clear minutes. @returns how many. */
export async function resolveCleared(tx: Db, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with done as (
        update alerts a set state = 'resolved', resolved_at = ${at}
        where a.state = 'open' and a.clear_since is not null
          and a.clear_since <= ${at} - make_interval(mins => coalesce(
            (select (s.settings->>'clearMinutes')::int from alert_settings s where s.company_id = a.company_id), 10))
        returning a.id, a.company_id)
      insert into alert_events (alert_id, company_id, type, at) select id, company_id, 'resolved', ${at} from done
      returning alert_id as id`),
  );
  return rows.length;
}

/**
 * One webhook delivery per enabled endpoint for every alert event of `now` not queued yet;
 * the payload is the alert as it is after the change (documented in the README).
 */
export async function queueWebhookDeliveries(tx: Db, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`
    insert into webhook_deliveries (webhook_id, alert_id, event, payload, next_attempt_at, created_at)
    select w.id, e.alert_id, e.type,
      jsonb_build_object(
        'id', e.id, 'type', 'alert.' || e.type, 'createdAt', e.at, 'companyId', e.company_id,
        'alert', jsonb_build_object(
          'id', a.id, 'kind', a.kind, 'subject', a.subject, 'subjectId', a.subject_id,
          'code', nullif(a.code, ''), 'unitId', a.unit_id, 'state', a.state, 'openedAt', a.opened_at,
          'resolvedAt', a.resolved_at, 'acknowledgedAt', a.acknowledged_at, 'occurrences', a.occurrences,
          'details', a.details)),
      ${at}, ${at}
    from alert_events e
    join alerts a on a.id = e.alert_id
    join webhooks w on w.company_id = e.company_id and w.enabled
    where e.at = ${at}
      and not exists (select 1 from webhook_deliveries x where x.webhook_id = w.id and x.payload->>'id' = e.id::text)`);
}

/**
 * The periodic evaluation of every company at `now`, in its own transaction. @returns null when
 * another instance is evaluating right now (it will have done the same work).
 */
export async function evaluateAll(db: Db, now = new Date()): Promise<EvaluationResult | null> {
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${ALERT_LOCK}) as ok`),
    );
    if (!lock?.ok) return null;
    return evaluateAlerts(tx, now);
  });
}

/** °C a room must fall within `WINDOW_MINUTES` while heating to count as an open window. */
const WINDOW_DROP = 1.5;
const WINDOW_MINUTES = 20;

const pgArray = (values: readonly (string | number | boolean | null)[], type: string) =>
  sql`${`{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replaceAll('"', '\\"')}"`)).join(',')}}`}::${sql.raw(type)}[]`;

/**
 * The batch's conditions at `now` for `latest`, the newest decoded uplink of each device: the
 * onsets of the slow conditions, then faults and open windows evaluated with the periodic rules
 * for these devices, under `ALERT_LOCK` in one transaction.
 */
export async function evaluateLatestUplinks(db: Db, latest: DecodedUplink[], now: Date): Promise<void> {
  const col = <T extends string | number | boolean | null>(type: string, value: (u: DecodedUplink) => T) =>
    pgArray(latest.map(value), type);
  const batch = sql`select * from unnest(
      ${col('text', (u) => u.device.id)}, ${col('text', (u) => u.device.devEui)},
      ${col('uuid', (u) => u.device.companyId)}, ${col('uuid', (u) => u.device.unitId)},
      ${col('timestamptz', (u) => u.event.time.toISOString())},
      ${col('real', (u) => u.reading?.roomTemperature ?? null)}, ${col('real', (u) => u.reading?.setpoint ?? null)},
      ${col('real', (u) => u.reading?.valveOpening ?? null)}, ${col('boolean', (u) => u.reading?.openWindow ?? false)}
    ) as v(device_id, dev_eui, company_id, unit_id, time, room, setpoint, valve, open_window)`;
  const faultRows = latest.flatMap((u) => (u.reading?.errors ?? []).map((code) => ({ u, code })));
  const faults = faultRows.length
    ? sql`select * from unnest(
        ${pgArray(
          faultRows.map((f) => f.u.device.companyId),
          'uuid',
        )}, ${pgArray(
          faultRows.map((f) => f.u.device.id),
          'text',
        )},
        ${pgArray(
          faultRows.map((f) => f.u.device.unitId),
          'uuid',
        )}, ${pgArray(
          faultRows.map((f) => f.code),
          'text',
        )}
      ) as f(company_id, device_id, unit_id, code)`
    : sql`select null::uuid as company_id, null::text as device_id, null::uuid as unit_id, null::text as code where false`;

  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ALERT_LOCK})`);
    await trackOnsets(tx, batch);
    const extra = sql`
      select f.company_id, 'device_fault' as kind, 'device' as subject, f.device_id as subject_id, f.code,
        f.unit_id, '{}'::jsonb as details
      from (${faults}) f
      union all
      select v.company_id, 'open_window', 'device', v.device_id, '', v.unit_id,
        jsonb_build_object('reported', v.open_window, 'room', v.room, 'previousRoom', p.room_temperature)
      from (${batch}) v
      left join lateral (
        select t.room_temperature from telemetry t
        where t.dev_eui = v.dev_eui and t.time < v.time and t.time >= v.time - make_interval(mins => ${WINDOW_MINUTES})
          and t.room_temperature is not null
        order by t.time desc limit 1
      ) p on true
      where v.open_window
        or (p.room_temperature - v.room >= ${WINDOW_DROP} and coalesce(v.setpoint, 0) > v.room and coalesce(v.valve, 100) > 0)`;
    await evaluateAlerts(tx, now, {
      deviceIds: latest.map((u) => u.device.id),
      extra,
      extraKinds: ['device_fault', 'open_window'],
    });
  });
}

/** Keeps `alert_onsets` current for the batch: a row while a slow condition holds, none otherwise. */
async function trackOnsets(tx: Db, batch: ReturnType<typeof sql>): Promise<void> {
  const conditions = sql`
    select v.device_id, v.company_id, v.unit_id, v.time, 'frost' as condition,
      v.room < ${FROST_CELSIUS} as holds,
      jsonb_build_object('room', v.room, 'setpoint', v.setpoint, 'valve', v.valve) as details
    from (${batch}) v where v.unit_id is not null and v.room is not null
    union all
    select v.device_id, v.company_id, v.unit_id, v.time, 'not_warming',
      (v.setpoint - v.room > 2 and v.valve >= 80) as holds,
      jsonb_build_object('room', v.room, 'setpoint', v.setpoint, 'valve', v.valve) as details
    from (${batch}) v where v.unit_id is not null and v.room is not null and v.setpoint is not null and v.valve is not null
    union all
    select v.device_id, v.company_id, v.unit_id, v.time, 'far_from_setpoint',
      abs(u.setpoint - v.room) > coalesce((s.settings->>'farFromSetpointKelvin')::real, 3),
      jsonb_build_object('room', v.room, 'setpoint', u.setpoint)
    from (${batch}) v
    join units u on u.id = v.unit_id
    left join alert_settings s on s.company_id = v.company_id
    where v.room is not null and u.setpoint is not null and not u.paused`;
  await tx.execute(sql`
    delete from alert_onsets o using (${conditions}) c
    where o.device_id = c.device_id and o.condition = c.condition and not c.holds`);
  await tx.execute(sql`
    insert into alert_onsets (device_id, condition, company_id, unit_id, since, details)
    select c.device_id, c.condition, c.company_id, c.unit_id, c.time, c.details from (${conditions}) c where c.holds
    on conflict (device_id, condition) do update set unit_id = excluded.unit_id, details = excluded.details`);
}
