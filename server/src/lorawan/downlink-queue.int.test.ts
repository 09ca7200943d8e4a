import { and, eq, inArray, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import type { SetpointCommand } from '../heating/setpoint-sink.ts';
import { secondConnection } from '../jobs/second-connection.test-helper.ts';
import { chirpstackFormat } from './chirpstack.ts';
import { getCodec } from './codecs/registry.ts';
import { DownlinkQueue } from './downlink-queue.ts';
import { downlinkStatusByUnit } from './downlink-status.repository.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { UplinkIngest } from './ingest.ts';
import { type LorawanAdapter, startLorawanAdapter } from './mqtt-adapter.ts';
import { telemetryStore } from './telemetry.repository.ts';
import {
  APPLICATION_ID,
  absorbPoolShutdownError,
  brokerTargets,
  eventually,
  purgeSessions,
  seedValves,
  uniqueRun,
} from './test-fixture.ts';

describe.each(brokerTargets)('setpoint downlinks ($name)', ({ url }) => {
  let database: Database;
  let broker: EmbeddedBroker | undefined;
  let adapter: LorawanAdapter;
  let queue: DownlinkQueue;
  let ingest: UplinkIngest;
  let run: ReturnType<typeof uniqueRun>;
  let brokerUrl: string;
  let ns: mqtt.MqttClient;
  let received: { topic: string; body: Record<string, unknown> }[];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const format = chirpstackFormat({ applicationId: APPLICATION_ID });

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
  });
  afterAll(() => database.close());

  beforeEach(async () => {
    broker = url ? undefined : await startEmbeddedBroker({ port: 0 });
    brokerUrl = url ?? (broker as EmbeddedBroker).url;
    run = uniqueRun();
    ingest = new UplinkIngest({ format, store: telemetryStore(database.db), log });
    adapter = startLorawanAdapter({
      url: brokerUrl,
      format,
      ingest,
      log,
      clientId: `${run.clientId}-hp`,
      topicPrefix: run.prefix,
    });
    await adapter.ready;
    queue = new DownlinkQueue({ db: database.db, log, publish: (r) => adapter.publish(format.downlink(r)) });
    // The network server's side: it receives command/down and answers with txack/ack events.
    received = [];
    ns = await mqtt.connectAsync(brokerUrl, { protocolVersion: 4, clientId: `${run.clientId}-ns` });
    ns.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
    await ns.subscribeAsync(`${run.prefix}application/+/device/+/command/down`, { qos: 1 });
  });

  afterEach(async () => {
    queue.close();
    await ns.endAsync();
    await adapter.close();
    await purgeSessions(brokerUrl, [`${run.clientId}-hp`]);
    await broker?.close();
  });

  const command = (
    s: { companyId: string; unitIds: string[] },
    i: number,
    deviceId: string,
    setpoint: number,
    minute = 0,
  ) =>
    ({
      companyId: s.companyId,
      unitId: s.unitIds[i] as string,
      deviceId,
      setpoint,
      ignoreWallControl: false,
      reason: 'regular_plan',
      at: new Date(Date.UTC(2026, 10, 22, 6, minute)),
    }) satisfies SetpointCommand;

  it('sends a command taken while the last chunk is being published, without waiting for another send', async () => {
    const seeded = await seedValves(database.db, 2);
    const [a, b] = seeded.devEuis as [string, string];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const published: string[] = [];
    const slow = new DownlinkQueue({
      db: database.db,
      log,
      publish: async (request) => {
        published.push(request.devEui);
        // The first publish is still with the broker when the second command arrives.
        if (published.length === 1) await held;
      },
    });
    try {
      await slow.send([command(seeded, 0, a, 21)]);
      await eventually('the first command being published', () => published.length === 1);
      await slow.send([command(seeded, 1, b, 19.5)]);
      release();
      await eventually('the second command published without another send', () => published.length === 2);
      expect(published).toEqual([a, b]);
    } finally {
      slow.close();
    }
  });

  it('records nothing while a scheduler tick holds it, and every command taken once the hold ends', async () => {
    const seeded = await seedValves(database.db, 2);
    const [a, b] = seeded.devEuis as [string, string];
    const release = queue.hold();
    await queue.send([command(seeded, 0, a, 21)]);
    await queue.send([command(seeded, 1, b, 19.5)]);
    // No worker started: idle() answers at once, and no row was written.
    await queue.idle();
    expect(queue.backlogSize).toBe(2);
    const recorded = () =>
      database.db.select().from(downlinks).where(inArray(downlinks.devEui, seeded.devEuis));
    expect(await recorded()).toEqual([]);
    release();
    release();
    await queue.idle();
    expect((await recorded()).map((r) => [r.devEui, r.setpoint]).sort()).toEqual([
      [a, 21],
      [b, 19.5],
    ]);
    await eventually('both downlinks at the network server', () => received.length >= 2);
  });

  it('sends one confirmed downlink per valve in its own byte layout, none to a room sensor, none twice', async () => {
    const seeded = await seedValves(database.db, 2);
    const [a, b] = seeded.devEuis as [string, string];
    const sensor = `${b.slice(0, 12)}ffff`;
    await database.db.insert(devices).values({
      id: sensor,
      devEui: sensor,
      companyId: seeded.companyId,
      model: 'elsys-ers',
      unitId: seeded.unitIds[1],
    });
    const commands = [
      command(seeded, 0, a, 21),
      command(seeded, 1, b, 19.5),
      command(seeded, 1, sensor, 19.5),
    ];
    await queue.send(commands);
    await queue.idle();
    await queue.send(commands); // the scheduler retrying after a failure
    await queue.idle();

    const rows = await database.db.select().from(downlinks).where(eq(downlinks.companyId, seeded.companyId));
    expect(rows).toHaveLength(2);
    const vicki = getCodec('mclimate-vicki');
    for (const [devEui, setpoint] of [
      [a, 21],
      [b, 19.5],
    ] as const) {
      const row = rows.find((r) => r.devEui === devEui);
      expect(row).toMatchObject({
        setpoint,
        state: 'queued',
        // The setpoint, then the firmware query (the valve has not told its firmware yet).
        payload: `${Buffer.from(vicki.encodeSetpoint(setpoint).bytes).toString('hex')}04`,
      });
      expect(row?.publishedAt).toBeInstanceOf(Date);
    }
    await eventually('two command/down messages', () => received.length >= 2);
    const toA = received.find((m) => m.topic.endsWith(`device/${a}/command/down`));
    const rowA = rows.find((r) => r.devEui === a);
    expect(toA?.body).toEqual({
      id: rowA?.id,
      devEui: a,
      confirmed: true,
      fPort: rowA?.fPort,
      data: Buffer.from(rowA?.payload ?? '', 'hex').toString('base64'),
    });
    expect(received).toHaveLength(2);
  });

  it('supersedes a queued setpoint with a newer one and tracks txack and ack from the network server', async () => {
    const seeded = await seedValves(database.db, 1);
    const [devEui] = seeded.devEuis as [string];
    await queue.send([command(seeded, 0, devEui, 20, 0)]);
    await queue.send([command(seeded, 0, devEui, 22, 1)]);
    await queue.idle();
    const rows = await database.db.select().from(downlinks).where(eq(downlinks.devEui, devEui));
    const older = rows.find((r) => r.setpoint === 20);
    const newer = rows.find((r) => r.setpoint === 22);
    expect(older?.state).toBe('superseded');
    expect(newer?.state).toBe('queued');
    expect(await downlinkStatusByUnit(database.db, seeded.companyId, seeded.unitIds)).toEqual(
      new Map([[seeded.unitIds[0], { pending: 1, failed: 0, delivered: [] }]]),
    );

    const event = (kind: string, extra: object) =>
      ns.publishAsync(
        `${run.prefix}application/${APPLICATION_ID}/device/${devEui}/event/${kind}`,
        JSON.stringify({
          time: '2026-11-22T06:02:00Z',
          deviceInfo: { devEui },
          queueItemId: newer?.id,
          ...extra,
        }),
        { qos: 1 },
      );
    const state = async () =>
      (
        await database.db
          .select()
          .from(downlinks)
          .where(eq(downlinks.id, newer?.id as string))
      )[0]?.state;
    await event('txack', { gatewayId: '0016c001ff10a235', fCntDown: 4 });
    await eventually('sent', async () => (await state()) === 'sent');
    await event('ack', { acknowledged: true, fCntDown: 4 });
    await eventually('acknowledged', async () => (await state()) === 'acknowledged');
    // A late txack of the superseded one does not revive it; a late nack does not undo the ack.
    await event('txack', { queueItemId: older?.id });
    await event('ack', { queueItemId: newer?.id, acknowledged: false });
    await eventually('all four events', () => ingest.metrics.received === 4);
    await ingest.drain();
    expect(await state()).toBe('acknowledged');
    const [stillSuperseded] = await database.db
      .select()
      .from(downlinks)
      .where(eq(downlinks.id, older?.id as string));
    expect(stillSuperseded?.state).toBe('superseded');
    expect(await downlinkStatusByUnit(database.db, seeded.companyId, seeded.unitIds)).toEqual(
      new Map([[seeded.unitIds[0], { pending: 0, failed: 0, delivered: [] }]]),
    );
  });

  it('queues a raw relay downlink for a device of the company and tracks it like a setpoint', async () => {
    const seeded = await seedValves(database.db, 1);
    const relay = `${(seeded.devEuis[0] as string).slice(0, 12)}eeee`;
    await database.db
      .insert(devices)
      .values({ id: relay, devEui: relay, companyId: seeded.companyId, model: 'dragino-lt22222' });
    const raw = {
      companyId: seeded.companyId,
      devEui: relay.toUpperCase(),
      fPort: 1,
      payloadHex: '030111',
      reason: 'generator',
      at: new Date(Date.UTC(2026, 10, 22, 6, 0)),
    };
    const id = await queue.queueRaw(raw);
    await eventually('published', () => received.some((m) => m.topic.includes(relay)));
    const message = received.find((m) => m.topic.includes(relay));
    expect(message?.topic).toBe(`${run.prefix}application/${APPLICATION_ID}/device/${relay}/command/down`);
    expect(message?.body).toMatchObject({ devEui: relay, fPort: 1, confirmed: true, data: 'AwER', id });
    const [row] = await database.db
      .select()
      .from(downlinks)
      .where(eq(downlinks.id, id as string));
    expect(row).toMatchObject({ setpoint: null, unitId: null, reason: 'generator', payload: '030111' });
    expect(row?.publishedAt).not.toBeNull();
    // Another company's DevEUI is refused: the relay is found by company.
    const other = await seedValves(database.db, 1);
    await expect(queue.queueRaw({ ...raw, companyId: other.companyId })).rejects.toThrow(
      /not a device of the company/,
    );
    // A second command of the same instant is its own row (no setpoint in the unique key).
    const second = await queue.queueRaw({ ...raw, payloadHex: '030011' });
    expect(second).not.toBe(id);
    await ns.publishAsync(
      `${run.prefix}application/${APPLICATION_ID}/device/${relay}/event/txack`,
      JSON.stringify({ time: '2026-11-22T06:02:00Z', deviceInfo: { devEui: relay }, queueItemId: second }),
      { qos: 1 },
    );
    await eventually('sent', async () => {
      const [r] = await database.db
        .select()
        .from(downlinks)
        .where(eq(downlinks.id, second as string));
      return r?.state === 'sent';
    });
  });

  it('records a command older than one its device already has as superseded and never sends it', async () => {
    const seeded = await seedValves(database.db, 1);
    const [devEui] = seeded.devEuis as [string];
    await queue.send([command(seeded, 0, devEui, 22, 5)]);
    await queue.idle();
    // A recovery that read the unit just before the scheduler changed it arrives late.
    await queue.send([command(seeded, 0, devEui, 20, 0)]);
    await queue.idle();
    const rows = await database.db.select().from(downlinks).where(eq(downlinks.devEui, devEui));
    expect(rows.map((r) => [r.setpoint, r.state, r.publishedAt !== null]).sort()).toEqual([
      [20, 'superseded', false],
      [22, 'queued', true],
    ]);
    await eventually('the newer command', () => received.length >= 1);
    expect(received.map((m) => m.body.id)).toEqual([rows.find((r) => r.setpoint === 22)?.id]);
  });

  it('queues again, once, setpoints a crash kept from being recorded as downlinks', async () => {
    const seeded = await seedValves(database.db, 2);
    const since = new Date('2026-11-22T05:00:00Z');
    await database.db
      .update(units)
      .set({ setpoint: 21, setpointSince: since, setpointSource: 'group_plan' })
      .where(inArray(units.id, seeded.unitIds));
    // The first valve got its downlink before the crash; the second one's command was lost.
    await queue.send([{ ...command(seeded, 0, seeded.devEuis[0] as string, 21), at: since }]);
    await queue.idle();
    expect(await queue.reconcile()).toBe(1);
    await queue.idle();
    const rows = await database.db.select().from(downlinks).where(inArray(downlinks.devEui, seeded.devEuis));
    expect(rows.map((r) => [r.devEui, r.setpoint, r.appliedAt.toISOString()]).sort()).toEqual(
      seeded.devEuis.map((devEui) => [devEui, 21, since.toISOString()]),
    );
    expect(await queue.reconcile()).toBe(0);
  });

  it('sends the setpoint in force to a valve whose last downlink carries another value, whatever its time', async () => {
    const seeded = await seedValves(database.db, 2);
    const since = new Date('2026-11-22T05:00:00Z');
    await database.db
      .update(units)
      .set({ setpoint: 19, setpointSince: since, setpointSource: 'group_plan' })
      .where(inArray(units.id, seeded.unitIds));
    await queue.send(seeded.devEuis.map((devEui, i) => ({ ...command(seeded, i, devEui, 19), at: since })));
    await queue.idle();
    // The company minimum was lifted: both units now hold 21 °C, their setpoint_since unchanged,
    // and the commands were lost (a jammed queue, a restart).
    await database.db.update(units).set({ setpoint: 21 }).where(inArray(units.id, seeded.unitIds));
    expect(await queue.reconcile()).toBe(2);
    await queue.idle();
    const rows = await database.db.select().from(downlinks).where(inArray(downlinks.devEui, seeded.devEuis));
    expect(rows.map((r) => [r.devEui, r.setpoint, r.state]).sort()).toEqual(
      seeded.devEuis.flatMap((devEui) => [
        [devEui, 19, 'superseded'],
        [devEui, 21, 'queued'],
      ]),
    );
    await eventually('four command/down messages', () => received.length >= 4);
    expect(await queue.reconcile()).toBe(0);
  });

  it('sends a valve holding its setpoint that setpoint again when it still owes its own settings', async () => {
    const seeded = await seedValves(database.db, 4);
    const since = new Date('2026-11-22T05:00:00Z');
    await database.db
      .update(units)
      .set({ setpoint: 20, setpointSince: since, setpointSource: 'regular_plan' })
      .where(inArray(units.id, seeded.unitIds));
    const [owing, recent, settled, answered] = seeded.devEuis as [string, string, string, string];
    await queue.send(seeded.devEuis.map((devEui, i) => ({ ...command(seeded, i, devEui, 20), at: since })));
    await queue.idle();
    // All four took 20 °C with the firmware query (0e14 04).
    // Ages on the machine's clock: the queue judges them by it and the database's now().
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const acknowledged = (devEuis: string[], minutes: number) =>
      database.db
        .update(downlinks)
        .set({ state: 'acknowledged', updatedAt: ago(minutes) })
        .where(inArray(downlinks.devEui, devEuis));
    await acknowledged([owing, settled], 25);
    await acknowledged([recent, answered], 1);
    // The third reported everything; the fourth answered the firmware query, frost protection is next.
    await database.db
      .update(devices)
      .set({ firmware: '4.3', antiFreeze: { activation: 7, deactivation: 10, target: 8 } })
      .where(eq(devices.id, settled));
    await database.db.update(devices).set({ firmware: '4.3' }).where(eq(devices.id, answered));
    // The Vicki reports every 10 minutes: after 25 the firmware answer is overdue, after 1 it is
    // not; the fourth needs no wait, its last downlink did not carry the frost protection.
    expect(await queue.reconcile()).toBe(2);
    await queue.idle();
    const again = await database.db
      .select()
      .from(downlinks)
      .where(and(inArray(downlinks.devEui, seeded.devEuis), eq(downlinks.state, 'queued')));
    expect(again.map((r) => [r.devEui, r.setpoint, r.payload]).sort()).toEqual(
      [
        [owing, 20, '0e1404'],
        [answered, 20, '0e14494664084a'],
      ].sort(),
    );
    // Sent and not yet answered: nothing more.
    expect(await queue.reconcile()).toBe(0);
  });

  it('sends a setpoint again whose delivery failed or got lost while the valve kept reporting, three times at most', async () => {
    const seeded = await seedValves(database.db, 3);
    const since = new Date('2026-11-22T05:00:00Z');
    await database.db
      .update(units)
      .set({ setpoint: 21, setpointSince: since, setpointSource: 'regular_plan' })
      .where(inArray(units.id, seeded.unitIds));
    const [failed, lost, waiting] = seeded.devEuis as [string, string, string];
    await queue.send(seeded.devEuis.map((devEui, i) => ({ ...command(seeded, i, devEui, 21), at: since })));
    await queue.idle();
    // Ages on the machine's clock: the queue judges them by it and the database's now().
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const set = (devEui: string, values: Partial<typeof downlinks.$inferInsert>) =>
      database.db.update(downlinks).set(values).where(eq(downlinks.devEui, devEui));
    // The network server reported the first as failed; the second it took 40 minutes ago and
    // never reported on (its queue was flushed), the third 5 minutes ago. All three valves report.
    await set(failed, { state: 'failed', publishedAt: ago(10), updatedAt: ago(5) });
    await set(lost, { state: 'sent', publishedAt: ago(40) });
    await set(waiting, { state: 'sent', publishedAt: ago(5) });
    await database.db
      .update(devices)
      .set({ lastSeen: ago(0) })
      .where(inArray(devices.id, seeded.devEuis));
    // A Vicki reports every 10 minutes: after three intervals without a report the downlink is lost.
    expect(await queue.reconcile()).toBe(2);
    await queue.idle();
    const rows = async (devEui: string) =>
      (await database.db.select().from(downlinks).where(eq(downlinks.devEui, devEui)))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((r) => [r.setpoint, r.state]);
    expect(await rows(failed)).toEqual([
      [21, 'failed'],
      [21, 'queued'],
    ]);
    expect(await rows(lost)).toEqual([
      [21, 'failed'],
      [21, 'queued'],
    ]);
    expect(await rows(waiting)).toEqual([[21, 'sent']]);
    // Every delivery to the first valve fails: it gets three, then the setpoint waits.
    for (const expected of [1, 0]) {
      await set(failed, { state: 'failed', publishedAt: ago(1) });
      expect(await queue.reconcileDevices([failed])).toBe(expected);
      await queue.idle();
    }
    expect(await rows(failed)).toEqual([
      [21, 'failed'],
      [21, 'failed'],
      [21, 'failed'],
    ]);
  });

  it('sends a valve just paired with a unit its setpoint at once, and only that valve', async () => {
    const seeded = await seedValves(database.db, 3);
    const since = new Date('2026-11-22T05:00:00Z');
    await database.db
      .update(units)
      .set({ setpoint: 20, setpointSince: since, setpointSource: 'regular_plan' })
      .where(inArray(units.id, seeded.unitIds));
    const [paired, other, holding] = seeded.devEuis as [string, string, string];
    await queue.send([{ ...command(seeded, 2, holding, 20), at: since }]);
    await queue.idle();
    // The third valve already holds 20 °C; the second waits for the next reconcile.
    expect(await queue.reconcileDevices([paired, holding])).toBe(1);
    await queue.idle();
    const rows = await database.db.select().from(downlinks).where(inArray(downlinks.devEui, seeded.devEuis));
    expect(rows.map((r) => [r.devEui, r.setpoint, r.state]).sort()).toEqual(
      [
        [paired, 20, 'queued'],
        [holding, 20, 'queued'],
      ].sort(),
    );
    expect(rows.some((r) => r.devEui === other)).toBe(false);
    expect(await queue.reconcileDevices([])).toBe(0);
  });
});

