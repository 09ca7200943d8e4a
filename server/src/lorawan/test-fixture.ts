/**
 * Shared set-up for the LoRaWAN integration tests: a company with units and registered valves,
 * ChirpStack frames in the MClimate Vicki byte layout, broker targets (the embedded broker
 * always, Mosquitto when TEST_MQTT_URL is set) and a unique topic prefix/client id per test so
 * parallel runs on one Mosquitto do not see each other's messages.
 */
import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeWithin } from '../../test/close-within.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database, Db } from '../db/client.ts';
import { companies } from '../db/schema/accounts.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { telemetry } from '../db/schema/telemetry.ts';
import { chirpstackUplinkEvent } from './chirpstack.ts';
import { getCodec } from './codecs/registry.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import type { MqttMessage } from './network-server.ts';

export const APPLICATION_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

export interface Seeded {
  companyId: string;
  unitIds: string[];
  devEuis: string[];
}

let seeded = 0;

/** One company, `n` units with one MClimate Vicki each; DevEUIs unique within the database. */
export async function seedValves(db: Db, n: number): Promise<Seeded> {
  const series = (seeded++).toString(16).padStart(4, '0');
  const [company] = await db.insert(companies).values({ name: 'Hausverwaltung Test' }).returning();
  const companyId = (company as { id: string }).id;
  const unitRows = await db
    .insert(units)
    .values(Array.from({ length: n }, (_, i) => ({ companyId, name: `Room ${i + 1}` })))
    .returning({ id: units.id });
  const devEuis = unitRows.map((_, i) => `70b3d52d${series}${i.toString(16).padStart(4, '0')}`);
  await db.insert(devices).values(
    devEuis.map((devEui, i) => ({
      id: devEui,
      devEui,
      companyId,
      model: 'mclimate-vicki',
      unitId: (unitRows[i] as { id: string }).id,
    })),
  );
  return { companyId, unitIds: unitRows.map((u) => u.id), devEuis };
}

/**
 * One company and a fleet of `n` units with one MClimate Vicki each, written by the database
 * itself (`generate_series`): thousands of rows without one bind parameter per row. Units carry
 * `setpoint` °C from a group plan since `since` (none when null). DevEUIs are unique within the
 * database.
 */
export async function seedFleet(db: Db, n: number, setpoint: number | null, since: Date): Promise<Seeded> {
  const series = (seeded++).toString(16).padStart(4, '0');
  const [company] = await db.insert(companies).values({ name: 'Stadtwerke Test' }).returning();
  const companyId = (company as { id: string }).id;
  await db.execute(sql`
    insert into units (company_id, name, setpoint, setpoint_source, setpoint_since)
    select ${companyId}::uuid, 'Raum ' || i, ${setpoint}::real, ${setpoint === null ? null : 'group_plan'},
      ${setpoint === null ? null : since.toISOString()}::timestamptz
    from generate_series(1, ${n}) as i`);
  await db.execute(sql`
    insert into devices (id, company_id, dev_eui, model, unit_id)
    select e, ${companyId}::uuid, e, 'mclimate-vicki', id
    from (select id, ${`70b3d5${series}`} || lpad(to_hex(row_number() over (order by name collate "C")), 6, '0') as e
          from units where company_id = ${companyId}::uuid) u`);
  const rows = (
    (await db.execute(
      sql`select unit_id, dev_eui from devices where company_id = ${companyId}::uuid order by dev_eui`,
    )) as unknown as { rows: { unit_id: string; dev_eui: string }[] }
  ).rows;
  return { companyId, unitIds: rows.map((r) => r.unit_id), devEuis: rows.map((r) => r.dev_eui) };
}

/** A ChirpStack `up` event with a Vicki keep-alive; `time` advances one minute per `fCnt`. */
export function vickiUplink(
  devEui: string,
  fCnt: number,
  values: { roomTemperature?: number; valveOpening?: number } = {},
): MqttMessage {
  const { bytes, fPort } = getCodec('mclimate-vicki').encodeUplink({
    roomTemperature: values.roomTemperature ?? 20 + (fCnt % 5),
    setpoint: 21,
    valveOpening: values.valveOpening ?? 40,
    battery: { value: 3.4, unit: 'V' },
    errors: [],
  });
  return chirpstackUplinkEvent({
    applicationId: APPLICATION_ID,
    devEui,
    fCnt,
    fPort,
    bytes,
    time: new Date(Date.UTC(2026, 10, 22, 5, 0) + fCnt * 60_000),
    gatewayId: '0016c001ff10a235',
    rssi: -90,
    snr: 7.5,
    deduplicationId: randomUUID(),
  });
}

/** Telemetry rows of one company (tests share a database per file, one company per test). */
export const telemetryCount = async (db: Db, companyId: string) =>
  (await db.select({ n: count() }).from(telemetry).where(eq(telemetry.companyId, companyId)))[0]?.n ?? 0;

