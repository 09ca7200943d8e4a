/**
 * One server instance inside the test process, wired as `main.ts` wires it — app, LoRaWAN side
 * (sessions, ingest, downlink queue) and heating scheduler — on a database and broker URL the
 * test chooses (usually through a `TcpProxy`, so the test can cut either link). Timings are
 * shortened so a lease runs out in about a second.
 */
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { HeatingScheduler } from '../src/jobs/heating-scheduler.ts';
import { type Lorawan, startLorawan } from '../src/lorawan/lorawan.ts';
import { APPLICATION_ID } from '../src/lorawan/test-fixture.ts';
import { type LorawanState, lateBinding } from '../src/ports.ts';
import { databaseDeviceDirectory } from '../src/scheduling/device-directory.ts';
import type { SetpointWaker } from '../src/scheduling/heating-services.ts';
import { closeWithin } from './close-within.ts';
import { composeApp, createTestIssuer } from './helpers.ts';

export interface TestInstance {
  app: App;
  database: Database;
  lorawan: Lorawan;
  scheduler: HeatingScheduler;
  close(): Promise<void>;
}

export interface InstanceOptions {
  /** A PostgreSQL URL to open a pool of its own on, or an open database (PGlite) to share. */
  database: string | Database;
  brokerUrl: string;
  /** Topic prefix of the test, so parallel tests on one broker do not meet. */
  topicPrefix: string;
  /** Environment on top of the test defaults, e.g. MQTT_CLIENT_ID and MQTT_SHARE_GROUP. */
  env?: Record<string, string>;
  leaseMs?: number;
}

export async function startInstance(options: InstanceOptions): Promise<TestInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/heizplan-test',
    WEB_DIST: '/nonexistent',
    MQTT_URL: options.brokerUrl,
    CHIRPSTACK_APPLICATION_ID: APPLICATION_ID,
    ...options.env,
  });
  const owned = typeof options.database === 'string';
  const database =
    typeof options.database === 'string'
      ? await openDatabase({ kind: 'postgres', url: options.database })
      : options.database;
  const issuer = await createTestIssuer();
  const waker = lateBinding<SetpointWaker>('the heating scheduler');
  const lorawanStatus = lateBinding<LorawanState>('the LoRaWAN side');
  const { app, log } = await composeApp(config, database, issuer.verify, {
    ports: { setpointWaker: { wake: () => waker.current?.wake() } },
    lorawanStatus,
  });
  await app.ready();
  const lorawan = await startLorawan({
    config,
    db: database.db,
    log,
    tuning: {
      topicPrefix: options.topicPrefix,
      reconnectPeriodMs: 100,
      leaseMs: options.leaseMs ?? 1500,
      roundMs: 100,
      idleMs: 300,
      resendMs: 2000,
      publishTimeoutMs: 1000,
    },
  });
  lorawanStatus.bind(lorawan);
  const scheduler = new HeatingScheduler({
    db: database.db,
    sink: lorawan.setpointSink,
    devices: databaseDeviceDirectory(database.db),
    logger: log,
    intervalMs: 200,
  });
  waker.bind(scheduler);
  scheduler.start();
  return {
    app,
    database,
    lorawan,
    scheduler,
    close: async () => {
      // An instance whose links a test cut cannot finish its MQTT session or its queries: each
      // part gets a bounded close, so a killed instance cannot hang the suite's teardown.
      await closeWithin('the instance’s scheduler', () => scheduler.stop(), 5_000);
      await closeWithin('the instance’s LoRaWAN side', () => lorawan.close(), 5_000);
      await closeWithin('the instance’s HTTP app', () => app.close(), 5_000);
      if (owned) await closeWithin('the instance’s database pool', () => database.close(), 5_000);
    },
  };
}
