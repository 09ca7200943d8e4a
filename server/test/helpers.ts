/**
 * Integration-test helpers (docs/architecture.md, "Tests and CI"): `buildTestApp()` gives a real app on a fresh database
 * — in-memory PGlite by default, a throw-away PostgreSQL database when the vitest project
 * sets HEIZPLAN_TEST_DB=postgres (from TEST_DATABASE_URL) — wired as main.ts wires it, with
 * test doubles behind its ports (`TestApp.ports`); `as()` mints bearer tokens from a local
 * test issuer, verified by the same code path as production.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import pg from 'pg';
import { inject } from 'vitest';
import { type App, type AppDeps, buildApp } from '../src/app.ts';
import { createTokenVerifier, type TokenVerifier } from '../src/auth/bearer.ts';
import { type Clock, systemClock } from '../src/clock.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, dumpPglite, openDatabase } from '../src/db/client.ts';
import type { QueueDownlink } from '../src/generators/outputs.ts';
import { createLogger, type Logger } from '../src/logger.ts';
import {
  type AccountPort,
  type BillingHooks,
  type Mailer,
  resolveAccountPorts,
} from '../src/modules/me/me.ports.ts';
import type { JobsStatus, LorawanState } from '../src/ports.ts';
import { createServices, type ServicePorts, type Services } from '../src/services.ts';
import { createFromMigratedTemplate } from './postgres-template.ts';

export const TEST_ISSUER = 'http://issuer.test';
export const TEST_AUDIENCE = 'heizplan-api';

/** True when this test run targets PostgreSQL rather than PGlite. */
export const onPostgres = process.env.HEIZPLAN_TEST_DB === 'postgres';

let pgliteTemplate: Promise<Blob> | undefined;

/** The migrated data directory the run's global setup wrote, when there is one. */
function providedTemplate(): string | undefined {
  try {
    return inject('pgliteTemplate');
  } catch {
    // Outside a vitest worker (a bench script): no global setup ran.
    return undefined;
  }
}

/**
 * A migrated PGlite data directory, loaded once per worker from the file the global setup wrote
 * (`pglite-template.global.ts`), else made here: loading it takes about a quarter of the time of
 * initdb plus every migration (docs/decisions/0065-a-suite-that-answers-the-same.md).
 */
function migratedPglite(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = providedTemplate();
    if (file) return new Blob([await readFile(file)]);
    const database = await openDatabase({ kind: 'pglite' });
    try {
      await database.migrate();
      // A checkpoint first, so no copy replays the migrations' WAL when it opens: about 0.1 s
      // of CPU less per test database (0.8 instead of 0.9 s).
      await database.db.execute(sql`checkpoint`);
      return await dumpPglite(database);
    } finally {
      await database.close();
    }
  })();
  return pgliteTemplate;
}

/** Opens a fresh, migrated database; on PostgreSQL a uniquely named one dropped on close. */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!onPostgres || !url) {
    // Migrated already, like the PostgreSQL template below.
    return openDatabase({ kind: 'pglite', loadDataDir: await migratedPglite() });
  }
  const name = `heizplan_test_${randomUUID().replaceAll('-', '')}`;
  await createFromMigratedTemplate(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = waitLikePglite(await openDatabase({ kind: 'postgres', url: target.toString() }));
  return {
    ...database,
    close: async () => {
      await database.close();
      // pg-pool's end() resolves before its sockets are closed; a forced drop would kill
      // them mid-close (57P01, an uncaught error). Wait for them to go, force only as a last resort.
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      for (let attempt = 0; ; attempt++) {
        try {
          await dropper.query(`drop database if exists ${name}${attempt >= 50 ? ' with (force)' : ''}`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await dropper.end();
    },
  };
}

/** How long a query waits for the transaction it was started in before it names the hang. */
const PGLITE_WAIT_MS = 20_000;

/**
 * Makes PostgreSQL wait where PGlite would. PGlite, the embedded default, has one connection: a
 * query on the database rather than on the transaction (or a second `db.transaction`), started
 * inside `db.transaction(…)`, waits until that transaction has ended, and forever if the
 * transaction awaits it. PostgreSQL's pool serves such a query from a second connection, so a test
 * that runs on PostgreSQL alone would not see the hang (vitest.config.ts runs most integration
 * files once, on PostgreSQL where it is there; decision 0065). Here such a query waits for its
 * transaction, as on PGlite, and fails naming the cause after `waitMs`.
 */
export function waitLikePglite(database: Database, waitMs = PGLITE_WAIT_MS): Database {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  // The end of the transaction whose callback the current code runs in.
  const inside = new AsyncLocalStorage<Promise<void>>();
  const afterTransaction = async () => {
    const ending = inside.getStore();
    if (!ending) return;
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `A query on the database inside db.transaction() waited ${waitMs} ms for that ` +
                'transaction to end: on PGlite (one connection) it would wait forever. Use the ' +
                'transaction (tx) inside its callback.',
            ),
          ),
        waitMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([ending, hang]);
    } finally {
      clearTimeout(timer);
    }
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = (async (...args: unknown[]) => {
    await afterTransaction();
    return query(...args);
  }) as typeof pool.query;
  const db = database.db;
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run, config) => {
    await afterTransaction();
    let end = () => {};
    const ending = new Promise<void>((resolve) => {
      end = resolve;
    });
    try {
      return await transaction((tx) => inside.run(ending, () => run(tx)), config);
    } finally {
      end();
    }
  }) as typeof db.transaction;
  return database;
}

