/**
 * Database side of the uplink ingest (`IngestStore`): device lookup by DevEUI and the batch
 * commit — telemetry rows (one multi-row insert from arrays, `ON CONFLICT DO NOTHING` on the
 * uplink key), device last seen/battery/signal, the unit's current room temperature, valve
 * opening and supply temperature, downlink delivery states and gateway last seen, all atomic.
 * Device and unit "current" values only move forward: they are taken from uplinks that were new
 * in this commit and, for devices, only when newer than `last_seen` (docs/decisions/0016).
 */

import type { ReportedConfig } from '@heizplan/contracts/device-profiles';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { sqlArray } from '../db/any-of.ts';
import type { Db } from '../db/client.ts';
import { devices, gateways } from '../db/schema/devices.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import type { DecodedUplink, DeviceRef, IngestBatch, IngestStore } from './ingest.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Downlink states each event may move a row out of; superseded and final rows never move. */
const FROM_STATES = {
  queued: [],
  sent: ['queued'],
  acknowledged: ['queued', 'sent'],
  failed: ['queued', 'sent'],
} as const;

export function telemetryStore(db: Db): IngestStore {
  return {
    async devicesByDevEui(devEuis) {
      if (devEuis.length === 0) return new Map();
      const rows = await db
        .select({
          id: devices.id,
          devEui: devices.devEui,
          companyId: devices.companyId,
          unitId: devices.unitId,
          model: devices.model,
        })
        .from(devices)
        .where(inArray(devices.devEui, devEuis));
      return new Map(
        rows.map((r) => [r.devEui as string, { ...r, devEui: r.devEui as string } satisfies DeviceRef]),
      );
    },
    commit: async (batch) => {
      // The common case — uplinks only — is one statement, atomic on its own: no BEGIN/COMMIT
      // round trips. Rare events (status, downlink states, gateways) share a transaction with it.
      if (batch.statuses.length + batch.downlinks.length + batch.gateways.length === 0) {
        return { inserted: await ingestUplinks(db, batch.uplinks) };
      }
      return db.transaction(async (tx) => {
        const inserted = await ingestUplinks(tx, batch.uplinks);
        await updateStatuses(tx, batch);
        await updateDownlinks(tx, batch);
        await updateGateways(tx, batch);
        return { inserted };
      });
    },
  };
}

/**
 * The configuration an uplink reports (device profiles): the answers it carries and the child
 * lock where the model reports it in every uplink.
 */
function reportedConfig(u: DecodedUplink): ReportedConfig {
  const config: ReportedConfig = { ...u.reading?.config };
  if (u.reading?.childLock !== undefined) config.childLock = u.reading.childLock;
  return config;
}

/** One array parameter cast to `type[]`, for `unnest(…)` (one parameter per column, not per row). */

/**
 * One statement for a batch of uplinks, with 15 array parameters whatever the batch size:
 * 1. insert the telemetry rows of uplinks with a reading (`ON CONFLICT DO NOTHING` on
 *    (dev_eui, time, f_cnt): a redelivery adds nothing), attributed to the device's unit and
 *    company as they are now (joined, not taken from the ingest's device cache);
 * 2. move each device's last seen, battery and signal to its latest uplink of the batch (any
 *    uplink: an undecodable one still proves the device alive), never backwards, with the
 *    firmware, frost protection and configuration it answered in any uplink of the batch (the
 *    latest answer of each; a valve answers a query once, in the uplink after the one that took
 *    it, so a later uplink of the same batch must not drop it), the relays a relay controller
 *    reported last, and the spreading factor and size of the latest uplink (airtime.ts);
 * 3. set each unit's room temperature, valve opening and supply temperature to the latest value
 *    of each among the rows that were new, skipping units whose values do not change.
 * @returns how many telemetry rows were new.
 */
