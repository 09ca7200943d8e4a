import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { telemetry } from '../db/schema/telemetry.ts';
import { chirpstackFormat } from './chirpstack.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { type IngestStore, UplinkIngest } from './ingest.ts';
import { startLorawanAdapter } from './mqtt-adapter.ts';
import type { MqttMessage, NetworkServerFormat } from './network-server.ts';
import { telemetryStore } from './telemetry.repository.ts';
import {
  APPLICATION_ID,
  absorbPoolShutdownError,
  brokerTargets,
  eventually,
  purgeSessions,
  seedValves,
  telemetryCount,
  uniqueRun,
  vickiUplink,
} from './test-fixture.ts';
import { ttsFormat } from './tts.ts';

describe.each(brokerTargets)('uplink ingest over MQTT ($name)', ({ url }) => {
  let database: Database;
  let broker: EmbeddedBroker | undefined;
  let brokerUrl: string;
  let run: ReturnType<typeof uniqueRun>;
  const open: { close(): Promise<unknown> }[] = [];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
  });
  afterAll(() => database.close());

  beforeEach(async () => {
    broker = url ? undefined : await startEmbeddedBroker({ port: 0 });
    brokerUrl = url ?? (broker as EmbeddedBroker).url;
    run = uniqueRun();
    vi.clearAllMocks();
  });

  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
    await purgeSessions(brokerUrl, [`${run.clientId}-ingest`, `${run.clientId}-ns`]);
    await broker?.close();
  });

  async function startIngest(
    store: IngestStore = telemetryStore(database.db),
    format: NetworkServerFormat = chirpstackFormat({ applicationId: APPLICATION_ID }),
  ) {
    const ingest = new UplinkIngest({ format, store, log });
    const adapter = startLorawanAdapter({
      url: brokerUrl,
      format,
      ingest,
      log,
      clientId: `${run.clientId}-ingest`,
      topicPrefix: run.prefix,
      reconnectPeriodMs: 50,
    });
    open.push(adapter);
    await adapter.ready;
    return { ingest, adapter };
  }

  async function publisher(): Promise<MqttClient & { send(m: MqttMessage): Promise<unknown> }> {
    const client = await mqtt.connectAsync(brokerUrl, {
      protocolVersion: 4,
      clean: false,
      clientId: `${run.clientId}-ns`,
      reconnectPeriod: 50,
    });
    open.push({ close: () => client.endAsync(true) });
    return Object.assign(client, {
      send: (m: MqttMessage) => client.publishAsync(`${run.prefix}${m.topic}`, m.payload, { qos: 1 }),
    });
  }

  it('stores every uplink, updates device and unit, and counts poison messages without blocking others', async () => {
    const { devEuis, unitIds, companyId } = await seedValves(database.db, 5);
    const { ingest } = await startIngest();
    const ns = await publisher();
    const frames = devEuis.flatMap((devEui) =>
      Array.from({ length: 20 }, (_, i) => vickiUplink(devEui, i + 1)),
    );
    const last = vickiUplink(devEuis[0] as string, 21, { roomTemperature: 23.5, valveOpening: 70 });
    const unknown = vickiUplink('0000000000000bad', 1);
    const malformed = {
      topic: unknown.topic.replace('0000000000000bad', devEuis[1] as string),
      payload: Buffer.from('{"fCnt":'),
    };
    const undecodable = JSON.parse(vickiUplink(devEuis[2] as string, 99).payload.toString());
    undecodable.data = Buffer.from([1, 2, 3]).toString('base64');
    for (const f of [...frames.slice(0, 50), unknown, malformed, unknown]) await ns.send(f);
    await ns.send({
      topic: vickiUplink(devEuis[2] as string, 99).topic,
      payload: Buffer.from(JSON.stringify(undecodable)),
    });
    for (const f of [...frames.slice(50), last]) await ns.send(f);

    await eventually(
      'all rows',
      async () => (await telemetryCount(database.db, companyId)) === frames.length + 1,
    );
    await ingest.drain();
    expect(ingest.metrics).toMatchObject({
      inserted: 101,
      unknownDevice: 2,
      malformed: 1,
      undecodable: 1,
      duplicates: 0,
    });
    // Logged once per device per hour: the second unknown frame is counted but not logged again.
    expect(log.warn.mock.calls.filter(([o]) => o.kind === 'unknownDevice')).toHaveLength(1);

    const [unit] = await database.db
      .select()
      .from(units)
      .where(eq(units.id, unitIds[0] as string));
    expect(unit).toMatchObject({
      roomTemperature: expect.closeTo(23.5, 0),
      valveOpening: expect.closeTo(70, 0),
    });
    const [device] = await database.db
      .select()
      .from(devices)
      .where(eq(devices.id, devEuis[0] as string));
    expect(device).toMatchObject({
      battery: expect.closeTo(3.4, 5),
      batteryUnit: 'V',
      lastRssi: -90,
      lastSnr: 7.5,
    });
    expect(device?.lastSeen?.toISOString()).toBe('2026-11-22T05:21:00.000Z');
  });

  it('ingests The Things Stack uplinks (uppercase DevEUI, device id topics) through the same path', async () => {
    const { devEuis, unitIds, companyId } = await seedValves(database.db, 1);
    const devEui = devEuis[0] as string;
    const { ingest } = await startIngest(undefined, ttsFormat({ appId: 'heizplan', tenant: 'ttn' }));
    const ns = await publisher();
    const chirpstack = JSON.parse(vickiUplink(devEui, 7, { roomTemperature: 22.5 }).payload.toString());
    await ns.send({
      topic: 'v3/heizplan@ttn/devices/room-1/up',
      payload: Buffer.from(
        JSON.stringify({
          end_device_ids: { device_id: 'room-1', dev_eui: devEui.toUpperCase() },
          received_at: chirpstack.time,
          uplink_message: {
            f_port: chirpstack.fPort,
            f_cnt: 7,
            frm_payload: chirpstack.data,
            rx_metadata: [{ gateway_ids: { gateway_id: 'gw-1' }, rssi: -80, snr: 9 }],
          },
        }),
      ),
    });
    await eventually('the TTS row', async () => (await telemetryCount(database.db, companyId)) === 1);
    await ingest.drain();
    const [unit] = await database.db
      .select()
      .from(units)
      .where(eq(units.id, unitIds[0] as string));
    expect(unit?.roomTemperature).toBeCloseTo(22.5, 0);
  });

  it('adds nothing for a duplicate delivery of the same uplink', async () => {
    const { devEuis, unitIds, companyId } = await seedValves(database.db, 2);
    const { ingest } = await startIngest();
    const ns = await publisher();
    const frames = devEuis.flatMap((devEui) =>
      Array.from({ length: 10 }, (_, i) => vickiUplink(devEui, i + 1)),
    );
    for (const f of [...frames, ...frames]) await ns.send(f);
    await eventually('every delivery processed', () => ingest.metrics.received === 40);
    await ingest.drain();
    expect(await telemetryCount(database.db, companyId)).toBe(20);
    expect(ingest.metrics).toMatchObject({ inserted: 20, duplicates: 20 });

    // A late redelivery of an older uplink (fCnt 9: 24 °C) leaves the unit on fCnt 10 (20 °C).
    await ns.send(frames[8] as MqttMessage);
    await eventually('the redelivery processed', () => ingest.metrics.received === 41);
    await ingest.drain();
    const [unit] = await database.db
      .select()
      .from(units)
      .where(eq(units.id, unitIds[0] as string));
    expect(unit?.roomTemperature).toBeCloseTo(20, 0);
    expect(ingest.metrics.duplicates).toBe(21);
  });

  it('stores a row under the unit its device has at commit time, even while the lookup is cached', async () => {
    const { devEuis, unitIds, companyId } = await seedValves(database.db, 2);
    const devEui = devEuis[0] as string;
    const { ingest } = await startIngest();
    const ns = await publisher();
    await ns.send(vickiUplink(devEui, 1));
    await eventually('the first row', async () => (await telemetryCount(database.db, companyId)) === 1);
    await ingest.drain();
    await database.db
      .update(devices)
      .set({ unitId: unitIds[1] as string })
      .where(eq(devices.id, devEui));
    await ns.send(vickiUplink(devEui, 2, { roomTemperature: 19.5 }));
    await eventually('the second row', async () => (await telemetryCount(database.db, companyId)) === 2);
    await ingest.drain();
    const rows = await database.db
      .select({ fCnt: telemetry.fCnt, unitId: telemetry.unitId })
      .from(telemetry)
      .where(eq(telemetry.devEui, devEui))
      .orderBy(telemetry.fCnt);
    expect(rows).toEqual([
      { fCnt: 1, unitId: unitIds[0] },
      { fCnt: 2, unitId: unitIds[1] },
    ]);
    const [moved] = await database.db
      .select()
      .from(units)
      .where(eq(units.id, unitIds[1] as string));
    expect(moved?.roomTemperature).toBeCloseTo(19.5, 1);
  });

  it('loses nothing when Heizplan stops before its commit: the broker redelivers what was not acknowledged', async () => {
    const { devEuis, companyId } = await seedValves(database.db, 3);
    const real = telemetryStore(database.db);
    const failing: IngestStore = {
      devicesByDevEui: (e) => real.devicesByDevEui(e),
      commit: async () => {
        throw new Error('database unavailable');
      },
    };
    const first = await startIngest(failing);
    const ns = await publisher();
    const frames = devEuis.flatMap((devEui) =>
      Array.from({ length: 10 }, (_, i) => vickiUplink(devEui, i + 1)),
    );
    for (const f of frames) await ns.send(f);
    await eventually('a failed commit', () => first.ingest.metrics.commitFailures > 0);
    expect(log.error).toHaveBeenCalled();
    await first.adapter.close();
    expect(await telemetryCount(database.db, companyId)).toBe(0);

    await startIngest();
    await eventually(
      'redelivered rows',
      async () => (await telemetryCount(database.db, companyId)) === frames.length,
    );
  });

  if (!url) {
    it('loses no QoS 1 uplink when the broker restarts in the middle of a stream', async () => {
      const { devEuis, companyId } = await seedValves(database.db, 10);
      const { ingest } = await startIngest();
      const ns = await publisher();
      const frames = devEuis.flatMap((devEui) =>
        Array.from({ length: 60 }, (_, i) => vickiUplink(devEui, i + 1)),
      );
      const sending = Promise.all(frames.map((f) => ns.send(f)));
      await eventually(
        'the stream to be under way',
        async () => (await telemetryCount(database.db, companyId)) > 50,
      );
      await (broker as EmbeddedBroker).restart();
      await sending;
      await eventually(
        'every frame stored',
        async () => (await telemetryCount(database.db, companyId)) === frames.length,
      );
      await ingest.drain();
      expect(await telemetryCount(database.db, companyId)).toBe(frames.length);
    });
  }
});
