/**
 * One server instance inside the test process, wired as `main.ts` wires it — app, LoRaWAN side
 * (sessions, ingest, downlink queue) and heating scheduler — on a database and broker URL the
 * test chooses (usually through a `TcpProxy`, so the test can cut either link). Timings are
 * shortened so a lease runs out in about a second.
 */
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { databaseDeviceDirectory } from '../src/heating/device-directory.ts';
import { HEATING_SCHEDULER_JOB, HeatingScheduler } from '../src/heating/scheduler.ts';
import { JobRegistry } from '../src/jobs/registry.ts';
import { createLogger } from '../src/logger.ts';
import { type Lorawan, startLorawan } from '../src/lorawan/lorawan.ts';
import { APPLICATION_ID } from '../src/lorawan/test-fixture.ts';
import { type LorawanState, lateBinding } from '../src/ports.ts';
import { closeWithin } from './close-within.ts';
import { composeApp, createTestIssuer } from './helpers.ts';

export interface TestInstance {
  app: App;
  database: Database;
  lorawan: Lorawan;
  /** The instance's jobs; `runNow(HEATING_SCHEDULER_JOB)` asks its scheduler for a tick. */
  jobs: JobRegistry;
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
  const lorawanStatus = lateBinding<LorawanState>('the LoRaWAN side');
  // The instance's background work as main.ts runs it: the scheduler's and the LoRaWAN side's.
  const log = createLogger(config);
  const jobs = new JobRegistry({ log });
  const { app } = await composeApp(config, database, issuer.verify, {
    ports: { setpointWaker: { wake: () => jobs.runNow(HEATING_SCHEDULER_JOB) } },
    lorawanStatus,
    log,
    jobs,
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
  jobs.add(scheduler.job(), ...lorawan.jobs).start();
  return {
    app,
    database,
    lorawan,
    jobs,
    close: async () => {
      // An instance whose links a test cut cannot finish its MQTT session or its queries: each
      // part gets a bounded close, so a killed instance cannot hang the suite's teardown.
      await closeWithin('the instance’s jobs', () => jobs.stop(), 5_000);
      await closeWithin('the instance’s LoRaWAN side', () => lorawan.close(), 5_000);
      await closeWithin('the instance’s HTTP app', () => app.close(), 5_000);
      if (owned) await closeWithin('the instance’s database pool', () => database.close(), 5_000);
    },
  };
}
