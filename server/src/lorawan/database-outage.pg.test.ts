/**
 * PostgreSQL going away while uplinks flow (issue 16, decision 0034): the connection runs through
 * a TCP proxy the test cuts (the shared PostgreSQL is never stopped); health answers 503 during
 * the outage and 200 afterwards without a restart, and every uplink is stored exactly once.
 */
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf, startTcpProxy } from '../../test/faults.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { startInstance } from '../../test/instance.ts';
import type { Database } from '../db/client.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
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
} from './test-fixture.ts';

describe.each(brokerTargets)('a database outage while uplinks flow ($name)', ({ url }) => {
  let database: Database;
  let broker: EmbeddedBroker | undefined;
  let brokerUrl: string;
  const open: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
    broker = url ? undefined : await startEmbeddedBroker({ port: 0 });
    brokerUrl = url ?? (broker as EmbeddedBroker).url;
  });
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  afterAll(async () => {
    await broker?.close();
    await database.close();
  });

  async function publisher(target: string, run: ReturnType<typeof uniqueRun>) {
    const client = await mqtt.connectAsync(target, {
      protocolVersion: 4,
      clean: false,
      clientId: `${run.clientId}-ns`,
      reconnectPeriod: 100,
    });
    open.push({ close: () => client.endAsync(true) });
    return client;
  }

  it('PostgreSQL stops and comes back: health answers 503 meanwhile and every uplink is stored once', async () => {
    const run = uniqueRun();
    const { devEuis, companyId } = await seedValves(database.db, 10);
    const proxy = await startTcpProxy(endpointOf(process.env.TEST_DATABASE_URL as string, 5432));
    open.push(proxy);
    const name = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    target.pathname = `/${name.rows[0]?.name}`;
    const instance = await startInstance({
      database: proxy.via(target.toString()),
      brokerUrl,
      topicPrefix: run.prefix,
      env: mqttEnv(run, Boolean(url)),
    });
    open.push({ close: () => cleanUpRun(database, brokerUrl, run) }, instance);
    absorbPoolShutdownError(instance.database);
    await eventually('consuming', () => instance.lorawan.sessions.state === 'consuming');
    const health = async () => (await instance.app.inject({ method: 'GET', url: '/api/health' })).statusCode;

    const frames = framesFor(devEuis, 40);
    let outage: Promise<void> | undefined;
    await publishBurst(await publisher(brokerUrl, run), run.prefix, frames, {
      onProgress: (sent) => {
        if (sent < frames.length / 3 || outage) return;
        outage = (async () => {
          proxy.cut();
          await eventually('503 during the outage', async () => (await health()) === 503);
          expect((await instance.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
            db: 'down',
          });
          await new Promise((resolve) => setTimeout(resolve, 1000));
          proxy.restore();
        })();
      },
    });
    await outage;
    await eventually('200 again without a restart', async () => (await health()) === 200);
    await eventually(
      'every uplink stored',
      async () => (await telemetryCount(database.db, companyId)) === frames.length,
    );
    expect(instance.lorawan.metrics.commitFailures).toBeGreaterThan(0);
    expect(await telemetryCount(database.db, companyId)).toBe(frames.length);
  });
});