export interface TestIssuer {
  verify: ReturnType<typeof createTokenVerifier>;
  /** Signs an access token for `sub`; `claims` may override anything (e.g. `aud`, `exp`). */
  sign(sub: string, claims?: JWTPayload & { name?: string; email?: string }): Promise<string>;
}

export async function createTestIssuer(): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'ES256' };
  const verify = createTokenVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    jwks: createLocalJWKSet({ keys: [jwk] }),
  });
  return {
    verify,
    sign: (sub, claims = {}) =>
      new SignJWT({ email: `${sub}@example.test`, name: sub, email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'test' })
        .setSubject(sub)
        .setIssuer(TEST_ISSUER)
        .setAudience(TEST_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}

/**
 * Test doubles behind the app's ports, read on every call: a test sets one to record or to fail
 * calls, or to play the LoRaWAN side. Unset ones behave as in an app without them.
 */
export interface TestPorts {
  /** Unset: mail is only logged. */
  mailer?: Mailer | undefined;
  /** Unset: password and verification calls answer 503. */
  account?: AccountPort | undefined;
  /** Unset: billing cancels the deleted account's subscriptions itself. */
  accountDeletion?: BillingHooks | undefined;
  /** Called whenever a change wakes the heating scheduler. */
  wake?: (() => void) | undefined;
  /** Told of devices that just got a unit (their setpoint is due on the LoRaWAN side). */
  devicesAssigned?: ((deviceIds: string[]) => void) | undefined;
  /** Queues a heating circuit's relay downlink; unset: relay writes fail as without a LoRaWAN side. */
  queueDownlink?: QueueDownlink | undefined;
  /** What readiness and `/metrics` see of the LoRaWAN side; unset: an app without one. */
  lorawan?: LorawanState | undefined;
  /** The background jobs readiness reports; none when unset. */
  jobs?: JobsStatus | undefined;
}

/** Optional parts of an app a test builds itself. */
export interface TestAppOptions {
  /** Default: JSON lines at LOG_LEVEL on stdout. */
  log?: Logger;
  identity?: AppDeps['identity'];
  /** Ports of the services, replacing the test doubles of `TestPorts`. */
  ports?: ServicePorts;
  lorawanStatus?: AppDeps['lorawanStatus'];
  /** The background jobs readiness reports (jobs/registry.ts). */
  jobs?: AppDeps['jobs'];
  /** What the services read as now; default the machine's clock. */
  clock?: Clock;
}

/**
 * The app main.ts would build on `database`: logger, services and HTTP app, wired once.
 * @returns the app (not yet ready), its services and its logger.
 */
export async function composeApp(
  config: Config,
  database: Database,
  verifyToken: TokenVerifier,
  options: TestAppOptions = {},
): Promise<{ app: App; services: Services; log: Logger }> {
  const log = options.log ?? createLogger(config);
  const services = createServices({
    config,
    db: database.db,
    log,
    ports: options.ports,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp({
    config,
    database,
    log,
    services,
    verifyToken,
    identity: options.identity,
    lorawanStatus: options.lorawanStatus,
    jobs: options.jobs,
  });
  return { app, services, log };
}

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  issuer: TestIssuer;
  /** The services the app was built with (e.g. to run a job's work by hand). */
  services: Services;
  /** What the app's services read as now: a fixture seeds "upcoming" data from it. */
  now: Clock;
  ports: TestPorts;
  /** Authorization header for a (provisioned on first use) user `sub`. */
  as(sub: string): Promise<{ authorization: string }>;
  /** Calls the API as `user` (default `alice`) with an optional JSON body. */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    user?: string,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A test app configured by `env`, its ports behind the test doubles of `TestApp.ports`. */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: {
    logStream?: { write(line: string): void };
    /** What the app's services read as now (a test's fixed or stepped clock, `test/clock.ts`). */
    clock?: Clock;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/heizplan-test',
    WEB_DIST: '/nonexistent',
    ...env,
  });
  const database = await createTestDatabase();
  const issuer = await createTestIssuer();
  const log = createLogger(config, options.logStream);
  const ports: TestPorts = {};
  // What an app without the port does.
  const unset = resolveAccountPorts(undefined, log);
  const { app, services } = await composeApp(config, database, issuer.verify, {
    log,
    ...(options.clock ? { clock: options.clock } : {}),
    ports: {
      mailer: { send: (...mail) => (ports.mailer ?? unset.mailer).send(...mail) },
      account: {
        requestVerification: (userId) => (ports.account ?? unset.account).requestVerification(userId),
        setPassword: (...args) => (ports.account ?? unset.account).setPassword(...args),
        secondFactorStatus: (userId) => (ports.account ?? unset.account).secondFactorStatus(userId),
        stepUp: (...args) => (ports.account ?? unset.account).stepUp(...args),
        startTotp: (userId) => (ports.account ?? unset.account).startTotp(userId),
        confirmTotp: (...args) => (ports.account ?? unset.account).confirmTotp(...args),
        disableTotp: (...args) => (ports.account ?? unset.account).disableTotp(...args),
        listPasskeys: (userId) => (ports.account ?? unset.account).listPasskeys(userId),
        passkeyRegistrationOptions: (userId) =>
          (ports.account ?? unset.account).passkeyRegistrationOptions(userId),
        registerPasskey: (...args) => (ports.account ?? unset.account).registerPasskey(...args),
        renamePasskey: (...args) => (ports.account ?? unset.account).renamePasskey(...args),
        removePasskey: (...args) => (ports.account ?? unset.account).removePasskey(...args),
        listSessions: (...args) => (ports.account ?? unset.account).listSessions(...args),
        endSession: (...args) => (ports.account ?? unset.account).endSession(...args),
        endOtherSessions: (...args) => (ports.account ?? unset.account).endOtherSessions(...args),
        resetSecondFactors: (userId) => (ports.account ?? unset.account).resetSecondFactors(userId),
      },
      billing: {
        onAccountDeletion: (userId) =>
          ports.accountDeletion
            ? ports.accountDeletion.onAccountDeletion(userId)
            : services.billing.cancelForAccountDeletion(userId),
      },
      setpointWaker: { wake: () => ports.wake?.() },
      devicesAssigned: (deviceIds) => ports.devicesAssigned?.(deviceIds),
      queueDownlink: (...args) =>
        ports.queueDownlink
          ? ports.queueDownlink(...args)
          : Promise.reject(new Error('no LoRaWAN downlink queue in this test')),
    },
    lorawanStatus: {
      get current() {
        return ports.lorawan;
      },
    },
    jobs: { status: () => ports.jobs?.status() ?? [] },
  });
  await app.ready();
  const as = async (sub: string) => ({ authorization: `Bearer ${await issuer.sign(sub)}` });
  return {
    app,
    database,
    config,
    issuer,
    services,
    now: options.clock ?? systemClock,
    ports,
    as,
    call: async (method, url, payload, user = 'alice') =>
      app.inject({ method, url, ...(payload ? { payload } : {}), headers: await as(user) }),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
