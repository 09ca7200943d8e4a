/**
 * Maintains the telemetry rollups (decision 0061): 15-minute rows per unit from the raw uplinks,
 * heating log, open-window alerts and the building's outdoor temperature; daily rows per unit and
 * local day from the 15-minute rows.
 *
 * Incremental and exactly once across instances: each company has a `rollup_state` row saying up
 * to where its rollups are complete; once an hour is due, a run takes one company's row `for update
 * skip locked`, computes from that point up to the last complete quarter hour, and moves the point on in the same transaction. Every write is an upsert of whole
 * buckets, so a bucket computed twice ends the same. An uplink that arrives for a quarter hour
 * already rolled up moves the point back (`rewindForLateUplinks`).
 */

import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  BELOW_COMFORT_K,
  CATEGORY_I_C,
  CATEGORY_II_C,
  COMFORT_FLOOR_C,
  HEATING_VALVE,
  STUCK_OPEN_K,
  STUCK_OPEN_VALVE,
} from './comfort.ts';

const QUARTER_MS = 15 * 60_000;
/** A bucket is complete this long after its end (uplinks travel through the network server). */
const SETTLE_MS = 2 * 60_000;
/** Most time one transaction rolls up, so a long backlog commits step by step. */
const STEP_MS = 7 * 86_400_000;
/**
 * A company is rolled up once an hour of quarter hours is due, not at every quarter hour: a run
 * costs about as much for one quarter as for four (the rooms' setpoints, the grid, the claim), so
 * hourly runs cost a third as much (`bench/reports.bench.ts`). Reports read days; the export API's
 * quarter hours are at most an hour and a quarter behind.
 */
const BATCH_MS = 60 * 60_000;

const floorQuarter = (ms: number) => Math.floor(ms / QUARTER_MS) * QUARTER_MS;

/**
 * Upserts the 15-minute rollups of `companyId` for buckets in [`from`, `to`) (quarter hours, UTC).
 * A unit gets a row for each bucket with an uplink, or with one in the hour before (its last
 * values carried forward); a silent unit gets none, which the report counts as missing data.
 */
export async function rollUpQuarterHours(
  db: Db,
  companyId: string,
  from: Date,
  to: Date,
  now: Date,
): Promise<void> {
  const f = from.toISOString();
  const t = to.toISOString();
  const n = now.toISOString();
  await db.execute(sql`
    with r as (
      select unit_id, date_bin('15 minutes', time, timestamptz '2000-01-01') as bucket, count(*) as n,
        min(room_temperature) as rmin, avg(room_temperature) as rmean, max(room_temperature) as rmax,
        avg(valve_opening) as vmean,
        avg(case when valve_opening > ${HEATING_VALVE} then 1.0 when valve_opening is not null then 0.0 end) as hshare
      from telemetry
      where company_id = ${companyId} and unit_id is not null
        and time >= ${f}::timestamptz and time < ${t}::timestamptz
      group by 1, 2
    ),
    -- Rooms with an uplink in the range or a device now (whose last values may carry over).
    active as (
      select unit_id from r
      union
      select unit_id from devices where company_id = ${companyId} and unit_id is not null
    ),
    grid as (
      select a.unit_id, u.building_id, b.bucket
      from active a
      left join units u on u.id = a.unit_id
      cross join generate_series(${f}::timestamptz, ${t}::timestamptz - interval '15 minutes', interval '15 minutes') b(bucket)
    ),
    -- Each unit's setpoints as intervals: the one in force at the start and the changes after it.
    changes as (
      select a.unit_id, s.new_setpoint, s.kind, s.at, s.id from active a
      cross join lateral (
        select h.new_setpoint, h.kind, h.at, h.id from heating_log h
        where h.unit_id = a.unit_id and h.at <= ${f}::timestamptz
        order by h.at desc, h.id desc limit 1
      ) s
      union all
      select h.unit_id, h.new_setpoint, h.kind, h.at, h.id from heating_log h
      where h.unit_id in (select unit_id from active)
        and h.at > ${f}::timestamptz and h.at < ${t}::timestamptz
    ),
    steps as (
      select unit_id, new_setpoint, kind, at, lead(at) over (partition by unit_id order by at, id) as next_at
      from changes
    ),
    windows as (
      select unit_id, opened_at, coalesce(clear_since, resolved_at, ${n}::timestamptz) as closed_at
      from alerts
      where company_id = ${companyId} and kind = 'open_window' and unit_id is not null
        and opened_at < ${t}::timestamptz and coalesce(clear_since, resolved_at, ${n}::timestamptz) > ${f}::timestamptz
    )
    insert into unit_rollups_15m (company_id, unit_id, building_id, bucket, readings, room_min, room_mean,
      room_max, valve_mean, setpoint, setpoint_source, heating_minutes, window_minutes, outdoor)
    select ${companyId}, g.unit_id, g.building_id, g.bucket, coalesce(r.n, 0),
      coalesce(r.rmin, l.room), coalesce(r.rmean, l.room), coalesce(r.rmax, l.room), coalesce(r.vmean, l.valve),
      s.new_setpoint, s.kind,
      15 * coalesce(r.hshare, case when l.valve > ${HEATING_VALVE} then 1 else 0 end),
      coalesce(w.minutes, 0), o.temperature
    from grid g
    left join r on r.unit_id = g.unit_id and r.bucket = g.bucket
    left join lateral (
      select t.room_temperature as room, t.valve_opening as valve from telemetry t
      where r.n is null and t.company_id = ${companyId} and t.unit_id = g.unit_id
        and t.time < g.bucket and t.time >= g.bucket - interval '1 hour'
      order by t.time desc limit 1
    ) l on true
    left join steps s on s.unit_id = g.unit_id and s.at <= g.bucket and (s.next_at is null or s.next_at > g.bucket)
    left join lateral (
      select sum(extract(epoch from least(g.bucket + interval '15 minutes', x.closed_at) - greatest(g.bucket, x.opened_at))) / 60
        as minutes
      from windows x
      where x.unit_id = g.unit_id and x.opened_at < g.bucket + interval '15 minutes' and x.closed_at > g.bucket
    ) w on true
    left join building_outdoor_temperatures o
      on o.building_id = g.building_id and o.at = date_bin('1 hour', g.bucket, timestamptz '2000-01-01')
    where r.n is not null or l.room is not null or l.valve is not null
    on conflict (unit_id, bucket) do update set
      building_id = excluded.building_id, readings = excluded.readings, room_min = excluded.room_min,
      room_mean = excluded.room_mean, room_max = excluded.room_max, valve_mean = excluded.valve_mean,
      setpoint = excluded.setpoint, setpoint_source = excluded.setpoint_source,
      heating_minutes = excluded.heating_minutes, window_minutes = excluded.window_minutes,
      outdoor = excluded.outdoor`);
}

