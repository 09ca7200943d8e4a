import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { secondConnection } from '../jobs/second-connection.test-helper.ts';
import { chirpstackFormat } from './chirpstack.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { UplinkIngest } from './ingest.ts';
import { MqttSessions } from './mqtt-sessions.ts';
import { telemetryStore } from './telemetry.repository.ts';
import {
  APPLICATION_ID,
  absorbPoolShutdownError,
  brokerTargets,
  eventually,
  purgeSessions,
  seedValves,
  telemetryCount,
  uniqueRun,
  vickiUplink,
} from './test-fixture.ts';

const format = chirpstackFormat({ applicationId: APPLICATION_ID });
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

/** Registry rows of this test's sessions. */
async function registry(database: Database, base: string) {
  const result = await database.db.execute(
    sql`select client_id, filters, holder from mqtt_sessions where client_id like ${`${base}%`} order by client_id`,
  );
  return (result as unknown as { rows: { client_id: string; filters: string[]; holder: string | null }[] })
    .rows;
}

/** Hooks and helpers of one suite: a fresh broker session set-up per test, two databases. */
function sessionSuite(url: string | undefined) {
  let database: Database;
  let other: Database;
  let broker: EmbeddedBroker | undefined;
  let brokerUrl: string;
  let run: ReturnType<typeof uniqueRun>;
  let base: string;
  let ns: MqttClient;
  const open: MqttSessions[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    absorbPoolShutdownError(database);
    // The second instance's own connection pool, as a second server process would have.
    other = await secondConnection(database);
    absorbPoolShutdownError(other);
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database.close();
  });

  beforeEach(async () => {
    broker = url ? undefined : await startEmbeddedBroker({ port: 0 });
    brokerUrl = url ?? (broker as EmbeddedBroker).url;
    run = uniqueRun();
    base = `hz-${run.clientId.slice(-8)}`;
    ns = await mqtt.connectAsync(brokerUrl, { protocolVersion: 4, clientId: `${base}-ns` });
  });

  afterEach(async () => {
    for (const sessions of open.splice(0)) await sessions.close();
    await ns.endAsync();
    const ids = (await registry(database, base)).map((r) => r.client_id);
    await purgeSessions(brokerUrl, ids);
    await database.db.execute(sql`delete from mqtt_sessions where client_id like ${`${base}%`}`);
    await broker?.close();
  });

  function instance(db: Database, shareGroup?: string) {
    const ingest = new UplinkIngest({ format, store: telemetryStore(db.db), log, lingerMs: 5 });
    const sessions = new MqttSessions({
      db: db.db,
      url: brokerUrl,
      format,
      ingest,
      log,
      clientId: base,
      shareGroup,
      topicPrefix: run.prefix,
      reconnectPeriodMs: 50,
      leaseMs: 2000,
      roundMs: 100,
      idleMs: 300,
    });
    open.push(sessions);
    return { ingest, sessions };
  }

  const publish = async (devEuis: string[], from: number, count: number) => {
    for (let fCnt = from; fCnt < from + count; fCnt++) {
      for (const devEui of devEuis) {
        const m = vickiUplink(devEui, fCnt);
        await ns.publishAsync(`${run.prefix}${m.topic}`, m.payload, { qos: 1 });
      }
    }
  };

  return {
    instance,
    publish,
    /** Per-test state, read inside a test once its hooks have run. */
    current: () => ({ database, other, base, run, brokerUrl }),
  };
}

