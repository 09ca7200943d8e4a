/**
 * Server side of `bench/http.bench.ts`, run as a child process so the load generator does not
 * share an event loop with the server it measures. Not a bench file itself (no `.bench.ts`).
 *
 * Starts, on free loopback ports, a hello-world Fastify (the baseline) and the real app as
 * `main.ts` builds it — production config, the embedded identity provider and its bearer
 * verification, PostgreSQL at BENCH_HTTP_DATABASE_URL — but without the LoRaWAN side and the
 * scheduler, which would only add background work. Mints an access token for `sub` signed with
 * the provider's own RS256 key, as its token endpoint would, and reports
 * `{ app, hello, token }` over IPC; exits on `'close'`.
 */
import Fastify from 'fastify';
import { importJWK, type JWK, SignJWT } from 'jose';
import { buildApp } from '../server/src/app.ts';
import { createAuth } from '../server/src/auth/issuer.ts';
import { loadProviderKeys } from '../server/src/auth/keys.ts';
import { identityUrls } from '../server/src/auth/provider.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { createLogger } from '../server/src/logger.ts';
import { createServices } from '../server/src/services.ts';

export interface HttpServerReady {
  app: number;
  hello: number;
  token: string;
}

const config = loadConfig({
  NODE_ENV: 'production',
  // Requests still running when the bench stops them fail against the closed pool; not news.
  LOG_LEVEL: 'fatal',
  DATABASE_URL: process.env.BENCH_HTTP_DATABASE_URL,
  DATA_DIR: process.env.BENCH_HTTP_DATA_DIR,
  WEB_DIST: '/nonexistent',
  PORT: '0',
  HOST: '127.0.0.1',
});
const database = await openDatabase(config.database);
const { verifyToken, identity } = await createAuth(config, database.db);
const log = createLogger(config);
const services = createServices({ config, db: database.db, log });
const app = await buildApp({ config, database, log, services, verifyToken, identity });
await app.listen({ port: 0, host: '127.0.0.1' });

const hello = Fastify();
hello.get('/', async () => ({ hello: 'world' }));
await hello.listen({ port: 0, host: '127.0.0.1' });

const [key] = (await loadProviderKeys(database.db)).jwks.keys as (JWK & { kid: string })[];
if (!key) throw new Error('the provider has no signing key');
const token = await new SignJWT({ scope: 'openid' })
  .setProtectedHeader({ alg: 'RS256', kid: key.kid })
  .setIssuer(identityUrls(config).issuer)
  .setAudience(config.oidc.audience)
  .setSubject(process.env.BENCH_HTTP_SUB ?? 'bench-user')
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(await importJWK(key, 'RS256'));

const port = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
process.send?.({ app: port(app), hello: port(hello), token } satisfies HttpServerReady);
process.on('message', async (message) => {
  if (message !== 'close') return;
  await Promise.all([app.close(), hello.close()]);
  await database.close();
  // process.exit would skip writing the CPU profile (BENCH_HTTP_PROFILE); let the process end.
  process.disconnect();
});
