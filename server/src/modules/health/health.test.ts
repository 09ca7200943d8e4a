import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.ts';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 with db ok and the package version, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok', version: pkg.version });
  });

  it('answers problem+json 404 for an unknown /api path instead of the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths).toHaveProperty('/api/health');
  });

  it('answers 503 with db down when the database does not answer', async () => {
    const dead = await buildTestApp();
    await dead.database.close();
    const res = await dead.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', db: 'down' });
    await dead.app.close();
  });
});

describe('migrations', () => {
  it('apply twice without error', async () => {
    const database = await createTestDatabase();
    await expect(database.migrate()).resolves.toBeUndefined();
    await database.close();
  });
});
