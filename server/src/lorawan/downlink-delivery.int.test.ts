/**
 * The downlink queue at fleet scale (decision 0047): 20,000 commands in one call (10,000 on PGlite), a command the
 * database refuses, a downlink the broker keeps refusing, and a database that does not answer.
 * Publishing goes to a recording stand-in here; the end-to-end path through a real broker is in
 * `fleet-delivery.int.test.ts`.
 */
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, onPostgres } from '../../test/helpers.ts';
import type { Database, Db } from '../db/client.ts';
import { alerts } from '../db/schema/alerts.ts';
import { downlinkDeadLetters, downlinks } from '../db/schema/telemetry.ts';
import type { SetpointCommand } from '../heating/setpoint-sink.ts';
import { registry } from '../metrics.ts';
import { ALERT_LOCK, evaluateAlerts } from '../modules/alerts/alert-evaluation.repository.ts';
import { BrokerUnavailableError, DownlinkQueue, MAX_PUBLISH_ATTEMPTS } from './downlink-queue.ts';
import type { DownlinkRequest } from './network-server.ts';
import { absorbPoolShutdownError, eventually, type Seeded, seedFleet } from './test-fixture.ts';

const SINCE = new Date('2026-11-23T05:00:00Z');
/**
 * Ten record chunks and forty publish windows on PostgreSQL, five and twenty on the embedded
 * database: the batching the 100,000-valve fleets of decision 0047 go through. The 100,000 itself,
 * and how fast, is `npm run bench -- reconciler.bench.ts scheduler.bench.ts` (the test at 100,000
 * took 80–150 s of a 2-core CI run; decision 0065).
 */
const FLEET = onPostgres ? 20_000 : 10_000;
const fleetText = FLEET.toLocaleString('en');
const log = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

const commandsFor = (fleet: Seeded, setpoint: number): SetpointCommand[] =>
  fleet.devEuis.map((deviceId, i) => ({
    companyId: fleet.companyId,
    unitId: fleet.unitIds[i] as string,
    deviceId,
    setpoint,
    ignoreWallControl: false,
    reason: 'group_plan',
    at: SINCE,
  }));

const deadLettered = async (stage: string) => {
  const metric = await registry.getSingleMetric('heizplan_downlinks_dead_lettered_total')?.get();
  return metric?.values.find((v) => v.labels.stage === stage)?.value ?? 0;
};

