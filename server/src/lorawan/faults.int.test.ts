/**
 * The broker faults an operator meets (decision 0034): the broker restarting while uplinks flow
 * (a private Mosquitto, persistence on), ending with every uplink stored exactly once, and a
 * downlink decided while the broker is unreachable — readiness stays 200 meanwhile. PostgreSQL
 * going away is database-outage.pg.test.ts.
 */
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  endpointOf,
  mosquittoAvailable,
  type PrivateMosquitto,
  startPrivateMosquitto,
  startTcpProxy,
} from '../../test/faults.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { startInstance, type TestInstance } from '../../test/instance.ts';
import type { Database } from '../db/client.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import type { MqttMessage } from './network-server.ts';
import {
  absorbPoolShutdownError,
  brokerTargets,
  cleanUpRun,
  eventually,
  framesFor,
  mqttEnv,
  publishBurst,
  seedValves,
  telemetryCount,
  uniqueRun,
  useFaultRig,
} from './test-fixture.ts';

describe.each(brokerTargets)('faults while uplinks flow ($name)', ({ url }) => {
  const rig = useFaultRig(url);

  it('sends a downlink decided while the broker is unreachable once it is back, and only once', async () => {
    const run = uniqueRun();
    const seeded = await seedValves(rig.database.db, 1);
    const [devEui] = seeded.devEuis as [string];
    const proxy = await startTcpProxy(endpointOf(rig.brokerUrl, 1883));
    rig.open.push(proxy);
    const instance = await startInstance({
      database: rig.database,
      brokerUrl: proxy.via(rig.brokerUrl),
      topicPrefix: run.prefix,
      env: mqttEnv(run, Boolean(url)),
    });
    rig.open.push({ close: () => cleanUpRun(rig.database, rig.brokerUrl, run) }, instance);
    await eventually('connected', () => instance.lorawan.brokerConnected);
    // The network server's side, connected to the broker directly.
    const ns = await mqtt.connectAsync(rig.brokerUrl, {
      protocolVersion: 4,
      clientId: `${run.clientId}-down`,
    });
    rig.open.push({ close: () => ns.endAsync() });
    const received: string[] = [];
    ns.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString()).id));
    await ns.subscribeAsync(`${run.prefix}application/+/device/+/command/down`, { qos: 1 });

    proxy.cut();
    await eventually('disconnected', () => !instance.lorawan.brokerConnected);
    // Still ready: it serves the API and the UI; the load balancer must not drop it for the broker.
    const ready = await instance.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', db: 'ok', broker: 'down' });
    await instance.lorawan.setpointSink.send([
      {
        companyId: seeded.companyId,
        unitId: seeded.unitIds[0] as string,
        deviceId: devEui,
        setpoint: 21.5,
        wallControl: null,
        ignoreWallControl: false,
        reason: 'web_change',
        // A change made now on the instance's (the machine's) clock; no plan is evaluated here.
        at: new Date(),
      },
    ]);
    await instance.lorawan.setpointSink.idle();
    const [row] = await rig.database.db.select().from(downlinks).where(eq(downlinks.devEui, devEui));
    expect(row).toMatchObject({ state: 'queued', publishedAt: null, publishLeaseUntil: null });

    proxy.restore();
    await eventually('the downlink at the network server', () => received.length === 1);
    expect(received).toEqual([row?.id]);
    // Several resend rounds later it has still gone out once. A window, not a wait for something
    // to happen: a second copy has no event to wait for, so the test watches 15 rounds of 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received).toEqual([row?.id]);
    const [published] = await rig.database.db.select().from(downlinks).where(eq(downlinks.devEui, devEui));
    expect(published?.publishedAt).toBeInstanceOf(Date);
    expect((await instance.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toMatchObject({
      status: 'ready',
      broker: 'ok',
    });
  });
});

describe.runIf(process.env.TEST_MQTT_URL && mosquittoAvailable)('a broker restart', () => {
  let database: Database;
  let mosquitto: PrivateMosquitto;
  let ns: mqtt.MqttClient;
  let instance: TestInstance;
  let run: ReturnType<typeof uniqueRun>;

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
  });
  afterAll(() => database.close());
  afterEach(async () => {
    await ns.endAsync(true);
    await instance.close();
    await mosquitto.close();
  });

  async function start(shared: boolean) {
    run = uniqueRun();
    mosquitto = await startPrivateMosquitto();
    instance = await startInstance({
      database,
      brokerUrl: mosquitto.url,
      topicPrefix: run.prefix,
      env: mqttEnv(run, shared),
    });
    ns = await mqtt.connectAsync(mosquitto.url, {
      protocolVersion: 4,
      clean: false,
      clientId: `${run.clientId}-ns`,
      reconnectPeriod: 100,
    });
    await eventually('consuming', () => instance.lorawan.sessions.state === 'consuming');
  }

  it('in the middle of a burst loses no uplink and stores none twice (one instance, plain session)', async () => {
    await start(false);
    const { devEuis, companyId } = await seedValves(database.db, 10);
    const frames = framesFor(devEuis, 60);
    let restart: Promise<void> | undefined;
    await publishBurst(ns, run.prefix, frames, {
      onProgress: (sent) => {
        if (sent >= frames.length / 3 && !restart) restart = mosquitto.restart();
      },
    });
    await restart;
    await eventually(
      'every uplink stored',
      async () => (await telemetryCount(database.db, companyId)) === frames.length,
    );
    expect(instance.lorawan.metrics.inserted).toBe(frames.length);
  });

  it('renews a shared subscription the broker brought back broken, so uplinks flow again', async () => {
    await start(true);
    const { devEuis, companyId } = await seedValves(database.db, 5);
    const frames = framesFor(devEuis, 20);
    await publishBurst(ns, run.prefix, frames.slice(0, 50));
    await eventually('the first half', async () => (await telemetryCount(database.db, companyId)) === 50);
    await mosquitto.restart();
    // Until Heizplan is back, Mosquitto 2.0.11 drops what it publishes (decision 0034): the
    // network server repeats one uplink until it is stored (a repeat adds no row), then the rest.
    const probe = frames[50] as MqttMessage;
    await eventually('the first uplink after the restart', async () => {
      await ns.publishAsync(`${run.prefix}${probe.topic}`, probe.payload, { qos: 1 });
      return (await telemetryCount(database.db, companyId)) === 51;
    });
    await publishBurst(ns, run.prefix, frames.slice(51));
    await eventually(
      'every uplink stored',
      async () => (await telemetryCount(database.db, companyId)) === frames.length,
    );
  });
});
