/**
 * Composition root (ARCHITECTURE.md §2): config → database (migrated) → HTTP. Exits with a
 * clear message on bad configuration; drains HTTP and closes the database on SIGTERM/SIGINT.
 */
import { buildApp } from './app.ts';
import { identityAccountPorts } from './auth/account-ports.ts';
import { createAuth } from './auth/issuer.ts';
import { ConfigError, configWarnings, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { ensureDemo } from './demo/demo.ts';
import { DEMO_LOGIN } from './demo/demo-data.ts';
import { type RunningDemo, runDemoSimulator } from './demo/demo-simulator.ts';
import { startAlertJobs } from './jobs/alert-jobs.ts';
import { startBillingRenewal } from './jobs/billing-renewal.ts';
import { databaseDeviceDirectory } from './jobs/device-directory.ts';
import { HeatingScheduler } from './jobs/heating-scheduler.ts';
import { startLorawan } from './lorawan/lorawan.ts';
import { uplinkAlerts } from './modules/alerts/alert-ingest.ts';
import { startAccountPurge } from './modules/me/me.purge.ts';
import { readOrCreateHexSecret } from './secret-file.ts';

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
  const { verifyToken, identity } = await createAuth(config, database.db);
  const app = await buildApp({ config, database, verifyToken, identity });
  for (const { variable, message } of configWarnings(config)) app.log.warn({ variable }, message);
  app.deps.accountPorts = { ...app.deps.accountPorts, ...identityAccountPorts(config, database.db, app.log) };

  // MQTT broker (embedded unless MQTT_URL), uplink ingest and setpoint downlinks (issue 6).
  // Cheap alert checks on every committed batch of uplinks, off the ingest's path (issue 15).
  const alertsOnUplinks = uplinkAlerts(database.db, app.log);
  const lorawan = await startLorawan({
    config,
    db: database.db,
    log: app.log,
    onUplinks: (uplinks) => alertsOnUplinks.push(uplinks),
  });
  app.deps.lorawan = lorawan;
  const heatingScheduler = new HeatingScheduler({
    db: database.db,
    sink: lorawan.setpointSink,
    devices: databaseDeviceDirectory(database.db),
    logger: app.log,
  });
  app.deps.heatingScheduler = heatingScheduler;
  // Removes accounts 30 days after their deletion request (spec §4).
  const stopAccountPurge = startAccountPurge(database.db, app.log);
  // Rolls the manual provider's subscription periods and issues their invoices (issue 13).
  const stopBillingRenewal = startBillingRenewal(app);
  // The operator's token for `npm run billing -- mark-paid`, kept in DATA_DIR unless configured.
  if (!config.operatorToken) await readOrCreateHexSecret(config.dataDir, 'operator-token');

  // The demo building (DEMO, README): seeded on first start, then simulated while we run.
  const demo = await ensureDemo(database.db, config);
  let demoSimulator: RunningDemo | undefined;
  if (demo && config.lorawan.networkServer === 'chirpstack') {
    demoSimulator = await runDemoSimulator(database.db, {
      companyId: demo.companyId,
      brokerUrl: lorawan.brokerUrl,
      applicationId: config.lorawan.chirpstackApplicationId,
      onError: (err) => app.log.warn({ err }, 'demo simulator step failed'),
    });
  }
  // Time-based alert conditions, webhook deliveries and alert mails (issue 15); after the demo,
  // so its first evaluation already sees the demo's faults.
  const stopAlertJobs = startAlertJobs(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await demoSimulator?.stop();
    await heatingScheduler.stop();
    stopAccountPurge();
    stopBillingRenewal();
    stopAlertJobs();
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
  app.log.info(`Heizplan ${config.version} on ${config.publicUrl} (database: ${database.kind})`);
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
