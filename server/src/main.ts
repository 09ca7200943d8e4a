/**
 * Composition root (docs/architecture.md): config → database (migrated) → logger → services →
 * HTTP app → LoRaWAN side and scheduler (bound to the ports the services and the app were given)
 * → jobs → listen. Exits with a clear message on bad configuration; drains HTTP and closes the
 * database on SIGTERM/SIGINT.
 */
import { buildApp } from './app.ts';
import { identityAccountPorts } from './auth/account-ports.ts';
import { createAuth } from './auth/issuer.ts';
import { systemClock } from './clock.ts';
import { ConfigError, configWarnings, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { ensureDemo, runDemoHeatPump } from './demo/demo.ts';
import { DEMO_LOGIN } from './demo/demo-data.ts';
import type { DemoHeatPump } from './demo/demo-heat-pump.ts';
import { type RunningDemo, runDemoSimulator } from './demo/demo-simulator.ts';
import { DEMO_WEATHER_BASE_PATH } from './demo/demo-weather.ts';
import { databaseDeviceDirectory } from './heating/device-directory.ts';
import { HEATING_SCHEDULER_JOB, HeatingScheduler } from './heating/scheduler.ts';
import { JobRegistry } from './jobs/registry.ts';
import { serverJobs } from './jobs/server-jobs.ts';
import { createLogger } from './logger.ts';
import { answeringDevices } from './lorawan/device-config.ts';
import type { DownlinkQueue } from './lorawan/downlink-queue.ts';
import { startLorawan } from './lorawan/lorawan.ts';
import { uplinkAlerts } from './modules/alerts/alert-ingest.ts';
import { rewindForLateUplinks } from './modules/reports/rollups.repository.ts';
import { type LorawanState, lateBinding } from './ports.ts';
import { readOrCreateHexSecret } from './secret-file.ts';
import { createServices } from './services.ts';
import { brightSky, configuredProvider } from './weather/providers.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const database = await openDatabase(config.database);
  await database.migrate();
  const { db } = database;
  const log = createLogger(config);
  for (const { variable, message } of configWarnings(config)) log.warn({ variable }, message);
  const { verifyToken, identity } = await createAuth(config, db);
  // Every background loop of this instance, started with one call once the server listens
  // (jobs/server-jobs.ts lists them). A change asks the scheduler for a tick through it.
  const jobs = new JobRegistry({ log, now: systemClock });
  // The LoRaWAN side starts after the app is built; it is bound below, once, before the server
  // listens.
  const lorawanStatus = lateBinding<LorawanState>('the LoRaWAN side');
  const downlinkQueue = lateBinding<DownlinkQueue>('the downlink queue');
  // Devices just paired, moved, reconfigured or that answered a query: queue what they owe now.
  const devicesAssigned = (deviceIds: string[]) =>
    void downlinkQueue.current
      ?.reconcileDevices(deviceIds)
      .catch((err) => log.error({ err, deviceIds }, 'queueing the setpoint of paired devices failed'));
  const services = createServices({
    config,
    db,
    log,
    ports: {
      ...identityAccountPorts(config, db, log),
      setpointWaker: { wake: () => jobs.runNow(HEATING_SCHEDULER_JOB) },
      devicesAssigned,
      // A heating circuit's relay command, through the same queue and delivery tracking as setpoints.
      queueDownlink: async (companyId, devEui, fPort, payloadHex) => {
        const queue = downlinkQueue.current;
        if (!queue) throw new Error('the LoRaWAN side is not started yet');
        await queue.queueRaw({
          companyId,
          devEui,
          fPort,
          payloadHex,
          reason: 'generator',
          at: systemClock(),
        });
      },
    },
  });
  const app = await buildApp({
    config,
    database,
    log,
    services,
    verifyToken,
    identity,
    lorawanStatus,
    jobs,
  });

  // MQTT broker (embedded unless MQTT_URL), uplink ingest and setpoint downlinks; cheap alert
  // checks on every committed batch of uplinks, off the ingest's path.
  const alertsOnUplinks = uplinkAlerts(db, log);
  const lorawan = await startLorawan({
    config,
    db,
    log,
    onUplinks: (uplinks) => {
      alertsOnUplinks.push(uplinks);
      // A valve that answered may owe its next settings now (decision 0062).
      const answered = answeringDevices(uplinks);
      if (answered.length > 0) devicesAssigned(answered);
      // A late uplink sends the rollups of its quarter hour back to be computed again (decision 0061).
      rewindForLateUplinks(
        db,
        uplinks.map((u) => ({ time: u.event.time, companyId: u.device.companyId })),
      ).catch((err: unknown) => log.warn({ err }, 'rollups not rewound for late uplinks'));
    },
  });
  lorawanStatus.bind(lorawan);
  downlinkQueue.bind(lorawan.setpointSink);
  const heatingScheduler = new HeatingScheduler({
    db,
    sink: lorawan.setpointSink,
    devices: databaseDeviceDirectory(db),
    logger: log,
  });
  jobs.add(heatingScheduler.job(), ...lorawan.jobs);
  // The operator's token for `npm run billing -- mark-paid`, kept in DATA_DIR unless configured.
  if (!config.operatorToken) await readOrCreateHexSecret(config.dataDir, 'operator-token');

  // The demo building (DEMO, README): seeded on first start, then simulated while we run.
  const demo = await ensureDemo(db, config);
  let demoSimulator: RunningDemo | undefined;
  // The demo circuit's heat pump: a Modbus TCP stand-in its output writes to in mode "on".
  let demoHeatPump: DemoHeatPump | undefined;
  if (demo) {
    demoHeatPump = await runDemoHeatPump(db, demo.companyId, systemClock).catch((err: unknown) => {
      log.warn({ err }, 'demo heat pump not started; the demo circuit stays as it is');
      return undefined;
    });
  }
  if (demo && config.lorawan.networkServer === 'chirpstack') {
    demoSimulator = await runDemoSimulator(db, {
      companyId: demo.companyId,
      brokerUrl: lorawan.brokerUrl,
      applicationId: config.lorawan.chirpstackApplicationId,
      onError: (err) => log.warn({ err }, 'demo simulator step failed'),
    });
  }
  // The demo's buildings read the weather stand-in this server serves, every other company's
  // the configured provider (decision 0057).
  const weather = configuredProvider(config.weather);
  const demoWeather = brightSky(`${config.publicUrl}${DEMO_WEATHER_BASE_PATH}`);
  jobs.add(
    ...serverJobs({
      config,
      db,
      log,
      now: systemClock,
      mailer: services.mailer,
      billing: services.billing,
      bookingFeeds: services.bookingFeeds,
      heatingCircuits: services.heatingCircuits,
      weatherFor: (building) => (building.companyId === demo?.companyId ? demoWeather : weather),
      embeddedIdentity: identity !== undefined,
    }),
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await demoSimulator?.stop();
    await jobs.stop();
    await services.heatingCircuits.close();
    await demoHeatPump?.close();
    await lorawan.close();
    await alertsOnUplinks.idle();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // After listening: the demo's booking feed and weather are served by this server.
  jobs.start();
  log.info(`Heizplan ${config.version} on ${config.publicUrl} (database: ${database.kind})`);
  if (demo) {
    console.log(
      [
        '',
        `  Demo building ${demo.created ? 'created' : 'running'}: sign in at ${config.publicUrl}`,
        `    e-mail:   ${DEMO_LOGIN.email}`,
        `    password: ${DEMO_LOGIN.password}`,
        '  (DEMO=0 turns the demo off)',
        '',
      ].join('\n'),
    );
  }
}

await main();
