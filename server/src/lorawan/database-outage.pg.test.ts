/**
 * PostgreSQL going away while uplinks flow (decision 0034): the connection runs through a TCP
 * proxy the test cuts (the shared PostgreSQL is never stopped); health answers 503 during the
 * outage and 200 afterwards without a restart, the instance reports its uplinks `paused` once it
 * gave its session up, and every uplink is stored exactly once.
 */
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { endpointOf, startTcpProxy } from '../../test/faults.ts';
import { startInstance } from '../../test/instance.ts';
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

describe.each(brokerTargets)('a database outage while uplinks flow ($name)', ({ url }) => {
  const rig = useFaultRig(url);

  async function publisher(target: string, run: ReturnType<typeof uniqueRun>) {
    const client = await mqtt.connectAsync(target, {
      protocolVersion: 4,
      clean: false,
      clientId: `${run.clientId}-ns`,
      reconnectPeriod: 100,
    });
    rig.open.push({ close: () => client.endAsync(true) });
    return client;
  }

  it('PostgreSQL stops and comes back: health answers 503 and uplinks are paused meanwhile, every uplink is stored once', async () => {
    const run = uniqueRun();
    const { devEuis, companyId } = await seedValves(rig.database.db, 10);
    const proxy = await startTcpProxy(endpointOf(process.env.TEST_DATABASE_URL as string, 5432));
    rig.open.push(proxy);
    const name = (await rig.database.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    target.pathname = `/${name.rows[0]?.name}`;
    const instance = await startInstance({
      database: proxy.via(target.toString()),
      brokerUrl: rig.brokerUrl,
      topicPrefix: run.prefix,
      env: mqttEnv(run, Boolean(url)),
    });
    rig.open.push({ close: () => cleanUpRun(rig.database, rig.brokerUrl, run) }, instance);
    absorbPoolShutdownError(instance.database);
    await eventually('consuming', () => instance.lorawan.sessions.state === 'consuming');
    const health = async () => (await instance.app.inject({ method: 'GET', url: '/api/health' })).statusCode;

    const frames = framesFor(devEuis, 40);
    let outage: Promise<void> | undefined;
    await publishBurst(await publisher(rig.brokerUrl, run), run.prefix, frames, {
      onProgress: (sent) => {
        if (sent < frames.length / 3 || outage !== undefined) return;
        outage = (async () => {
          proxy.cut();
          await eventually('503 during the outage', async () => (await health()) === 503);
          expect((await instance.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
            db: 'down',
          });
          // Its lease cannot be renewed, so it gives the session up and says why: not "standby",
          // which would claim another instance holds it.
          await eventually('sessions paused', () => instance.lorawan.sessions.state === 'paused');
          const ready = await instance.app.inject({ method: 'GET', url: '/api/health/ready' });
          expect(ready.statusCode).toBe(503);
          expect(ready.json()).toMatchObject({ status: 'not_ready', db: 'down', uplinks: 'paused' });
          // The outage lasts a while longer, uplinks arriving: the behaviour under test, not a wait.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          proxy.restore();
        })();
      },
    });
    await outage;
    await eventually('200 again without a restart', async () => (await health()) === 200);
    await eventually('consuming again', () => instance.lorawan.sessions.state === 'consuming');
    await eventually(
      'every uplink stored',
      async () => (await telemetryCount(rig.database.db, companyId)) === frames.length,
    );
    expect(instance.lorawan.metrics.commitFailures).toBeGreaterThan(0);
    expect(await telemetryCount(rig.database.db, companyId)).toBe(frames.length);
  });
});
