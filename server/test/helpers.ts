/**
 * Integration-test helpers (STYLE.md): `buildTestApp()` gives a real app on a fresh database
 * — in-memory PGlite by default, a throw-away PostgreSQL database when the vitest project
 * sets HEIZPLAN_TEST_DB=postgres (from TEST_DATABASE_URL) — and `signIn()` mints bearer
 * tokens from a local test issuer, verified by the same code path as production.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import pg from 'pg';
import { type App, type AppDeps, buildApp } from '../src/app.ts';
import { createTokenVerifier } from '../src/auth/bearer.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';

export const TEST_ISSUER = 'http://issuer.test';
export const TEST_AUDIENCE = 'heizplan-api';

/** True when this test run targets PostgreSQL rather than PGlite. */
export const onPostgres = process.env.HEIZPLAN_TEST_DB === 'postgres';

/** Opens a fresh, migrated database; on PostgreSQL a uniquely named one dropped on close. */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!onPostgres || !url) {
    const database = await openDatabase({ kind: 'pglite' });
    await database.migrate();
    return database;
  }
  const name = `heizplan_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: target.toString() });
  await database.migrate();
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

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  issuer: TestIssuer;
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

/** A test app configured by `env`; `deps` adds or replaces dependencies (e.g. a `logStream`). */
export async function buildTestApp(
  env: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'config' | 'database' | 'verifyToken'>> = {},
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
  const app = await buildApp({ config, database, verifyToken: issuer.verify, ...deps });
  await app.ready();
  const as = async (sub: string) => ({ authorization: `Bearer ${await issuer.sign(sub)}` });
  return {
    app,
    database,
    config,
    issuer,
    as,
    call: async (method, url, payload, user = 'alice') =>
      app.inject({ method, url, ...(payload ? { payload } : {}), headers: await as(user) }),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
