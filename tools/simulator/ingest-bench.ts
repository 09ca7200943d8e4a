/**
 * End-to-end ingest benchmark (issue 6 "Performance"): N ChirpStack uplinks published with QoS 1
 * through the broker → decode → database commit → PUBACK, counting rows against frames sent
 * (zero loss), next to a bare mqtt.js subscribe-and-discard baseline measured in the same run
 * on the same broker. Uses DATABASE_URL (PostgreSQL) or in-memory PGlite, MQTT_URL or the
 * embedded broker. Its own company is deleted afterwards (telemetry and devices cascade).
 * Against Mosquitto, raise `max_queued_messages` (default 1000) or it drops a burst it cannot
 * hand on fast enough, and `max_inflight_messages` (default 20) bounds the throughput to about
 * 20 messages per commit round trip.
 *
 *   DATABASE_URL=postgres://… npx tsx tools/simulator/ingest-bench.ts [frames=20000] [devices=500]
 * (BENCH_MAX_BATCH sets the ingest batch size, default 1000).
 */
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { openDatabase } from '../../server/src/db/client.ts';
import { companies } from '../../server/src/db/schema/accounts.ts';
import { devices } from '../../server/src/db/schema/devices.ts';
import { units } from '../../server/src/db/schema/heating.ts';
import { telemetry } from '../../server/src/db/schema/telemetry.ts';
import { chirpstackFormat, chirpstackUplinkEvent } from '../../server/src/lorawan/chirpstack.ts';
import { getCodec } from '../../server/src/lorawan/codecs/registry.ts';
import { startEmbeddedBroker } from '../../server/src/lorawan/embedded-broker.ts';
import { UplinkIngest } from '../../server/src/lorawan/ingest.ts';
import { startLorawanAdapter } from '../../server/src/lorawan/mqtt-adapter.ts';
import type { MqttMessage } from '../../server/src/lorawan/network-server.ts';
import { telemetryStore } from '../../server/src/lorawan/telemetry.repository.ts';

const frames = Number(process.argv[2] ?? 20_000);
const deviceCount = Number(process.argv[3] ?? 500);
const run = randomUUID().slice(0, 8);
const prefix = `bench-${run}/`;

const database = await openDatabase(
  process.env.DATABASE_URL ? { kind: 'postgres', url: process.env.DATABASE_URL } : { kind: 'pglite' },
);
await database.migrate();
const broker = process.env.MQTT_URL ? undefined : await startEmbeddedBroker({ port: 0 });
const url = process.env.MQTT_URL ?? (broker?.url as string);
const { db } = database;

const [company] = await db
  .insert(companies)
  .values({ name: `bench ${run}` })
  .returning();
const companyId = company?.id as string;
const unitRows = await db
  .insert(units)
  .values(Array.from({ length: deviceCount }, (_, i) => ({ companyId, name: `Room ${i}` })))
  .returning({ id: units.id });
const devEuis = unitRows.map((_, i) => `fe${run.slice(0, 6)}${i.toString(16).padStart(8, '0')}`.slice(0, 16));
await db.insert(devices).values(
  devEuis.map((devEui, i) => ({
    id: devEui,
    devEui,
    companyId,
    model: 'mclimate-vicki',
    unitId: unitRows[i]?.id,
  })),
);

const vicki = getCodec('mclimate-vicki');
const messages: MqttMessage[] = Array.from({ length: frames }, (_, n) => {
  const frame = vicki.encodeUplink({
    roomTemperature: 18 + (n % 50) / 10,
    setpoint: 21,
    valveOpening: n % 100,
    battery: { value: 3.3, unit: 'V' },
    errors: [],
  });
  return chirpstackUplinkEvent({
    applicationId: 'bench',
    devEui: devEuis[n % deviceCount] as string,
    fCnt: Math.floor(n / deviceCount) + 1,
    fPort: frame.fPort,
    bytes: frame.bytes,
    time: new Date(Date.UTC(2026, 0, 1) + n * 1000),
    gatewayId: 'b827ebfffe6c2a11',
    rssi: -90,
    snr: 7,
    deduplicationId: randomUUID(),
  });
});

