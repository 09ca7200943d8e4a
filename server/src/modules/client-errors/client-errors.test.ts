/** The web app's fallback error reporter (spec §8, §9): browser errors land in the server's log, rate-limited. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { CLIENT_ERROR_RATE_LIMIT } from './client-errors.routes.ts';

const report = {
  kind: 'render',
  message: 'TypeError: Cannot read properties of undefined (reading "name")',
  stack: 'TypeError: Cannot read properties of undefined\n    at UnitsPage (units-page-x.js:1:200)',
  componentStack: '\n    at UnitsPage\n    at AppShell',
  path: '/units',
  release: '0.1.0',
};

describe('POST /api/public/client-errors', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  const post = (body: unknown, ip = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/client-errors',
      payload: body as object,
      remoteAddress: ip,
    });

  beforeAll(async () => {
    t = await buildTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    );
  });
  afterAll(() => t.close());
  beforeEach(() => {
    lines.length = 0;
  });

  it('writes the browser error to the log at warn with the request id, without a token', async () => {
    const res = await post(report, '203.0.113.1');
    expect(res.statusCode).toBe(204);
    const logged = lines.filter((line) => line.msg === 'browser error');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, clientError: report });
    expect(logged[0]?.reqId).toBe(res.headers['x-request-id']);
  });

  it('refuses an unknown kind or an oversized message with 400, logging no browser error', async () => {
    expect((await post({ ...report, kind: 'guess' }, '203.0.113.2')).statusCode).toBe(400);
    expect((await post({ ...report, message: 'x'.repeat(1001) }, '203.0.113.2')).statusCode).toBe(400);
    expect(lines.filter((line) => line.msg === 'browser error')).toEqual([]);
  });

  it(`answers 429 problem+json with Retry-After after ${CLIENT_ERROR_RATE_LIMIT} reports a minute from one client`, async () => {
    for (let i = 0; i < CLIENT_ERROR_RATE_LIMIT; i++)
      expect((await post(report, '203.0.113.3')).statusCode).toBe(204);
    const refused = await post(report, '203.0.113.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(lines.filter((line) => line.msg === 'browser error')).toHaveLength(CLIENT_ERROR_RATE_LIMIT);
    // Another client is not held back by it.
    expect((await post(report, '203.0.113.4')).statusCode).toBe(204);
  });
});
