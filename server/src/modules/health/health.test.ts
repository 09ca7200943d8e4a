import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.ts';
import { JobRegistry } from '../../jobs/registry.ts';

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

describe('GET /api/health/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const ready = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });

  it('answers 200 when the database answers and names no broker in an app without one', async () => {
    const res = await ready();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', db: 'ok', version: pkg.version });
  });

  it('answers 200 while the broker is down, reporting it: the API and the UI do not need it', async () => {
    t.ports.lorawan = { brokerConnected: false, sessions: { state: 'disconnected' } };
    try {
      const down = await ready();
      expect(down.statusCode).toBe(200);
      expect(down.json()).toEqual({
        status: 'ready',
        db: 'ok',
        broker: 'down',
        uplinks: 'disconnected',
        version: pkg.version,
      });
      // Standing by for the deployment's one plain session: another instance consumes.
      t.ports.lorawan = { brokerConnected: true, sessions: { state: 'standby' } };
      const standby = await ready();
      expect(standby.statusCode).toBe(200);
      expect(standby.json()).toMatchObject({ status: 'ready', broker: 'ok', uplinks: 'standby' });
    } finally {
      t.ports.lorawan = undefined;
    }
  });

  it('reports whether downlinks leave without answering 503 for stalled ones', async () => {
    const downlinkHealth = { state: 'stalled' as const, oldestUnsentSeconds: 960 };
    t.ports.lorawan = { brokerConnected: true, sessions: { state: 'consuming' }, downlinkHealth };
    try {
      const res = await ready();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ready', uplinks: 'consuming', downlinks: downlinkHealth });
      t.ports.lorawan = {
        brokerConnected: true,
        sessions: { state: 'consuming' },
        downlinkHealth: { state: 'ok', oldestUnsentSeconds: null },
      };
      expect((await ready()).json()).toMatchObject({ downlinks: { state: 'ok', oldestUnsentSeconds: null } });
      // A getter that throws leaves the field out; the probe still answers.
      t.ports.lorawan = {
        brokerConnected: true,
        sessions: { state: 'consuming' },
        get downlinkHealth(): never {
          throw new Error('queue closed');
        },
      };
      const failing = await ready();
      expect(failing.statusCode).toBe(200);
      expect(failing.json()).not.toHaveProperty('downlinks');
    } finally {
      t.ports.lorawan = undefined;
    }
  });

  it('lists the background jobs with their last success and failures, never answering 503 for one', async () => {
    const clock = testClock('2026-12-02T09:00:00Z');
    let smtpUp = true;
    const jobs = new JobRegistry({ log: { error: () => {} }, now: clock.now }).add(
      {
        name: 'heating scheduler',
        periodMs: 15_000,
        lock: 'skip locked rows',
        claims: 'units whose next setpoint change is due, then the setpoint outbox',
        run: async () => {},
      },
      {
        name: 'alert mail',
        periodMs: 60_000,
        lock: 'advisory lock',
        claims: 'opened and resolved alerts not yet mailed to their subscribers',
        run: async () => {
          if (!smtpUp) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        },
      },
    );
    t.ports.jobs = jobs;
    jobs.start();
    try {
      await vi.waitFor(() => expect(jobs.status().every((job) => job.runs === 1)).toBe(true));
      smtpUp = false;
      clock.advance(60_000);
      jobs.runNow('alert mail');
      await vi.waitFor(() => expect(jobs.status()[1]?.runs).toBe(2));
      const res = await ready();
      expect(res.statusCode).toBe(200);
      expect(res.json().jobs).toEqual([
        {
          name: 'heating scheduler',
          periodSeconds: 15,
          lock: 'skip locked rows',
          claims: 'units whose next setpoint change is due, then the setpoint outbox',
          running: false,
          runs: 1,
          failures: 0,
          failingSince: null,
          lastSuccessAt: '2026-12-02T09:00:00.000Z',
          lastError: null,
        },
        {
          name: 'alert mail',
          periodSeconds: 60,
          lock: 'advisory lock',
          claims: 'opened and resolved alerts not yet mailed to their subscribers',
          running: false,
          runs: 2,
          failures: 1,
          failingSince: '2026-12-02T09:01:00.000Z',
          lastSuccessAt: '2026-12-02T09:00:00.000Z',
          lastError: 'connect ECONNREFUSED 127.0.0.1:25',
        },
      ]);
    } finally {
      await jobs.stop();
      t.ports.jobs = undefined;
    }
  });

  it('answers 503 naming the database when it does not answer within 2 s', async () => {
    const { ping } = t.database;
    t.database.ping = () => new Promise(() => {});
    // Without the database this instance gave its MQTT session up; it says so instead of "standby".
    t.ports.lorawan = { brokerConnected: true, sessions: { state: 'paused' } };
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', db: 'down', broker: 'ok', uplinks: 'paused' });
    } finally {
      t.database.ping = ping;
      t.ports.lorawan = undefined;
    }
  });
});

describe('migrations', () => {
  it('apply twice without error', async () => {
    const database = await createTestDatabase();
    await expect(database.migrate()).resolves.toBeUndefined();
    await database.close();
  });
});
