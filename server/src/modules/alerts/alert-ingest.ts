/**
 * The cheap alert checks on every ingested batch: called after the batch committed,
 * off the ingest's path, so a slow or failing evaluation never holds an uplink back. Per device,
 * its newest uplink of the batch decides:
 * - device faults (`Reading.errors`, one alert per code) and open windows — reported by the
 *   device, or inferred from a drop of ≥ 1.5 °C within 20 minutes while the valve heats;
 * - the onsets of the slow conditions (frost: room below FROST_CELSIUS; room not warming:
 *   setpoint > room + 2 °C with the valve ≥ 80 %; room far from the unit's setpoint), which the
 *   periodic evaluation turns into alerts once they lasted long enough;
 * - offline and low battery, which a fresh uplink may clear or open.
 */
import { FROST_CELSIUS } from '@heizplan/contracts/alert-defaults';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DecodedUplink } from '../../lorawan/ingest.ts';
import { ALERT_LOCK, evaluateAlerts } from './alert-evaluation.ts';

/** °C a room must fall within `WINDOW_MINUTES` while heating to count as an open window. */
const WINDOW_DROP = 1.5;
const WINDOW_MINUTES = 20;

const pgArray = (values: readonly (string | number | boolean | null)[], type: string) =>
  sql`${`{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replaceAll('"', '\\"')}"`)).join(',')}}`}::${sql.raw(type)}[]`;

/** The newest decoded uplink of each device in the batch. */
function newestPerDevice(uplinks: DecodedUplink[]): DecodedUplink[] {
  const newest = new Map<string, DecodedUplink>();
  for (const uplink of uplinks) {
    if (!uplink.reading) continue;
    const seen = newest.get(uplink.device.id);
    if (!seen || seen.event.time < uplink.event.time) newest.set(uplink.device.id, uplink);
  }
  return [...newest.values()];
}

/** Evaluates the alert conditions the batch's uplinks decide, at `now`. */
export async function evaluateUplinks(db: Db, uplinks: DecodedUplink[], now = new Date()): Promise<void> {
  const latest = newestPerDevice(uplinks);
  if (latest.length === 0) return;
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

export interface UplinkAlerts {
  /** Hands a committed batch over; returns at once. */
  push(uplinks: DecodedUplink[]): void;
  /** Resolves once every batch handed over so far has been evaluated (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Evaluates committed batches one evaluation at a time; batches arriving meanwhile are merged
 * into the next one, so a burst of uplinks costs a few evaluations, not one per batch. A failed
 * evaluation is logged; the periodic evaluation catches up.
 */
export function uplinkAlerts(db: Db, log: { error(obj: object, msg: string): void }): UplinkAlerts {
  let waiting: DecodedUplink[] = [];
  let running: Promise<void> | null = null;
  const run = async () => {
    while (waiting.length > 0) {
      const next = waiting;
      waiting = [];
      try {
        await evaluateUplinks(db, next);
      } catch (err) {
        log.error({ err, uplinks: next.length }, 'alert evaluation of uplinks failed');
      }
    }
    running = null;
  };
  return {
    push(uplinks) {
      waiting.push(...uplinks);
      running ??= run();
    },
    async idle() {
      while (running !== null) await running;
    },
  };
}
