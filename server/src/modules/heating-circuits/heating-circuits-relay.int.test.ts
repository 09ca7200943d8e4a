/**
 * A heating circuit in mode `on` with a Dragino LT-22222-L relay as its output, against real
 * protocol peers: the embedded MQTT broker, the server's LoRaWAN adapter and downlink queue in the
 * ChirpStack format, and a stand-in network server subscribed to the devices' command topic. A
 * step queues the relay downlink of the vendor manual ("LT-22222-L LoRa I/O Controller User
 * Manual", `03 aa bb`) through the valves' downlink queue, the network server's events move its
 * row to sent and acknowledged, an unchanged enable sends nothing (no watchdog: LoRaWAN fair use),
 * and the relay's uplinks are the read-back: RO1 closed as written is stored with the write, RO1
 * open while enabled is an override that pauses the circuit for an hour (decision 0077).
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildingOutdoorTemperatures, devices, downlinks, units } from '../../db/schema.ts';
import { chirpstackFormat, chirpstackUplinkEvent } from '../../lorawan/chirpstack.ts';
import { getCodec } from '../../lorawan/codecs/registry.ts';
import { DownlinkQueue } from '../../lorawan/downlink-queue.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../lorawan/embedded-broker.ts';
import { UplinkIngest } from '../../lorawan/ingest.ts';
import { type LorawanAdapter, startLorawanAdapter } from '../../lorawan/mqtt-adapter.ts';
import { telemetryStore } from '../../lorawan/telemetry.repository.ts';
import { APPLICATION_ID, eventually } from '../../lorawan/test-fixture.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { seedRegistry } from '../devices/registry-test-fixtures.ts';
import { CIRCUIT_STEP_MS } from './heating-circuits.service.ts';

const clock = testClock('2027-01-12T05:00:00Z');
const RELAY = 'a84041000181c061';

describe('a heating circuit in mode on with a LoRaWAN relay output', () => {
  let t: TestApp;
  let base: string;
  let companyId: string;
  let buildingId: string;
  let broker: EmbeddedBroker;
  let adapter: LorawanAdapter;
  let ingest: UplinkIngest;
  let queue: DownlinkQueue;
  let ns: mqtt.MqttClient;
  const received: { topic: string; body: Record<string, unknown> }[] = [];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const format = chirpstackFormat({ applicationId: APPLICATION_ID });
  let fCnt = 0;
  let unitIds: string[] = [];

  const step = async () => {
    clock.advance(CIRCUIT_STEP_MS);
    return t.services.heatingCircuits.stepDue();
  };
  const writesOf = async (id: string) => (await t.call('GET', `${base}/${id}/writes?limit=50`)).json().writes;
  const relayDownlinks = () =>
    t.database.db
      .select()
      .from(downlinks)
      .where(and(eq(downlinks.companyId, companyId), eq(downlinks.devEui, RELAY)));
  /** The network server's event about the relay's downlink `id` (txack, ack). */
  const event = (kind: string, id: string, extra: object = {}) =>
    ns.publishAsync(
      `application/${APPLICATION_ID}/device/${RELAY}/event/${kind}`,
      JSON.stringify({
        time: clock.now().toISOString(),
        deviceInfo: { devEui: RELAY },
        queueItemId: id,
        ...extra,
      }),
      { qos: 1 },
    );
  /** The relay's MOD1 uplink on port 2 with RO1 as given, at the test clock's now. */
  const uplink = async (ro1Closed: boolean) => {
    fCnt += 1;
    const { fPort, bytes } = getCodec('dragino-lt22222').encodeUplink({
      errors: [],
      relays: { ro1Closed, ro2Closed: false },
    });
    const message = chirpstackUplinkEvent({
      applicationId: APPLICATION_ID,
      devEui: RELAY,
      fCnt,
      fPort,
      bytes,
      time: clock.now(),
      gatewayId: '0016c001ff10a235',
      rssi: -80,
      snr: 9,
      deduplicationId: randomUUID(),
    });
    await ns.publishAsync(message.topic, message.payload, { qos: 1 });
    await eventually('the relay state stored', async () => {
      const [device] = await t.database.db.select().from(devices).where(eq(devices.id, RELAY));
      return device?.relays?.ro1Closed === ro1Closed && device.relaysAt?.getTime() === clock.now().getTime();
    });
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const f = await seedRegistry(t.database.db);
    companyId = f.companyId;
    base = `/api/companies/${companyId}/heating-circuits`;
    buildingId = (
      await t.call('POST', `/api/companies/${companyId}/buildings`, { name: 'Grundschule', state: 'BY' })
    ).json().id;
    const rooms = await t.database.db
      .insert(units)
      .values([
        // Both rooms draw heat and sit at their setpoint: the generator runs.
        { companyId, name: 'Raum 1', buildingId, setpoint: 21, roomTemperature: 21, valveOpening: 40 },
        { companyId, name: 'Raum 2', buildingId, setpoint: 21, roomTemperature: 21.1, valveOpening: 30 },
      ])
      .returning({ id: units.id });
    unitIds = rooms.map((room) => room.id);
    await t.database.db.insert(buildingOutdoorTemperatures).values({
      companyId,
      buildingId,
      at: new Date('2027-01-12T05:00:00Z'),
      temperature: -4,
      kind: 'observed',
      provider: 'test',
    });
    // The relay is paired like a valve, without a room.
    await grantLicences(t.database.db, companyId, 5);
    const paired = await t.call('POST', `/api/companies/${companyId}/devices`, {
      id: RELAY.toUpperCase(),
      model: 'dragino-lt22222',
    });
    expect(paired.statusCode).toBe(201);

    broker = await startEmbeddedBroker({ port: 0 });
    ingest = new UplinkIngest({ format, store: telemetryStore(t.database.db), log });
    adapter = startLorawanAdapter({ url: broker.url, format, ingest, log, clientId: 'heizplan-relay-test' });
    await adapter.ready;
    queue = new DownlinkQueue({
      db: t.database.db,
      log,
      publish: (request) => adapter.publish(format.downlink(request)),
    });
    t.ports.queueDownlink = async (company, devEui, fPort, payloadHex) => {
      await queue.queueRaw({
        companyId: company,
        devEui,
        fPort,
        payloadHex,
        reason: 'generator',
        at: clock.now(),
      });
    };
    // The network server's side: it receives command/down and answers with txack/ack events.
    ns = await mqtt.connectAsync(broker.url, { protocolVersion: 4, clientId: 'relay-test-ns' });
    ns.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
    await ns.subscribeAsync('application/+/device/+/command/down', { qos: 1 });
  });
  afterAll(async () => {
    queue.close();
    await t.services.heatingCircuits.close();
    await ns.endAsync();
    await adapter.close();
    await broker.close();
    await t.close();
  });

  it('refuses mode on with a relay that is not a device of the company, naming body.output.devEui', async () => {
    const res = await t.call('POST', base, {
      name: 'Fremdes Relais',
      buildingId,
      generatorType: 'gas_boiler',
      mode: 'on',
      output: { kind: 'lora_relay', devEui: 'a84041000181ffff' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ field: 'body.output.devEui', code: 'circuit_relay_not_a_device' }),
    ]);
  });

  it('switches the relay through the downlink queue on a change of the enable only, and reads it back from its uplinks', async () => {
    const created = await t.call('POST', base, {
      name: 'Heizkreis Nord',
      buildingId,
      unitIds,
      generatorType: 'gas_boiler',
      mode: 'on',
      output: { kind: 'lora_relay', devEui: RELAY },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;

    // The first step releases the boiler: RO1 closed, RO2 no action, on the default port 1.
    expect(await step()).toBeGreaterThanOrEqual(1);
    const [first] = await writesOf(id);
    expect(first).toMatchObject({ enabled: true, ok: true, override: false, readBackEnabled: null });
    expect(first.detail).toContain('queued downlink 030111 on port 1');
    expect(first.detail).toContain('not sent: the LT-22222-L has no analog output');
    await eventually('the downlink at the network server', () => received.length === 1);
    expect(received[0]?.topic).toBe(`application/${APPLICATION_ID}/device/${RELAY}/command/down`);
    expect(received[0]?.body).toMatchObject({ devEui: RELAY, fPort: 1, confirmed: true, data: 'AwER' });
    const [row] = await relayDownlinks();
    expect(row).toMatchObject({ setpoint: null, reason: 'generator', payload: '030111', state: 'queued' });
    expect(received[0]?.body.id).toBe(row?.id);

    // The network server's events track its delivery like a setpoint's.
    const stateOf = async () => (await relayDownlinks())[0]?.state;
    await event('txack', row?.id as string, { gatewayId: '0016c001ff10a235', fCntDown: 1 });
    await eventually('sent', async () => (await stateOf()) === 'sent');
    await event('ack', row?.id as string, { acknowledged: true, fCntDown: 1 });
    await eventually('acknowledged', async () => (await stateOf()) === 'acknowledged');

    // The same enable for 20 minutes: no watchdog rewrite, nothing queued.
    for (let i = 0; i < 4; i += 1) await step();
    expect(await writesOf(id)).toHaveLength(1);
    expect(await relayDownlinks()).toHaveLength(1);

    // The relay's uplink after the command: RO1 closed as written is the write's read-back.
    await uplink(true);
    await step();
    const [readBack, ...older] = await writesOf(id);
    expect(older).toHaveLength(0);
    expect(readBack).toMatchObject({ enabled: true, readBackEnabled: true, override: false });

    // Someone opened RO1 at the boiler: an override, recorded, nothing sent for an hour.
    await uplink(false);
    await step();
    const [seen] = await writesOf(id);
    expect(seen).toMatchObject({ enabled: true, ok: true, readBackEnabled: false, override: true });
    expect(seen.detail).toContain('reported RO1 open');
    for (let i = 0; i < 6; i += 1) await step();
    expect(await writesOf(id)).toHaveLength(2);
    expect(await relayDownlinks()).toHaveLength(1);
    expect(received).toHaveLength(1);

    // A relay removed from the devices does not block renaming the circuit; choosing mode on again does.
    // (Removed in the database: the API keeps a company's last device while it is subscribed.)
    await t.database.db.delete(devices).where(eq(devices.id, RELAY));
    expect((await t.call('PATCH', `${base}/${id}`, { name: 'Heizkreis Nord-Ost' })).statusCode).toBe(200);
    const again = await t.call('PATCH', `${base}/${id}`, { mode: 'on' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([
      expect.objectContaining({ field: 'body.output.devEui', code: 'circuit_relay_not_a_device' }),
    ]);
  });
});
