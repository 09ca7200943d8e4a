/**
 * Database side of the uplink ingest (`IngestStore`): device lookup by DevEUI and the batch
 * commit — telemetry rows (multi-row insert, `ON CONFLICT DO NOTHING` on the uplink key),
 * device last seen/battery/signal, the unit's current room temperature, valve opening and supply
 * temperature, downlink delivery states and gateway last seen, all in one transaction. Device
 * and unit "current" values only move forward: they are taken from uplinks that were new in
 * this commit and, for devices, only when newer than `last_seen`.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
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

const key = (devEui: string, time: Date, fCnt: number) => `${devEui}|${time.getTime()}|${fCnt}`;

async function commitBatch(tx: Tx, batch: IngestBatch): Promise<{ inserted: number }> {
  const readings = batch.uplinks.filter((u) => u.reading);
  const insertedKeys = new Set<string>();
  if (readings.length > 0) {
    const rows = await tx
      .insert(telemetry)
      .values(readings.map(toTelemetryRow))
      .onConflictDoNothing()
      .returning({ devEui: telemetry.devEui, time: telemetry.time, fCnt: telemetry.fCnt });
    for (const r of rows) insertedKeys.add(key(r.devEui, r.time, r.fCnt));
  }
  const fresh = readings.filter((u) => insertedKeys.has(key(u.event.devEui, u.event.time, u.event.fCnt)));
  await updateDevices(tx, batch);
  await updateUnits(tx, fresh);
  await updateDownlinks(tx, batch);
  await updateGateways(tx, batch);
  return { inserted: insertedKeys.size };
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

/** `(v1, v2, …), (…)` for an `update … from (values …)` statement. */
const valuesList = (rows: SQL[][]) =>
  sql.join(
    rows.map((r) => sql`(${sql.join(r, sql`, `)})`),
    sql`, `,
  );

async function updateDevices(tx: Tx, batch: IngestBatch) {
  // Latest uplink per device (any uplink: an undecodable one still proves the device is alive).
  const latest = new Map<string, DecodedUplink>();
  for (const u of batch.uplinks) {
    const prev = latest.get(u.device.id);
    if (!prev || prev.event.time <= u.event.time) latest.set(u.device.id, u);
  }
  if (latest.size > 0) {
    const rows = [...latest.values()].map(({ device, event, reading }) => [
      sql`${device.id}::text`,
      sql`${event.time.toISOString()}::timestamptz`,
      sql`${reading?.battery?.value ?? null}::real`,
      sql`${reading?.battery?.unit ?? null}::text`,
      sql`${event.radio.rssi ?? null}::real`,
      sql`${event.radio.snr ?? null}::real`,
    ]);
    await tx.execute(sql`
      update ${devices} set
        last_seen = v.seen,
        battery = coalesce(v.battery, ${devices.battery}),
        battery_unit = case when v.battery is null then ${devices.batteryUnit} else v.battery_unit end,
        last_rssi = coalesce(v.rssi, ${devices.lastRssi}),
        last_snr = coalesce(v.snr, ${devices.lastSnr})
      from (values ${valuesList(rows)}) as v(id, seen, battery, battery_unit, rssi, snr)
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
  const rows = [...perUnit].map(([unitId, v]) => [
    sql`${unitId}::uuid`,
    sql`${v.room ?? null}::real`,
    sql`${v.valve ?? null}::real`,
    sql`${v.supply ?? null}::real`,
  ]);
  await tx.execute(sql`
    update units set
      room_temperature = coalesce(v.room, units.room_temperature),
      valve_opening = coalesce(v.valve, units.valve_opening),
      supply_temperature = coalesce(v.supply, units.supply_temperature)
    from (values ${valuesList(rows)}) as v(id, room, valve, supply)
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
