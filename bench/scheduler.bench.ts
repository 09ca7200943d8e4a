/**
 * Setpoint delivery for 100 000 units, end to end on PostgreSQL and a real MQTT broker: the
 * scheduler's tick resolves every unit's plan, writes the heating log and the units, and hands
 * the commands to the downlink queue, which records them and publishes one confirmed downlink per
 * valve; a subscriber in the network server's place counts every valve's downlink. Two figures,
 * each against a baseline measured in the same run:
 * - delivery: time until the last valve's downlink reached the subscriber, against a bare loop
 *   that publishes 100 000 downlink-sized messages with QoS 1 on the same broker to the same
 *   subscriber (target ≤ 8 ×);
 * - tick: the scheduler's tick alone, against one statement that locks every due unit and one
 *   that updates them all — the least any tick must do (target ≤ 10 ×); the median of
 *   BENCH_TICK_RUNS (default 3) runs of each, the units made due again at 17 °C between runs.
 *
 * Run: `npx tsx bench/scheduler.bench.ts` with PostgreSQL at BENCH_DATABASE_URL (default
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test); a throw-away database is
 * created and dropped. The broker is a private Mosquitto set up as the README asks of
 * production when `mosquitto` is installed, else the embedded broker. BENCH_UNITS overrides
 * the unit count; BENCH_BATCH (default 5000) and BENCH_CONCURRENCY (default 2) the scheduler's
 * batch size and transactions at once. Seeds one company, 100 groups with a week plan each (2
 * switch points a day), units with one MClimate Vicki each, all due at the tick instant.
 * Without PostgreSQL it prints that it skipped.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { companies, groups, heatingPlans } from '../server/src/db/schema.ts';
import { databaseDeviceDirectory } from '../server/src/heating/device-directory.ts';
import { HeatingScheduler } from '../server/src/heating/scheduler.ts';
import { chirpstackFormat } from '../server/src/lorawan/chirpstack.ts';
import { DownlinkQueue } from '../server/src/lorawan/downlink-queue.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../server/src/lorawan/embedded-broker.ts';
import { UplinkIngest } from '../server/src/lorawan/ingest.ts';
import { startLorawanAdapter } from '../server/src/lorawan/mqtt-adapter.ts';
import { telemetryStore } from '../server/src/lorawan/telemetry.repository.ts';
import { mosquittoAvailable, type PrivateMosquitto, startPrivateMosquitto } from '../server/test/faults.ts';
import { createBenchDatabase } from './bench-database.ts';
import { median } from './median.ts';

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const GROUPS = 100;
const BATCH = Number(process.env.BENCH_BATCH ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
/** Delivery at most this many times the bare publish loop of the same run. */
const TARGET_DELIVERY_RATIO = 8;
/** The tick at most this many times the lock-and-update baseline of the same run. */
const TARGET_TICK_RATIO = 10;
/** Runs of the tick and of its baseline; the ratio is of their medians. */
const TICK_RUNS = Number(process.env.BENCH_TICK_RUNS ?? 3);
/** Monday 23 Nov 2026 06:00 Europe/Berlin: a switch point for every group. */
const TICK_AT = new Date('2026-11-23T05:00:00Z');
const APPLICATION_ID = 'bench';
const quiet = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };

/** A subscriber in the network server's place: resolves `all` once `n` distinct ids arrived. */
async function subscriber(url: string, topic: string, n: number) {
  const client = await mqtt.connectAsync(url, { protocolVersion: 4, clean: true });
  const seen = new Set<string>();
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  client.on('message', (_topic, payload) => {
    seen.add(JSON.parse(payload.toString()).id);
    if (seen.size === n) done();
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return { all, seen, close: () => client.endAsync(true) };
}

async function main() {
  const bench = await createBenchDatabase('scheduler');
  if (!bench) return;
  const { database } = bench;
  let mosquitto: PrivateMosquitto | undefined;
  let embedded: EmbeddedBroker | undefined;
  try {
    if (mosquittoAvailable) mosquitto = await startPrivateMosquitto();
    else embedded = await startEmbeddedBroker({ port: 0 });
    const brokerUrl = mosquitto?.url ?? (embedded as EmbeddedBroker).url;
    const db = database.db;
    const [company] = await db.insert(companies).values({ name: 'Bench' }).returning({ id: companies.id });
    if (!company) throw new Error('no company');
    const groupRows = await db
      .insert(groups)
      .values(Array.from({ length: GROUPS }, (_, i) => ({ companyId: company.id, name: `G${i}` })))
      .returning({ id: groups.id });
    const switchPoints = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
      { day, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false },
      { day, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
    ]);
    await db.insert(heatingPlans).values(
      groupRows.map((g) => ({
        companyId: company.id,
        groupId: g.id,
        kind: 'seasonal' as const,
        validFrom: '10-01',
        validTo: '04-30',
        switchPoints,
      })),
    );
    const groupIds = groupRows.map((g) => g.id);
    await db.execute(sql`
      insert into units (company_id, name, group_id, setpoint, setpoint_source, next_change_at)
      select ${company.id}::uuid, 'Raum ' || i, (${`{${groupIds.join(',')}}`}::uuid[])[1 + i % ${GROUPS}], 17, 'group_plan', ${TICK_AT.toISOString()}::timestamptz
      from generate_series(1, ${UNITS}) as i`);
    await db.execute(sql`
      insert into devices (id, company_id, dev_eui, model, unit_id)
      select lpad(to_hex(row_number() over ()), 16, '0'), ${company.id}::uuid, lpad(to_hex(row_number() over ()), 16, '0'), 'mclimate-vicki', id
      from units`);
    // The seed is vacuumed and its writes flushed now, not by autovacuum or a checkpoint in the
    // middle of a measurement.
    await db.execute(sql`vacuum analyze`);
    await db.execute(sql`checkpoint`).catch(() => {});

    // Baseline of the tick: find every due unit and write every one of them.
    const lockAndUpdate = async () => {
      const b0 = performance.now();
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`select id from units where next_change_at <= ${TICK_AT.toISOString()}::timestamptz for update`,
        );
        await tx.execute(
          sql`update units set setpoint = setpoint where next_change_at <= ${TICK_AT.toISOString()}::timestamptz`,
        );
      });
      const ms = performance.now() - b0;
      // The baseline left a dead version of every unit: autovacuum would take it during the tick.
      await db.execute(sql`vacuum units`);
      return ms;
    };
    const baselines = [await lockAndUpdate()];

    // Baseline of delivery: a bare loop publishing as many downlink-sized messages, QoS 1, with
    // as many PUBACKs awaited at once as the queue does, to the same kind of subscriber.
    const format = chirpstackFormat({ applicationId: APPLICATION_ID });
    const downTopic = `application/${APPLICATION_ID}/device/+/command/down`;
    const bare = await subscriber(brokerUrl, `bare/${downTopic}`, UNITS);
    const publisher = await mqtt.connectAsync(brokerUrl, { protocolVersion: 4, clean: true });
    const p0 = performance.now();
    for (let i = 0; i < UNITS; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, UNITS - i) }, (_, k) => {
          const devEui = (i + k + 1).toString(16).padStart(16, '0');
          const message = format.downlink({
            id: `${i + k}`,
            devEui,
            fPort: 1,
            bytes: new Uint8Array([0x51, 0x00, 0xd2]),
            confirmed: true,
          });
          return publisher.publishAsync(`bare/${message.topic}`, message.payload, { qos: 1 });
        }),
      );
    }
    await bare.all;
    const bareMs = performance.now() - p0;
    await publisher.endAsync();
    await bare.close();

    const delivered = await subscriber(brokerUrl, downTopic, UNITS);
    const ingest = new UplinkIngest({ format, store: telemetryStore(db), log: quiet });
    const adapter = startLorawanAdapter({
      url: brokerUrl,
      format,
      ingest,
      log: quiet,
      clean: true,
      filters: [],
    });
    await adapter.ready;
    const queue = new DownlinkQueue({
      db,
      log: quiet,
      publish: (r) => adapter.publish(format.downlink(r), 20_000),
    });
    const scheduler = new HeatingScheduler({
      db,
      sink: queue,
      devices: databaseDeviceDirectory(db),
      logger: quiet,
      now: () => TICK_AT,
      batchSize: BATCH,
      concurrency: CONCURRENCY,
    });
    const t0 = performance.now();
    const result = await scheduler.tick();
    const ticks = [performance.now() - t0];
    await delivered.all;
    const deliveryMs = performance.now() - t0;
    if (result.changes !== UNITS || delivered.seen.size !== UNITS) {
      throw new Error(
        `expected ${UNITS} changes and downlinks, got ${result.changes} / ${delivered.seen.size}`,
      );
    }
    await queue.idle();
    const q0 = performance.now();
    const idleTick = await scheduler.tick();
    const quietMs = performance.now() - q0;
    // The tick and its baseline again on the same units, due once more at 17 °C: one run of each
    // is at the mercy of whatever else the machine does for a second; the medians are not.
    for (let run = 1; run < TICK_RUNS; run++) {
      await db.execute(
        sql`update units set setpoint = 17, setpoint_source = 'group_plan', next_change_at = ${TICK_AT.toISOString()}::timestamptz`,
      );
      await db.execute(sql`vacuum units`);
      baselines.push(await lockAndUpdate());
      const r0 = performance.now();
      const again = await scheduler.tick();
      ticks.push(performance.now() - r0);
      if (again.changes !== UNITS)
        throw new Error(`run ${run + 1}: expected ${UNITS} changes, got ${again.changes}`);
      await queue.idle();
    }
    const tickMs = median(ticks);
    const tickBaselineMs = median(baselines);
    queue.close();
    await adapter.disconnect();
    await delivered.close();

    const broker = mosquitto ? 'Mosquitto (persistence on, unlimited queues)' : 'the embedded broker';
    console.log(
      `scheduler: ${UNITS.toLocaleString('en')} due units on PostgreSQL and ${broker} (batches of ${BATCH}, ${CONCURRENCY} at a time)`,
    );
    const deliveryRatio = deliveryMs / bareMs;
    console.log(
      `  delivery (tick → log → queue → broker → every valve's downlink at the subscriber): ${Math.round(deliveryMs)} ms`,
    );
    console.log(
      `  baseline (bare loop publishing ${UNITS.toLocaleString('en')} messages, QoS 1): ${Math.round(bareMs)} ms`,
    );
    console.log(
      `  delivery ratio: ${deliveryRatio.toFixed(1)}× (target ≤ ${TARGET_DELIVERY_RATIO}×: ${deliveryRatio <= TARGET_DELIVERY_RATIO ? 'met' : 'MISSED'}); all ${delivered.seen.size.toLocaleString('en')} valves reached`,
    );
    const tickRatio = tickMs / tickBaselineMs;
    const runs = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
    console.log(
      `  tick (resolve, log, update, hand to the queue): ${Math.round(tickMs)} ms (median of ${runs(ticks)})`,
    );
    console.log(
      `  baseline (lock + update every due unit): ${Math.round(tickBaselineMs)} ms (median of ${runs(baselines)})`,
    );
    console.log(
      `  tick ratio: ${tickRatio.toFixed(1)}× (target ≤ ${TARGET_TICK_RATIO}×: ${tickRatio <= TARGET_TICK_RATIO ? 'met' : 'MISSED'})`,
    );
    console.log(`  quiet tick (nothing due): ${Math.round(quietMs)} ms (${idleTick.evaluated} evaluated)`);
    console.log(
      `  load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
  } finally {
    await mosquitto?.close();
    await embedded?.close();
    await bench.drop();
  }
}

await main();