/**
 * Upserts the daily rollups of `companyId` for every local day (in `timeZone`) that [`from`, `to`)
 * touches and that is over by `to`, each from all of that day's 15-minute rows: a day is summed
 * once after its end (and again while late uplinks may still change its last half hour), not at
 * every run during it, which would cost a day's rows every few minutes. The comfort rules are
 * `comfort.ts`'s.
 */
export async function rollUpDays(
  db: Db,
  companyId: string,
  timeZone: string,
  from: Date,
  to: Date,
): Promise<void> {
  const dayFrom = DateTime.fromJSDate(from, { zone: timeZone }).startOf('day').toUTC().toISO();
  const dayTo = DateTime.fromJSDate(to, { zone: timeZone }).startOf('day').toUTC().toISO();
  if (dayFrom === null || dayTo === null || dayFrom >= dayTo) return;
  const occupied = sql`setpoint >= ${COMFORT_FLOOR_C}`;
  await db.execute(sql`
    insert into unit_rollups_daily (company_id, unit_id, building_id, day, buckets, reading_buckets,
      room_min, room_mean, room_max, valve_mean, setpoint_mean, occupied_setpoint_mean, heating_minutes,
      window_minutes, window_heating_minutes, outdoor_mean, occupied_minutes, below_comfort_minutes, category_i_minutes,
      category_ii_minutes, category_iii_minutes, setback_minutes, stuck_open_minutes)
    select company_id, unit_id, (array_agg(building_id order by bucket desc))[1],
      (bucket at time zone ${timeZone})::date as day,
      count(*), count(*) filter (where readings > 0),
      min(room_min), avg(room_mean), max(room_max), avg(valve_mean), avg(setpoint),
      avg(setpoint) filter (where ${occupied}),
      sum(heating_minutes), sum(window_minutes), sum(least(heating_minutes, window_minutes)), avg(outdoor),
      15 * count(*) filter (where ${occupied}),
      15 * count(*) filter (where ${occupied} and room_mean < setpoint - ${BELOW_COMFORT_K}),
      15 * count(*) filter (where ${occupied} and room_mean >= ${CATEGORY_I_C}),
      15 * count(*) filter (where ${occupied} and room_mean >= ${CATEGORY_II_C} and room_mean < ${CATEGORY_I_C}),
      15 * count(*) filter (where ${occupied} and room_mean >= ${COMFORT_FLOOR_C} and room_mean < ${CATEGORY_II_C}),
      15 * count(*) filter (where setpoint < ${COMFORT_FLOOR_C} and room_mean < ${COMFORT_FLOOR_C}),
      15 * count(*) filter (where valve_mean >= ${STUCK_OPEN_VALVE} and room_mean > setpoint + ${STUCK_OPEN_K})
    from unit_rollups_15m
    where company_id = ${companyId} and bucket >= ${dayFrom}::timestamptz and bucket < ${dayTo}::timestamptz
    group by company_id, unit_id, 4
    on conflict (unit_id, day) do update set
      building_id = excluded.building_id, buckets = excluded.buckets, reading_buckets = excluded.reading_buckets,
      room_min = excluded.room_min, room_mean = excluded.room_mean, room_max = excluded.room_max,
      valve_mean = excluded.valve_mean, setpoint_mean = excluded.setpoint_mean,
      occupied_setpoint_mean = excluded.occupied_setpoint_mean, heating_minutes = excluded.heating_minutes, window_minutes = excluded.window_minutes,
      window_heating_minutes = excluded.window_heating_minutes, outdoor_mean = excluded.outdoor_mean,
      occupied_minutes = excluded.occupied_minutes, below_comfort_minutes = excluded.below_comfort_minutes,
      category_i_minutes = excluded.category_i_minutes, category_ii_minutes = excluded.category_ii_minutes,
      category_iii_minutes = excluded.category_iii_minutes, setback_minutes = excluded.setback_minutes,
      stuck_open_minutes = excluded.stuck_open_minutes`);
}