async function ingestUplinks(db: Db | Tx, uplinks: DecodedUplink[]): Promise<number> {
  if (uplinks.length === 0) return 0;
  const col = (type: string, value: (u: DecodedUplink) => unknown) => sqlArray(uplinks.map(value), type);
  const result = await db.execute(sql`
    with v as (
      select * from unnest(
        ${col('text', (u) => u.event.devEui)},
        ${col('timestamptz', (u) => u.event.time.toISOString())}, ${col('int', (u) => u.event.fCnt)},
        ${col('int', (u) => u.event.fPort)}, ${col('boolean', (u) => u.reading !== undefined)},
        ${col('real', (u) => u.reading?.roomTemperature ?? null)},
        ${col('real', (u) => u.reading?.supplyTemperature ?? null)},
        ${col('real', (u) => u.reading?.setpoint ?? null)},
        ${col('real', (u) => u.reading?.valveOpening ?? null)},
        ${col('real', (u) => u.reading?.battery?.value ?? null)},
        ${col('text', (u) => u.reading?.battery?.unit ?? null)},
        ${col('real', (u) => u.event.radio.rssi ?? null)}, ${col('real', (u) => u.event.radio.snr ?? null)},
        ${col('text', (u) => u.reading?.firmware ?? null)},
        ${col('jsonb', (u) => (u.reading?.antiFreeze ? JSON.stringify(u.reading.antiFreeze) : null))},
        ${col('jsonb', (u) => JSON.stringify(reportedConfig(u)))},
        ${col('int', (u) => u.event.spreadingFactor ?? null)}, ${col('int', (u) => u.event.bytes.length)},
        ${col('jsonb', (u) => (u.reading?.relays ? JSON.stringify(u.reading.relays) : null))}
      ) with ordinality as v(dev_eui, time, f_cnt, f_port, decoded, room, supply, setpoint, valve,
             battery, battery_unit, rssi, snr, firmware, anti_freeze, config, sf, bytes, relays, ord)
    ),
    answered as (
      select v.dev_eui,
        (array_agg(v.firmware order by v.time desc, v.ord desc) filter (where v.firmware is not null))[1] as firmware,
        (array_agg(v.anti_freeze order by v.time desc, v.ord desc) filter (where v.anti_freeze is not null))[1] as anti_freeze,
        coalesce(jsonb_object_agg(c.key, c.value order by v.time, v.ord) filter (where c.key is not null), '{}'::jsonb) as config,
        (array_agg(v.relays order by v.time desc, v.ord desc) filter (where v.relays is not null))[1] as relays,
        max(v.time) filter (where v.relays is not null) as relays_at
      from v left join lateral jsonb_each(v.config) c on true
      group by v.dev_eui
    ),
    fresh as (
      insert into telemetry (dev_eui, time, f_cnt, device_id, company_id, unit_id, f_port,
        room_temperature, supply_temperature, setpoint_reported, valve_opening, battery, battery_unit,
        rssi, snr)
      select v.dev_eui, v.time, v.f_cnt, d.id, d.company_id, d.unit_id, v.f_port, v.room, v.supply,
        v.setpoint, v.valve, v.battery, v.battery_unit, v.rssi, v.snr
      from v join devices d on d.dev_eui = v.dev_eui
      where v.decoded
      on conflict do nothing
      returning unit_id, time, room_temperature, valve_opening, supply_temperature
    ),
    seen as (
      update devices d set
        last_seen = l.time,
        battery = coalesce(l.battery, d.battery),
        battery_unit = case when l.battery is null then d.battery_unit else l.battery_unit end,
        last_rssi = coalesce(l.rssi, d.last_rssi),
        last_snr = coalesce(l.snr, d.last_snr),
        firmware = coalesce(a.firmware, d.firmware),
        anti_freeze = coalesce(a.anti_freeze, d.anti_freeze),
        reported_config = d.reported_config || a.config,
        -- A relay controller's relays (the read-back of a circuit's relay output), never backwards.
        relays = case when a.relays_at >= coalesce(d.relays_at, a.relays_at) then a.relays else d.relays end,
        relays_at = case when a.relays_at >= coalesce(d.relays_at, a.relays_at) then a.relays_at else d.relays_at end,
        spreading_factor = coalesce(l.sf, d.spreading_factor),
        uplink_bytes = case when l.decoded then l.bytes else d.uplink_bytes end
      from (select distinct on (dev_eui) * from v order by dev_eui, time desc, ord desc) l
        join answered a on a.dev_eui = l.dev_eui
      where d.dev_eui = l.dev_eui and (d.last_seen is null or d.last_seen <= l.time)
    ),
    latest as (
      select unit_id,
        (array_agg(room_temperature order by time desc) filter (where room_temperature is not null))[1] as room,
        (array_agg(valve_opening order by time desc) filter (where valve_opening is not null))[1] as valve,
        (array_agg(supply_temperature order by time desc) filter (where supply_temperature is not null))[1] as supply
      from fresh where unit_id is not null group by unit_id
    ),
    current as (
      update units u set
        room_temperature = coalesce(l.room, u.room_temperature),
        valve_opening = coalesce(l.valve, u.valve_opening),
        supply_temperature = coalesce(l.supply, u.supply_temperature)
      from latest l
      where u.id = l.unit_id
        and (u.room_temperature, u.valve_opening, u.supply_temperature) is distinct from
          (coalesce(l.room, u.room_temperature), coalesce(l.valve, u.valve_opening),
           coalesce(l.supply, u.supply_temperature))
    )
    select count(*)::int as inserted from fresh`);
  return Number((result as unknown as { rows: { inserted: number | string }[] }).rows[0]?.inserted ?? 0);
}

/** DevStatusAns battery (%) from the network server, for devices whose payload has none. */
async function updateStatuses(tx: Tx, batch: IngestBatch) {
  for (const { event, device } of batch.statuses) {
    if (event.batteryPercent === undefined) continue;
    await tx
      .update(devices)
      .set({ battery: event.batteryPercent, batteryUnit: '%' })
      .where(and(eq(devices.id, device.id), sql`coalesce(${devices.batteryUnit}, '%') = '%'`));
  }
}

async function updateDownlinks(tx: Tx, batch: IngestBatch) {
  for (const event of batch.downlinks) {
    const from = FROM_STATES[event.state];
    // A queue item Heizplan did not create (e.g. enqueued in the ChirpStack UI) has no row.
    if (from.length === 0 || !UUID.test(event.downlinkId)) continue;
    await tx
      .update(downlinks)
      .set({ state: event.state, updatedAt: event.time })
      .where(and(eq(downlinks.id, event.downlinkId), inArray(downlinks.state, [...from])));
  }
}

async function updateGateways(tx: Tx, batch: IngestBatch) {
  const latest = new Map<string, Date>();
  for (const g of batch.gateways) {
    if (!g.online) continue;
    const prev = latest.get(g.gatewayEui);
    if (!prev || prev < g.time) latest.set(g.gatewayEui, g.time);
  }
  for (const [gatewayEui, time] of latest) {
    await tx
      .update(gateways)
      .set({ lastSeen: time })
      .where(
        and(
          eq(gateways.gatewayEui, gatewayEui),
          sql`(${gateways.lastSeen} is null or ${gateways.lastSeen} < ${time.toISOString()}::timestamptz)`,
        ),
      );
  }
}