/** Polls `check` until it returns true; rejects with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Unique per test: topic prefix and client ids on a shared broker. */
export const uniqueRun = () => {
  const id = randomUUID().slice(0, 8);
  return { prefix: `heizplan-test-${id}/`, clientId: `heizplan-test-${id}` };
};

/** Broker targets for adapter tests: the embedded broker, plus Mosquitto when TEST_MQTT_URL is set. */
export const brokerTargets: { name: string; url?: string }[] = [
  { name: 'embedded broker' },
  ...(process.env.TEST_MQTT_URL ? [{ name: 'Mosquitto', url: process.env.TEST_MQTT_URL }] : []),
];

/**
 * Ends persistent sessions a test left on the broker (a shared Mosquitto keeps `clean: false`
 * sessions, and their queues, forever): connecting once with `clean: true` discards them.
 */
export async function purgeSessions(url: string, clientIds: string[]) {
  for (const clientId of clientIds) {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      clean: true,
      clientId,
      reconnectPeriod: 0,
    });
    await client.endAsync();
  }
}

/**
 * pg-pool's `end()` resolves before its idle connections have closed, and the shared test
 * helper then drops the database `with (force)`: a connection still closing receives FATAL
 * 57P01 and the pool re-emits it as an unhandled 'error'. These tests use several pool
 * connections at once (ingest, downlink worker, assertions), which makes that race likely;
 * the error is expected at that point, so it is absorbed here (no-op on PGlite).
 */
export function absorbPoolShutdownError(database: { db: unknown }) {
  const client = (database.db as { $client?: { on?: (event: string, fn: () => void) => void } }).$client;
  if (client && typeof client.on === 'function' && !(client as { waitReady?: unknown }).waitReady) {
    client.on('error', () => {});
  }
}

/**
 * Publishes `frames` behind `prefix` with QoS 1 at a steady pace (a pause every `every` frames),
 * so a test can break something while the stream flows; `onProgress` sees how many went out.
 */
export async function publishBurst(
  client: mqtt.MqttClient,
  prefix: string,
  frames: MqttMessage[],
  options: { every?: number; pauseMs?: number; onProgress?: (sent: number) => void } = {},
) {
  const { every = 20, pauseMs = 40 } = options;
  for (let i = 0; i < frames.length; i += every) {
    await Promise.all(
      frames
        .slice(i, i + every)
        .map((frame) => client.publishAsync(`${prefix}${frame.topic}`, frame.payload, { qos: 1 })),
    );
    options.onProgress?.(Math.min(i + every, frames.length));
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** `n` frames for each valve, fCnt 1… */
export const framesFor = (devEuis: string[], n: number) =>
  devEuis.flatMap((devEui) => Array.from({ length: n }, (_, i) => vickiUplink(devEui, i + 1)));

/** MQTT settings of one test: its own client id, and a share group only where the broker has them. */
export const mqttEnv = (run: ReturnType<typeof uniqueRun>, shared: boolean) => ({
  MQTT_CLIENT_ID: `hz-${run.clientId.slice(-8)}`,
  MQTT_SHARE_GROUP: shared ? `g${run.clientId.slice(-8)}` : '',
});

/** Ends the broker sessions a test's instances left, and their registry rows. */
export async function cleanUpRun(database: { db: Db }, brokerUrl: string, run: ReturnType<typeof uniqueRun>) {
  const base = mqttEnv(run, false).MQTT_CLIENT_ID;
  const ids = ['', '-1', '-2', '-3'].map((suffix) => `${base}${suffix}`);
  await purgeSessions(brokerUrl, [...ids, `${run.clientId}-ns`]);
  await database.db.execute(sql`delete from mqtt_sessions where client_id like ${`${base}%`}`);
}

/** What a fault test of one broker target works with; `open` is closed in reverse after each test. */
export interface FaultRig {
  database: Database;
  brokerUrl: string;
  open: { close(): Promise<unknown> }[];
}

/**
 * Registers the hooks of a fault test (decision 0034) in the calling `describe`: a test database,
 * the broker at `url` or an embedded one, and closing what a test put in `open` after it.
 */
export function useFaultRig(url: string | undefined): FaultRig {
  const rig = { open: [] } as unknown as FaultRig;
  let broker: EmbeddedBroker | undefined;
  beforeAll(async () => {
    rig.database = await createTestDatabase();
    absorbPoolShutdownError(rig.database);
    broker = url ? undefined : await startEmbeddedBroker({ port: 0 });
    rig.brokerUrl = url ?? (broker as EmbeddedBroker).url;
  });
  afterEach(async () => {
    for (const o of rig.open.splice(0).reverse()) await closeWithin('a fault test’s part', () => o.close());
  });
  afterAll(async () => {
    if (broker) await closeWithin('the embedded broker', () => (broker as EmbeddedBroker).close());
    await closeWithin('the test database', () => rig.database.close(), 30_000);
  });
  return rig;
}