/**
 * Called with each committed batch of uplinks (off the ingest's path): an uplink of a quarter hour
 * the job may already have rolled up moves its company's complete point back to that quarter, so
 * the next run computes it again. The network server forwards uplinks at once; only an outage of
 * the broker or of every instance makes one late. @returns the companies rewound.
 */
export async function rewindForLateUplinks(
  db: Db,
  uplinks: { time: Date; companyId: string }[],
  now: Date = new Date(),
): Promise<string[]> {
  const settled = floorQuarter(now.getTime() - SETTLE_MS);
  const earliest = new Map<string, number>();
  for (const { time, companyId } of uplinks) {
    const at = time.getTime();
    if (at < settled) earliest.set(companyId, Math.min(at, earliest.get(companyId) ?? at));
  }
  for (const [companyId, at] of earliest)
    await db.execute(sql`
      update rollup_state set done_until = least(done_until, ${new Date(floorQuarter(at)).toISOString()}::timestamptz)
      where company_id = ${companyId}`);
  return [...earliest.keys()];
}

/** Rolls up one company's [`from`, `to`) at both levels (quarter hours, then the days touched). */
export async function rollUpCompany(
  db: Db,
  company: { id: string; timeZone: string },
  from: Date,
  to: Date,
  now: Date,
): Promise<void> {
  await rollUpQuarterHours(db, company.id, from, to, now);
  await rollUpDays(db, company.id, company.timeZone, from, to);
}

/**
 * One run of the rollup job: starts the companies that have telemetry but no state yet at their
 * first uplink, then brings every company with at least an hour due up to the last complete
 * quarter hour, a week per transaction. @returns how many steps were rolled up (0 = everything was current).
 */
export async function runRollups(db: Db, now: Date = new Date()): Promise<number> {
  const target = new Date(floorQuarter(now.getTime() - SETTLE_MS));
  await db.execute(sql`
    insert into rollup_state (company_id, done_until)
    select c.id, date_bin('15 minutes', m.first, timestamptz '2000-01-01')
    from companies c
    cross join lateral (select min(time) as first from telemetry where company_id = c.id) m
    where m.first is not null and not exists (select 1 from rollup_state s where s.company_id = c.id)
    on conflict do nothing`);
  let steps = 0;
  for (;;) {
    const stepped = await db.transaction(async (tx) => {
      const [claimed] = rowsOf<{ company_id: string; done_until: string | Date; time_zone: string }>(
        await tx.execute(sql`
          select s.company_id, s.done_until, c.time_zone from rollup_state s
          join companies c on c.id = s.company_id
          where s.done_until <= ${new Date(target.getTime() - BATCH_MS).toISOString()}::timestamptz
          order by s.done_until
          limit 1
          for update of s skip locked`),
      );
      if (!claimed) return false;
      // The planner's row estimates for the quarter-hour grid are far too high, which would
      // JIT-compile the statement at every run: seconds of compiling for milliseconds of work.
      await tx.execute(sql`set local jit = off`);
      const doneUntil = new Date(claimed.done_until).getTime();
      const from = new Date(doneUntil);
      const to = new Date(Math.min(doneUntil + STEP_MS, target.getTime()));
      await rollUpCompany(
        tx as unknown as Db,
        { id: claimed.company_id, timeZone: claimed.time_zone },
        from,
        to,
        now,
      );
      await tx.execute(
        sql`update rollup_state set done_until = ${to.toISOString()}, updated_at = now() where company_id = ${claimed.company_id}`,
      );
      return true;
    });
    if (!stepped) return steps;
    steps += 1;
  }
}
