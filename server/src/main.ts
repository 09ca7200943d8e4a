/**
 * Composition root (docs/architecture.md): config → database (migrated) → logger → services →
 * HTTP app → LoRaWAN side and scheduler (bound to the ports the services and the app were given)
 * → jobs → listen. Exits with a clear message on bad configuration; drains HTTP and closes the
 * database on SIGTERM/SIGINT.
 */
import { buildApp } from './app.ts';
import { identityAccountPorts } from './auth/account-ports.ts';
import { createAuth } from './auth/issuer.ts';
import { ConfigError, configWarnings, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { ensureDemo } from './demo/demo.ts';
import { DEMO_LOGIN } from './demo/demo-data.ts';
import { type RunningDemo, runDemoSimulator } from './demo/demo-simulator.ts';
import { DEMO_WEATHER_BASE_PATH } from './demo/demo-weather.ts';
import { startAlertJobs } from './jobs/alert-jobs.ts';
import { startBillingRenewal } from './jobs/billing-renewal.ts';
import { startBookingFeedSync } from './jobs/booking-feed-sync.ts';
import { HeatingScheduler } from './jobs/heating-scheduler.ts';
import { startPeriodic } from './jobs/periodic.ts';
import { startReportJobs } from './jobs/report-jobs.ts';
import { createLogger } from './logger.ts';
import { answeringDevices } from './lorawan/device-config.ts';
import type { DownlinkQueue } from './lorawan/downlink-queue.ts';
import { startLorawan } from './lorawan/lorawan.ts';
import { uplinkAlerts } from './modules/alerts/alert-ingest.ts';
import { purgeAuditLog } from './modules/audit/audit.repository.ts';
import { startAccountPurge } from './modules/me/me.purge.ts';
import { rewindForLateUplinks } from './modules/reports/rollups.repository.ts';
import { type LorawanState, lateBinding } from './ports.ts';
import { databaseDeviceDirectory } from './scheduling/device-directory.ts';
import type { SetpointWaker } from './scheduling/heating-services.ts';
import { learnWarmUpModels } from './scheduling/warm-up-learning.ts';
import { readOrCreateHexSecret } from './secret-file.ts';
import { createServices } from './services.ts';
import { startOutdoorSync } from './weather/outdoor-sync.ts';
import { brightSky, configuredProvider } from './weather/providers.ts';

/** How often the warm-up learning looks for units due (each unit is learned at most hourly). */
const WARM_UP_LEARNING_MS = 15 * 60_000;
/** How often entries past the audit log's retention are deleted. */
const AUDIT_PURGE_MS = 6 * 3_600_000;

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
  // The scheduler and the LoRaWAN side start after the app is built; both are bound below, once,
  // before the server listens.
  const scheduler = lateBinding<SetpointWaker>('the heating scheduler');
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
      setpointWaker: { wake: () => scheduler.current?.wake() },
      devicesAssigned,
    },
  });
  const app = await buildApp({ config, database, log, services, verifyToken, identity, lorawanStatus });

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
  scheduler.bind(heatingScheduler);
  // Removes accounts 30 days after their deletion request (spec §4).
  const stopAccountPurge = startAccountPurge(db, log);
  // Rolls the manual provider's subscription periods and issues their invoices.
  const stopBillingRenewal = startBillingRenewal({ billing: services.billing, log });
  // The operator's token for `npm run billing -- mark-paid`, kept in DATA_DIR unless configured.
  if (!config.operatorToken) await readOrCreateHexSecret(config.dataDir, 'operator-token');

  // The demo building (DEMO, README): seeded on first start, then simulated while we run.
  const demo = await ensureDemo(db, config);
  let demoSimulator: RunningDemo | undefined;
  if (demo && config.lorawan.networkServer === 'chirpstack') {
    demoSimulator = await runDemoSimulator(db, {
      companyId: demo.companyId,
      brokerUrl: lorawan.brokerUrl,
      applicationId: config.lorawan.chirpstackApplicationId,
      onError: (err) => log.warn({ err }, 'demo simulator step failed'),
    });
  }
  // Time-based alert conditions, webhook deliveries and alert mails; after the demo, so its
  // first evaluation already sees the demo's faults.
  const stopAlertJobs = startAlertJobs({
    db,
    log,
    alerts: config.alerts,
    publicUrl: config.publicUrl,
    mailer: services.mailer,
  });

  // Learns each room's warm-up from its own history (decision 0056); after the demo, so its
  // first run reads the demo's history.
  const stopWarmUpLearning = startPeriodic(
    'warm-up learning',
    WARM_UP_LEARNING_MS,
    async () => {
      const learned = await learnWarmUpModels(db);
      if (learned > 0) log.info({ units: learned }, 'warm-up models learned');
    },
    log,
  );

  // The audit log keeps AUDIT_RETENTION_DAYS (decision 0059); idempotent across instances.
  const stopAuditPurge = startPeriodic(
    'audit log purge',
    AUDIT_PURGE_MS,
    async () => {
      const purged = await purgeAuditLog(db, new Date(Date.now() - config.auditRetentionDays * 86_400_000));
      if (purged > 0) log.info({ purged }, 'audit log entries past retention deleted');
    },
    log,
  );

  // Rollups, telemetry partitions and retention, the monthly report mail (decision 0061); after
  // the demo, so its history is rolled up at once.
  const stopReportJobs = startReportJobs({
    db,
    log,
    mailer: services.mailer,
    retentionMonths: config.telemetryRetentionMonths,
  });

  let stopBookingFeedSync = () => {};
  let stopOutdoorSync = () => {};
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await demoSimulator?.stop();
    await heatingScheduler.stop();
    stopAccountPurge();
    stopBillingRenewal();
    stopBookingFeedSync();
    stopOutdoorSync();
    stopAlertJobs();
    stopReportJobs();
    stopWarmUpLearning();
    stopAuditPurge();
    await lorawan.close();
    await alertsOnUplinks.idle();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  heatingScheduler.start();
  // Room calendars every 15 minutes (decision 0053); after listening, as the demo's calendar is
  // served by this server.
  stopBookingFeedSync = startBookingFeedSync({ bookingFeeds: services.bookingFeeds, log });
  // Outdoor temperature per building (decision 0057); the demo's buildings read the stand-in
  // this server serves, every other company's the configured provider.
  const weather = configuredProvider(config.weather);
  const demoWeather = brightSky(`${config.publicUrl}${DEMO_WEATHER_BASE_PATH}`);
  stopOutdoorSync = startOutdoorSync({
    db,
    providerFor: (building) => (building.companyId === demo?.companyId ? demoWeather : weather),
    log,
  });
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
