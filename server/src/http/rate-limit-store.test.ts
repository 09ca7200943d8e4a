import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { secondConnection } from '../jobs/second-connection.test-helper.ts';
import { eventually } from '../lorawan/test-fixture.ts';
import { databaseRateLimitStore, rateLimitOptions } from './rate-limit-store.ts';

describe('rate limits shared by instances', () => {
  let database: Database;
  let other: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    other = await secondConnection(database);
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database.close();
  });

  /** An instance with two limited routes, counting in the database. */
  async function instance(db: Database, namespace = 'test') {
    const app = Fastify();
    await app.register(rateLimit, {
      global: false,
      store: databaseRateLimitStore(db.db, namespace) as never,
    });
    app.get('/a', { config: { rateLimit: { max: 3, timeWindow: 60_000 } } }, async () => 'a');
    app.get('/b', { config: { rateLimit: { max: 3, timeWindow: 60_000 } } }, async () => 'b');
    // Two seconds: the second request lands inside the window on a loaded machine too.
    app.get('/short', { config: { rateLimit: { max: 1, timeWindow: 2000 } } }, async () => 'short');
    await app.ready();
    return app;
  }

  it('counts the requests of one client at every instance together, per route', async () => {
    const [one, two] = [await instance(database), await instance(other)];
    const get = (app: typeof one, url: string) =>
      app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7' });
    expect((await get(one, '/a')).statusCode).toBe(200);
    expect((await get(two, '/a')).statusCode).toBe(200);
    expect((await get(one, '/a')).statusCode).toBe(200);
    const limited = await get(two, '/a');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50);
    // Another route and another client count on their own.
    expect((await get(two, '/b')).statusCode).toBe(200);
    const stranger = await one.inject({ method: 'GET', url: '/a', remoteAddress: '203.0.113.8' });
    expect(stranger.statusCode).toBe(200);
    await Promise.all([one.close(), two.close()]);
  });

  it('opens a new window once the old one is over', async () => {
    const app = await instance(database, 'window');
    const get = () => app.inject({ method: 'GET', url: '/short', remoteAddress: '203.0.113.9' });
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(429);
    // Refused until the window is over, then let through: every poll counts as a request.
    await eventually('a new window', async () => (await get()).statusCode === 200, 10_000);
    await app.close();
  });

  it('is used only when several instances are configured; one instance counts in memory', () => {
    const config = loadConfig({});
    expect(rateLimitOptions(config, database.db, 'x')).toEqual({ global: false });
    expect(rateLimitOptions({ ...config, instances: 2 }, database.db, 'x').store).toBeTypeOf('function');
  });
});