describe.each(brokerTargets)('leased MQTT sessions ($name)', ({ url }) => {
  const suite = sessionSuite(url);
  const { instance, publish } = suite;

  it('runs one plain session for the deployment: a second instance stands by and resumes it, queue included', async () => {
    const { database, other, base } = suite.current();
    const { devEuis, companyId } = await seedValves(database.db, 4);
    const a = instance(database);
    await a.sessions.start();
    const b = instance(other);
    await b.sessions.start();
    expect(a.sessions.homeClientId).toBe(base);
    expect(b.sessions.state).toBe('standby');
    await eventually('A connected', () => a.sessions.state === 'consuming');

    await publish(devEuis, 1, 10);
    await eventually('40 rows', async () => (await telemetryCount(database.db, companyId)) === 40);
    // A stops; what arrives meanwhile waits in the session at the broker until B resumes it.
    await a.sessions.close();
    await publish(devEuis, 11, 10);
    await eventually('B took over', () => b.sessions.state === 'consuming');
    await eventually('80 rows', async () => (await telemetryCount(database.db, companyId)) === 80);
    // Each uplink is one row (the key absorbs a redelivery); B stored the ones A never took.
    await b.ingest.drain();
    expect(await telemetryCount(database.db, companyId)).toBe(80);
    expect(b.ingest.metrics.inserted).toBe(40);
    expect(await registry(database, base)).toEqual([
      expect.objectContaining({ client_id: base, holder: b.sessions.instanceId }),
    ]);
  });

  it('warns at start when the broker lost a session it had (persistence off or unwritable)', async () => {
    const { database } = suite.current();
    const first = instance(database);
    await first.sessions.start();
    await eventually('connected', () => first.sessions.state === 'consuming');
    await first.sessions.close();
    const lost = 'MQTT broker lost this session: what it had queued for it is gone (is its persistence on?)';
    log.warn.mockClear();
    // A broker that kept it: no warning.
    const kept = instance(database);
    await kept.sessions.start();
    await eventually('connected again', () => kept.sessions.state === 'consuming');
    await kept.sessions.close();
    expect(log.warn).not.toHaveBeenCalledWith(expect.anything(), lost);
    // The broker forgets it (as a restart without persistence does).
    await purgeSessions(suite.current().brokerUrl, [suite.current().base]);
    const again = instance(database);
    await again.sessions.start();
    await eventually('warned', () => log.warn.mock.calls.some(([, msg]) => msg === lost));
  });
});

// aedes has no shared subscriptions ($share), which is why the embedded broker means one instance.
describe.each(brokerTargets.filter((t) => t.url))('shared-subscription members ($name)', ({ url }) => {
  const suite = sessionSuite(url);
  const { instance, publish } = suite;

  it('spreads uplinks over shared-subscription members and adopts the session of one that left', async () => {
    const { database, other, base, run } = suite.current();
    const { devEuis, companyId } = await seedValves(database.db, 5);
    const group = `g${run.clientId.slice(-8)}`;
    const a = instance(database, group);
    await a.sessions.start();
    const b = instance(other, group);
    await b.sessions.start();
    expect([a.sessions.homeClientId, b.sessions.homeClientId]).toEqual([`${base}-1`, `${base}-2`]);
    await eventually(
      'both connected',
      () => a.sessions.state === 'consuming' && b.sessions.state === 'consuming',
    );

    await publish(devEuis, 1, 20);
    await eventually('100 rows', async () => (await telemetryCount(database.db, companyId)) === 100);
    expect(a.ingest.metrics.inserted).toBeGreaterThan(0);
    expect(b.ingest.metrics.inserted).toBeGreaterThan(0);

    // B leaves for good. Mosquitto keeps queueing every second uplink for its session until
    // A adopts it: A unsubscribes it, takes what it holds and records it as ended.
    await b.sessions.close();
    const beforeB = a.ingest.metrics.inserted;
    await publish(devEuis, 21, 20);
    await eventually('200 rows', async () => (await telemetryCount(database.db, companyId)) === 200);
    expect(a.ingest.metrics.inserted - beforeB).toBe(100);
    // …and ends it, as well as the plain session a single instance used before (never used here).
    const ended = async () => (await registry(database, base)).filter((r) => r.filters.length === 0);
    await eventually('B ended', async () => (await ended()).length === 2);
    expect((await ended()).map((r) => r.client_id)).toEqual([base, `${base}-2`]);
    await publish(devEuis, 41, 4);
    await eventually('220 rows', async () => (await telemetryCount(database.db, companyId)) === 220);
    await a.ingest.drain();
    expect(await telemetryCount(database.db, companyId)).toBe(220);
  });
});
