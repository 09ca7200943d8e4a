/**
 * Database side of the uplink ingest (`IngestStore`): device lookup by DevEUI and the batch
 * commit — telemetry rows (multi-row insert, `ON CONFLICT DO NOTHING` on the uplink key),
 * device last seen/battery/signal, the unit's current room temperature, valve opening and supply
 * temperature, downlink delivery states and gateway last seen, all in one transaction. Device
 * and unit "current" values only move forward: they are taken from uplinks that were new in
 * this commit and, for devices, only when newer than `last_seen`.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, gateways } from '../db/schema/devices.ts';
import { downlinks, telemetry } from '../db/schema/telemetry.ts';
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
    commit: (batch) => db.transaction((tx) => commitBatch(tx, batch)),
  };
}

const key = (devEui: string, timeMs: number, fCnt: number) => `${devEui}|${timeMs}|${fCnt}`;

async function commitBatch(tx: Tx, batch: IngestBatch): Promise<{ inserted: number }> {
  const readings = batch.uplinks.filter((u) => u.reading);
  const insertedKeys = await insertTelemetry(tx, readings);
  const fresh = readings.filter((u) =>
    insertedKeys.has(key(u.event.devEui, u.event.time.getTime(), u.event.fCnt)),
  );
  await updateDevices(tx, batch);
  await updateUnits(tx, fresh);
  await updateDownlinks(tx, batch);
  await updateGateways(tx, batch);
  return { inserted: insertedKeys.size };
}

/**
 * One `INSERT … SELECT FROM unnest(arrays) ON CONFLICT DO NOTHING`: 15 array parameters instead
 * of 15 per row, which keeps a 1000-row batch cheap to build and to parse on both backends.
 * @returns the keys of the rows that were new.
 */
