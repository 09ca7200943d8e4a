import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';

describe('GET /api/public/app-config', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers the configured support contact without a token', async () => {
    t = await buildTestApp({
      SUPPORT_EMAIL: 'hilfe@stadtwerke.example',
      SUPPORT_URL: 'https://hilfe.example/heizung',
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/public/app-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      support: { email: 'hilfe@stadtwerke.example', url: 'https://hilfe.example/heizung' },
    });
  });

  it("hands the browser the Sentry DSN of SENTRY_DSN at run time, with the server's release", async () => {
    t = await buildTestApp({ SENTRY_DSN: 'https://publickey@o1.ingest.sentry.example/42' });
    const res = await t.app.inject({ method: 'GET', url: '/api/public/app-config' });
    expect(res.json().error_reporting).toEqual({
      sentry_dsn: 'https://publickey@o1.ingest.sentry.example/42',
      environment: 'test',
      release: expect.stringMatching(/^heizplan@\d/),
    });
  });

  it('answers null for a contact that is not configured', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/public/app-config' });
    expect(res.json()).toMatchObject({
      support: { email: null, url: null },
      error_reporting: { sentry_dsn: null },
    });
  });
});
