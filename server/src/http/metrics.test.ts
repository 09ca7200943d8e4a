import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';

/** The sample lines of one metric family in Prometheus' text format. */
const samples = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('reports request latency by route pattern, the application counters and process metrics', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/companies/0b7e7a34-7f39-4d55-8a4e-2d7f3a7d9a11/units' });
    await t.app.inject({ method: 'GET', url: '/api/nowhere/42' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    const text = res.body;
    const counts = samples(text, 'http_request_duration_seconds_count');
    expect(counts).toContainEqual(
      expect.stringContaining('method="GET",route="/api/health",status_code="200"'),
    );
    // The pattern, never the id: a path per resource would be a time series per resource.
    expect(counts).toContainEqual(
      expect.stringContaining('route="/api/companies/:companyId/units",status_code="401"'),
    );
    expect(counts).toContainEqual(expect.stringContaining('route="unmatched",status_code="404"'));
    expect(text).not.toContain('0b7e7a34');
    expect(samples(text, 'heizplan_database_up')).toEqual(['heizplan_database_up 1']);
    expect(samples(text, 'heizplan_scheduler_lag_seconds')).toEqual(['heizplan_scheduler_lag_seconds 0']);
    expect(samples(text, 'heizplan_downlinks_unpublished')).toEqual(['heizplan_downlinks_unpublished 0']);
    expect(samples(text, 'heizplan_webhook_deliveries_pending')).toEqual([
      'heizplan_webhook_deliveries_pending 0',
    ]);
    expect(samples(text, 'heizplan_alerts_open')).toContain('heizplan_alerts_open{kind="device_offline"} 0');
    for (const family of [
      'heizplan_ingest_messages_total',
      'heizplan_ingest_commit_seconds',
      'heizplan_downlinks_total',
      'heizplan_scheduler_tick_seconds',
      'heizplan_mails_total',
      'heizplan_alert_evaluation_seconds',
      'heizplan_webhook_deliveries_total',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
  });

  it('answers every request with its id, taking a plausible one from the load balancer', async () => {
    const own = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-7f3a.42' },
    });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.42');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'x"}\n{"level":60' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'c0ffee'.repeat(8);
  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: token });
  });
  afterAll(() => t.close());

  it('answers 401 problem+json without the bearer token and the metrics with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
  });
});