/**
 * Waits until `received()` reaches `frames`, or nothing arrived for 5 s: a broker that drops
 * messages (Mosquitto's max_queued_messages) never delivers them; the gap is reported as lost.
 */
async function untilAllOrStalled(received: () => number): Promise<number> {
  let last = -1;
  let since = performance.now();
  while (received() < frames && performance.now() - since < 5000) {
    if (received() !== last) {
      last = received();
      since = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // The time of the last arrival, so a stall does not count as work.
  return received() < frames ? since : performance.now();
}

async function publishAll(tag: string) {
  const publisher = await mqtt.connectAsync(url, { protocolVersion: 4, clientId: `bench-${run}-${tag}-pub` });
  await Promise.all(
    messages.map((m) => publisher.publishAsync(`${prefix}${tag}/${m.topic}`, m.payload, { qos: 1 })),
  );
  await publisher.endAsync();
}

// Baseline: bare mqtt.js QoS 1 subscriber that discards.
const baseline = await mqtt.connectAsync(url, {
  protocolVersion: 4,
  clean: false,
  clientId: `bench-${run}-base`,
});
await baseline.subscribeAsync(`${prefix}base/#`, { qos: 1 });
let seen = 0;
baseline.on('message', () => {
  seen++;
});
let started = performance.now();
await publishAll('base');
const baselineMs = (await untilAllOrStalled(() => seen)) - started;
await baseline.endAsync();

// Heizplan: adapter → ingest → database commit → PUBACK.
const format = chirpstackFormat({ applicationId: 'bench' });
const quiet = { info() {}, warn() {}, error: (o: object, m: string) => console.error(m, o) };
const store = telemetryStore(db);
const commits = { count: 0, ms: 0, lookupMs: 0 };
const ingest = new UplinkIngest({
  maxBatch: Number(process.env.BENCH_MAX_BATCH ?? 1000),
  format,
  log: quiet,
  store: {
    devicesByDevEui: async (e) => {
      const t = performance.now();
      const result = await store.devicesByDevEui(e);
      commits.lookupMs += performance.now() - t;
      return result;
    },
    commit: async (batch) => {
      const t = performance.now();
      const result = await store.commit(batch);
      commits.count++;
      commits.ms += performance.now() - t;
      return result;
    },
  },
});
const adapter = startLorawanAdapter({
  url,
  format,
  ingest,
  log: quiet,
  clientId: `bench-${run}-hp`,
  topicPrefix: `${prefix}hp/`,
});
await adapter.ready;
started = performance.now();
await publishAll('hp');
const lastArrival = await untilAllOrStalled(() => ingest.metrics.received);
const complete = ingest.metrics.received >= frames;
await ingest.drain();
// Complete: until the last commit (PUBACKs sent); stalled: until the last arrival.
const ingestMs = (complete ? performance.now() : lastArrival) - started;
const rows = (await db.select({ n: count() }).from(telemetry).where(eq(telemetry.companyId, companyId)))[0]
  ?.n;

const rate = (ms: number) => Math.round((frames / ms) * 1000);
console.info(
  JSON.stringify({
    database: database.kind,
    broker: process.env.MQTT_URL ? 'external' : 'embedded',
    frames,
    devices: deviceCount,
    rowsStored: rows,
    lost: frames - Number(rows),
    baselineReceived: seen,
    baselinePerSecond: rate(baselineMs),
    ingestPerSecond: rate(ingestMs),
    ratioToBaseline: Number((baselineMs / ingestMs).toFixed(2)),
    commits: commits.count,
    meanBatch: Math.round(frames / Math.max(1, commits.count)),
    commitMsTotal: Math.round(commits.ms),
    lookupMsTotal: Math.round(commits.lookupMs),
    ingestMs: Math.round(ingestMs),
  }),
);

await adapter.close();
// Discard the persistent sessions so a shared broker does not keep them (and their queues).
for (const clientId of [`bench-${run}-hp`, `bench-${run}-base`]) {
  await (await mqtt.connectAsync(url, { protocolVersion: 4, clean: true, clientId })).endAsync();
}
await db.delete(companies).where(eq(companies.id, companyId));
await broker?.close();
await database.close();