describe('setpoint downlinks with several instances', () => {
  let database: Database;
  let other: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
    other = await secondConnection(database);
    absorbPoolShutdownError(other);
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database.close();
  });

  it('publishes each unpublished downlink once across instances, and none another instance is publishing', async () => {
    const seeded = await seedValves(database.db, 30);
    const row = (devEui: string, i: number) => ({
      companyId: seeded.companyId,
      unitId: seeded.unitIds[i] as string,
      deviceId: devEui,
      devEui,
      setpoint: 21,
      fPort: 1,
      payload: '51',
      reason: 'regular_plan',
      appliedAt: new Date(Date.UTC(2026, 10, 22, 6, i)),
    });
    const all = await database.db
      .insert(downlinks)
      .values(seeded.devEuis.map(row))
      .returning({ id: downlinks.id });
    // One is being published by an instance right now; one was claimed by an instance that died.
    const [busy, abandoned] = all.map((r) => r.id) as [string, string];
    await database.db
      .update(downlinks)
      .set({ publishLeaseUntil: sql`now() + interval '1 minute'` })
      .where(eq(downlinks.id, busy));
    await database.db
      .update(downlinks)
      .set({ publishLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(downlinks.id, abandoned));

    const published: string[] = [];
    const instance = (db: Database) =>
      new DownlinkQueue({
        db: db.db,
        log: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
        publish: async (request) => {
          published.push(request.id);
          // A publish takes a moment, so the two instances' claims overlap: behaviour, not a wait.
          await new Promise((resolve) => setTimeout(resolve, 1));
        },
      });
    await Promise.all([instance(database).publishPending(), instance(other).publishPending()]);

    expect(published.sort()).toEqual(
      all
        .map((r) => r.id)
        .filter((id) => id !== busy)
        .sort(),
    );
    const rows = await database.db.select().from(downlinks).where(eq(downlinks.companyId, seeded.companyId));
    expect(rows.filter((r) => r.publishedAt === null).map((r) => r.id)).toEqual([busy]);
    expect(rows.filter((r) => r.publishLeaseUntil !== null).map((r) => r.id)).toEqual([busy]);
  });
});