async function insertTelemetry(tx: Tx, readings: DecodedUplink[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  if (readings.length === 0) return inserted;
  const rows = readings.map(toTelemetryRow);
  const column = <K extends keyof typeof telemetry.$inferInsert>(k: K, type: string) =>
    array(
      rows.map((r) => r[k] ?? null),
      type,
    );
  const result = await tx.execute(sql`
    insert into ${telemetry} (dev_eui, time, f_cnt, device_id, company_id, unit_id, f_port, room_temperature,
      supply_temperature, setpoint_reported, valve_opening, battery, battery_unit, rssi, snr)
    select * from unnest(
      ${column('devEui', 'text')}, ${array(
        rows.map((r) => r.time.toISOString()),
        'timestamptz',
      )},
      ${column('fCnt', 'int')}, ${column('deviceId', 'text')}, ${column('companyId', 'uuid')},
      ${column('unitId', 'uuid')}, ${column('fPort', 'int')}, ${column('roomTemperature', 'real')},
      ${column('supplyTemperature', 'real')}, ${column('setpointReported', 'real')},
      ${column('valveOpening', 'real')}, ${column('battery', 'real')}, ${column('batteryUnit', 'text')},
      ${column('rssi', 'real')}, ${column('snr', 'real')})
    on conflict do nothing
    returning dev_eui, f_cnt, (extract(epoch from time) * 1000)::float8 as ms`);
  for (const r of (result as unknown as { rows: { dev_eui: string; f_cnt: number; ms: number | string }[] })
    .rows) {
    inserted.add(key(r.dev_eui, Number(r.ms), Number(r.f_cnt)));
  }
  return inserted;
}

/** One telemetry row from a decoded uplink (°C, %, battery V or %, dBm, dB). */
export function toTelemetryRow({ event, device, reading }: DecodedUplink): typeof telemetry.$inferInsert {
  return {
    devEui: event.devEui,
    time: event.time,
    fCnt: event.fCnt,
    deviceId: device.id,
    companyId: device.companyId,
    unitId: device.unitId,
    fPort: event.fPort,
    roomTemperature: reading?.roomTemperature ?? null,
    supplyTemperature: reading?.supplyTemperature ?? null,
    setpointReported: reading?.setpoint ?? null,
    valveOpening: reading?.valveOpening ?? null,
    battery: reading?.battery?.value ?? null,
    batteryUnit: reading?.battery?.unit ?? null,
    rssi: event.radio.rssi ?? null,
    snr: event.radio.snr ?? null,
  };
}

/** One array parameter cast to `type[]`, for `unnest(…)` (one parameter per column, not per row). */
const array = (values: unknown[], type: string) => sql`${sql.param(values)}::${sql.raw(type)}[]`;

async function updateDevices(tx: Tx, batch: IngestBatch) {
  // Latest uplink per device (any uplink: an undecodable one still proves the device is alive).
  const latest = new Map<string, DecodedUplink>();
  for (const u of batch.uplinks) {
    const prev = latest.get(u.device.id);
    if (!prev || prev.event.time <= u.event.time) latest.set(u.device.id, u);
  }
  if (latest.size > 0) {
    const rows = [...latest.values()];
    await tx.execute(sql`
      update ${devices} set
        last_seen = v.seen,
        battery = coalesce(v.battery, ${devices.battery}),
        battery_unit = case when v.battery is null then ${devices.batteryUnit} else v.battery_unit end,
        last_rssi = coalesce(v.rssi, ${devices.lastRssi}),
        last_snr = coalesce(v.snr, ${devices.lastSnr})
      from unnest(
        ${array(
          rows.map((u) => u.device.id),
          'text',
        )},
        ${array(
          rows.map((u) => u.event.time.toISOString()),
          'timestamptz',
        )},
        ${array(
          rows.map((u) => u.reading?.battery?.value ?? null),
          'real',
        )},
        ${array(
          rows.map((u) => u.reading?.battery?.unit ?? null),
          'text',
        )},
        ${array(
          rows.map((u) => u.event.radio.rssi ?? null),
          'real',
        )},
        ${array(
          rows.map((u) => u.event.radio.snr ?? null),
          'real',
        )}
      ) as v(id, seen, battery, battery_unit, rssi, snr)
      where ${devices.id} = v.id and (${devices.lastSeen} is null or ${devices.lastSeen} <= v.seen)`);
  }
  // DevStatusAns battery (%) from the network server, for devices whose payload has none.
  for (const { event, device } of batch.statuses) {
    if (event.batteryPercent === undefined) continue;
    await tx
      .update(devices)
      .set({ battery: event.batteryPercent, batteryUnit: '%' })
      .where(and(eq(devices.id, device.id), sql`coalesce(${devices.batteryUnit}, '%') = '%'`));
  }
}

async function updateUnits(tx: Tx, fresh: DecodedUplink[]) {
  // Per unit, the latest value of each field among this commit's new uplinks.
  const perUnit = new Map<string, { at: Date; room?: number; valve?: number; supply?: number }>();
  for (const { device, event, reading } of [...fresh].sort(
    (a, b) => a.event.time.getTime() - b.event.time.getTime(),
  )) {
    if (!device.unitId || !reading) continue;
    const current = perUnit.get(device.unitId) ?? { at: event.time };
    perUnit.set(device.unitId, {
      at: event.time,
      room: reading.roomTemperature ?? current.room,
      valve: reading.valveOpening ?? current.valve,
      supply: reading.supplyTemperature ?? current.supply,
    });
  }
  if (perUnit.size === 0) return;
  const rows = [...perUnit];
  await tx.execute(sql`
    update units set
      room_temperature = coalesce(v.room, units.room_temperature),
      valve_opening = coalesce(v.valve, units.valve_opening),
      supply_temperature = coalesce(v.supply, units.supply_temperature)
    from unnest(
      ${array(
        rows.map(([id]) => id),
        'uuid',
      )},
      ${array(
        rows.map(([, v]) => v.room ?? null),
        'real',
      )},
      ${array(
        rows.map(([, v]) => v.valve ?? null),
        'real',
      )},
      ${array(
        rows.map(([, v]) => v.supply ?? null),
        'real',
      )}
    ) as v(id, room, valve, supply)
    where units.id = v.id`);
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