describe('downlink queue at fleet scale', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
  });
  afterAll(() => database.close());

  const unpublished = async (companyId: string) =>
    (
      await database.db
        .select({ n: count() })
        .from(downlinks)
        .where(and(eq(downlinks.companyId, companyId), isNull(downlinks.publishedAt)))
    )[0]?.n;

  it(`records and publishes ${fleetText} commands given in one call, one downlink per valve`, async () => {
    const fleet = await seedFleet(database.db, FLEET, 21, SINCE);
    const published = new Map<string, DownlinkRequest>();
    const queue = new DownlinkQueue({
      db: database.db,
      log: log(),
      publish: async (request) => {
        published.set(request.id, request);
      },
    });
    await queue.send(commandsFor(fleet, 21));
    await queue.idle();

    expect(published.size).toBe(FLEET);
    expect(new Set([...published.values()].map((r) => r.devEui)).size).toBe(FLEET);
    const [stored] = await database.db
      .select({ n: count() })
      .from(downlinks)
      .where(eq(downlinks.companyId, fleet.companyId));
    expect(stored?.n).toBe(FLEET);
    expect(await unpublished(fleet.companyId)).toBe(0);
    expect(await queue.health()).toEqual({ state: 'ok', oldestUnsentSeconds: null });
  }, 240_000);

  it('sets aside a command the database refuses, delivers every other one, and alerts the company', async () => {
    const fleet = await seedFleet(database.db, 3000, 21, SINCE);
    const poisoned = fleet.devEuis[1234] as string;
    await database.db.execute(
      sql.raw(`
      create function refuse_poisoned() returns trigger language plpgsql as $$
      begin
        if new.device_id = '${poisoned}' then raise exception 'refused for the test'; end if;
        return new;
      end $$`),
    );
    await database.db.execute(
      sql.raw(
        'create trigger refuse_poisoned before insert on downlinks for each row execute function refuse_poisoned()',
      ),
    );
    const before = await deadLettered('record');
    const published: string[] = [];
    const queue = new DownlinkQueue({
      db: database.db,
      log: log(),
      retryMs: 5,
      publish: async (request) => {
        published.push(request.devEui);
      },
    });
    try {
      await queue.send(commandsFor(fleet, 21));
      await queue.idle();
    } finally {
      await database.db.execute(sql.raw('drop trigger refuse_poisoned on downlinks'));
      await database.db.execute(sql.raw('drop function refuse_poisoned()'));
    }

    expect(published).toHaveLength(2999);
    expect(published).not.toContain(poisoned);
    const letters = await database.db
      .select()
      .from(downlinkDeadLetters)
      .where(eq(downlinkDeadLetters.companyId, fleet.companyId));
    expect(letters).toMatchObject([{ deviceId: poisoned, setpoint: 21, stage: 'record', attempts: 1 }]);
    expect(letters[0]?.error).toContain('refused for the test');
    expect((await deadLettered('record')) - before).toBe(1);

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ALERT_LOCK})`);
      // The machine's clock: the queue stamped the downlinks with the database's now().
      await evaluateAlerts(tx as unknown as Db, new Date());
    });
    const [alert] = await database.db.select().from(alerts).where(eq(alerts.companyId, fleet.companyId));
    expect(alert).toMatchObject({
      kind: 'setpoints_stalled',
      subject: 'company',
      subjectId: fleet.companyId,
      state: 'open',
      details: { waiting: 0, setAside: 1 },
    });
  }, 120_000);

  it('sets aside a downlink the connected broker keeps refusing, not the ones it takes', async () => {
    const fleet = await seedFleet(database.db, 50, 21, SINCE);
    const poisoned = fleet.devEuis[7] as string;
    let offline = false;
    const published: string[] = [];
    const queue = new DownlinkQueue({
      db: database.db,
      log: log(),
      publish: async (request) => {
        if (offline) throw new BrokerUnavailableError();
        if (request.devEui === poisoned) throw new Error('topic refused');
        published.push(request.devEui);
      },
    });
    await queue.send(commandsFor(fleet, 21));
    await queue.idle();
    expect(published).toHaveLength(49);
    // While the broker is away, failures are nobody's fault and do not count.
    offline = true;
    for (let i = 0; i < 2 * MAX_PUBLISH_ATTEMPTS; i++) await queue.publishPending();
    const [waiting] = await database.db.select().from(downlinks).where(eq(downlinks.devEui, poisoned));
    expect(waiting).toMatchObject({ state: 'queued', publishAttempts: 1, publishedAt: null });
    offline = false;
    for (let i = 1; i < MAX_PUBLISH_ATTEMPTS; i++) await queue.publishPending();

    const [given] = await database.db.select().from(downlinks).where(eq(downlinks.devEui, poisoned));
    expect(given).toMatchObject({
      state: 'failed',
      publishAttempts: MAX_PUBLISH_ATTEMPTS,
      publishedAt: null,
    });
    expect(await queue.publishPending()).toBe(0);
    const letters = await database.db
      .select()
      .from(downlinkDeadLetters)
      .where(eq(downlinkDeadLetters.companyId, fleet.companyId));
    expect(letters).toMatchObject([{ deviceId: poisoned, stage: 'publish', error: 'topic refused' }]);
    // Reconcile does not send it again: the device's newest downlink is the failed one.
    await queue.reconcile();
    await queue.idle();
    expect(await database.db.select().from(downlinks).where(eq(downlinks.devEui, poisoned))).toHaveLength(1);
  });

  it('keeps every command, setting none aside, while the database does not answer', async () => {
    const fleet = await seedFleet(database.db, 200, 21, SINCE);
    let down = true;
    const failing = new Proxy(database.db, {
      get(target, key, receiver) {
        if (down && (key === 'execute' || key === 'transaction')) {
          return () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const published: string[] = [];
    const logger = log();
    const queue = new DownlinkQueue({
      db: failing,
      log: logger,
      retryMs: 10,
      publish: async (request) => {
        published.push(request.devEui);
      },
    });
    const before = await deadLettered('record');
    await queue.send(commandsFor(fleet, 21));
    // Each attempt that finds the database gone is logged: three of them, and nothing was lost.
    await eventually('three failed attempts to record', () => logger.error.mock.calls.length >= 3, 5_000);
    expect(queue.backlogSize).toBe(200);
    expect(published).toEqual([]);
    down = false;
    await queue.idle();
    expect(queue.backlogSize).toBe(0);
    expect(published.sort()).toEqual([...fleet.devEuis].sort());
    expect(await deadLettered('record')).toBe(before);
  });

  it('reports a stalled sender when recorded setpoints wait for the broker', async () => {
    const fleet = await seedFleet(database.db, 10, 21, SINCE);
    const queue = new DownlinkQueue({
      db: database.db,
      log: log(),
      publish: async () => {
        throw new BrokerUnavailableError();
      },
    });
    await queue.send(commandsFor(fleet, 21));
    await queue.idle();
    await database.db
      .update(downlinks)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(eq(downlinks.companyId, fleet.companyId));
    const health = await queue.health();
    expect(health.state).toBe('stalled');
    expect(health.oldestUnsentSeconds).toBeGreaterThanOrEqual(600);
  });
});
