/**
 * One server instance inside the test process, wired as `main.ts` wires it — app, LoRaWAN side
 * (sessions, ingest, downlink queue) and heating scheduler — on a database and broker URL the
 * test chooses (usually through a `TcpProxy`, so the test can cut either link). Timings are
 * shortened so a lease runs out in about a second.
 */
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { databaseDeviceDirectory } from '../src/jobs/device-directory.ts';
import { HeatingScheduler } from '../src/jobs/heating-scheduler.ts';
import { type Lorawan, startLorawan } from '../src/lorawan/lorawan.ts';
import { APPLICATION_ID } from '../src/lorawan/test-fixture.ts';
import { createTestIssuer } from './helpers.ts';

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
  const app = await buildApp({ config, database, verifyToken: issuer.verify });
  await app.ready();
  const lorawan = await startLorawan({
    config,
    db: database.db,
    log: app.log,
    tuning: {
      topicPrefix: options.topicPrefix,
      reconnectPeriodMs: 100,
      leaseMs: options.leaseMs ?? 1500,
      roundMs: 100,
      idleMs: 300,
      resendMs: 500,
      publishTimeoutMs: 1000,
    },
  });
  app.deps.lorawan = lorawan;
  const scheduler = new HeatingScheduler({
    db: database.db,
    sink: lorawan.setpointSink,
    devices: databaseDeviceDirectory(database.db),
    logger: app.log,
    intervalMs: 200,
  });
  app.deps.heatingScheduler = scheduler;
  scheduler.start();
  return {
    app,
    database,
    lorawan,
    scheduler,
    close: async () => {
      await scheduler.stop();
      await lorawan.close();
      await app.close();
      if (owned) await database.close();
    },
  };
}
