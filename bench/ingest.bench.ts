/**
 * End-to-end uplink ingest (≥ 20 000 uplinks/s on this 2-core
 * machine, zero loss): ChirpStack uplinks published with QoS 1 → broker → Heizplan's MQTT adapter
 * → parse, decode → PostgreSQL commit → PUBACK, next to a bare mqtt.js subscribe-and-discard
 * baseline (QoS 1, persistent session, same broker, same frames) measured in the same run. The
 * two alternate in BENCH_ROUNDS rounds (default 3: baseline, ingest, baseline, ingest, …) and
 * the figures are the medians of the rounds, because other work on the machine moves both (the
 * baseline alone swung from 13k to 26k/s within one run). Zero loss is checked every round by
 * counting telemetry rows against frames sent (the table is emptied between rounds, so every
 * round inserts as many new rows).
 *
 * Run: `npm run bench -- ingest.bench.ts` (or `npx tsx bench/ingest.bench.ts`).
 * - PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 *   a throw-away database is created next to it and dropped. Without PostgreSQL it says it skipped.
 * - Broker: BENCH_MQTT_URL, else TEST_MQTT_URL (e.g. Mosquitto), else an embedded aedes broker.
 *   Broker and publisher run in a child process (`ingest-load.ts`), the ingest in this one.
 * - The publisher stays at most BENCH_INGEST_WINDOW messages ahead of what the subscriber has
 *   acknowledged (Heizplan: committed), so the figure is a sustained rate, not the cost of a
 *   broker-side backlog: aedes' in-memory session store handles each PUBACK in time linear in
 *   the backlog, and Mosquitto (defaults max_inflight_messages 20, max_queued_messages 1000)
 *   drops QoS 1 messages beyond its queue. Default window 5000 on aedes, 500 on an external broker.
 * - BENCH_INGEST_FRAMES (default 60 000) frames over BENCH_INGEST_DEVICES (default 1000) valves.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { chirpstackFormat } from '../server/src/lorawan/chirpstack.ts';
import { type IngestStore, UplinkIngest } from '../server/src/lorawan/ingest.ts';
import { startLorawanAdapter } from '../server/src/lorawan/mqtt-adapter.ts';
import { telemetryStore } from '../server/src/lorawan/telemetry.repository.ts';
import { createBenchDatabase } from './bench-database.ts';
import type { LoadReply, LoadRequest } from './ingest-load.ts';
import { median } from './median.ts';

const FRAMES = Number(process.env.BENCH_INGEST_FRAMES ?? 60_000);
const DEVICES = Number(process.env.BENCH_INGEST_DEVICES ?? 1000);
const TARGET_PER_S = 20_000;
/** The ingest at least this share of the bare subscriber's rate on the same broker. */
const TARGET_RATIO = 0.8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const externalBroker = process.env.BENCH_MQTT_URL ?? process.env.TEST_MQTT_URL;
const WINDOW = Number(process.env.BENCH_INGEST_WINDOW ?? (externalBroker ? 500 : 5000));
const run = randomUUID().slice(0, 8);

/** The load process and a typed way to wait for its replies (kept until asked for). */
function startLoad() {
  const child = fork(new URL('./ingest-load.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: LoadReply[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: LoadReply) => {
    replies.push(message);
    wake?.();
  });
  const request = (r: LoadRequest) => child.send(r);
  const reply = async <C extends LoadReply['cmd']>(cmd: C) => {
    for (;;) {
      const index = replies.findIndex((m) => m.cmd === cmd);
      if (index >= 0) return replies.splice(index, 1)[0] as Extract<LoadReply, { cmd: C }>;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return { child, request, reply };
}

/**
 * Publishes every frame under `prefix` and waits until `acknowledged()` reaches FRAMES, or it
 * did not move for 5 s (a broker that dropped messages never delivers them; rows show the loss).
 * @returns ms from the first publish to the last acknowledgement.
 */
async function stream(load: ReturnType<typeof startLoad>, prefix: string, acknowledged: () => number) {
  const started = performance.now();
  load.request({ cmd: 'publish', prefix });
  let last = -1;
  let lastAt = started;
  while (acknowledged() < FRAMES && performance.now() - lastAt < 5000) {
    const n = acknowledged();
    if (n !== last) {
      last = n;
      lastAt = performance.now();
      load.request({ cmd: 'acknowledged', n });
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const ms = (acknowledged() >= FRAMES ? performance.now() : lastAt) - started;
  // After a stall the publisher may still wait for credit: release it so it can finish.
  load.request({ cmd: 'acknowledged', n: FRAMES });
  return ms;
}

/** Bare mqtt.js QoS 1 subscriber on a persistent session that counts and discards. */
async function baseline(load: ReturnType<typeof startLoad>, url: string, tag: string) {
  const clientId = `heizplan-bench-${run}-${tag}`;
  const client = await mqtt.connectAsync(url, { protocolVersion: 4, clean: false, clientId });
  await client.subscribeAsync(`bench-${run}/${tag}/#`, { qos: 1 });
  let seen = 0;
  client.on('message', () => {
    seen++;
  });
  const ms = await stream(load, `bench-${run}/${tag}/`, () => seen);
  await load.reply('published');
  await client.endAsync();
  await (await mqtt.connectAsync(url, { protocolVersion: 4, clean: true, clientId })).endAsync();
  return { ms, received: seen };
}

async function main() {
  const bench = await createBenchDatabase('ingest');
  if (!bench) return;
  const { database } = bench;
  let load: ReturnType<typeof startLoad> | undefined;
  try {
    const { db } = database;
    await db.execute(sql`insert into companies (id, name) values (gen_random_uuid(), 'Bench')`);
    await db.execute(sql`
      insert into units (company_id, name) select id, 'Raum ' || i from companies, generate_series(1, ${DEVICES}) i`);
    await db.execute(sql`
      insert into devices (id, company_id, dev_eui, model, unit_id)
      select lpad(to_hex(n), 16, '0'), company_id, lpad(to_hex(n), 16, '0'), 'mclimate-vicki', id
      from (select row_number() over () as n, id, company_id from units) u`);
    await db.execute(sql`analyze`);
    const devEuis = Array.from({ length: DEVICES }, (_, i) => (i + 1).toString(16).padStart(16, '0'));

    load = startLoad();
    load.request({ cmd: 'start', url: externalBroker, devEuis, frames: FRAMES, window: WINDOW });
    const { url, broker } = await load.reply('ready');
    const loadBefore = loadavg();

    const format = chirpstackFormat({ applicationId: 'bench' });
    const store = telemetryStore(db);
    const commits = { count: 0, ms: 0, uplinks: 0 };
    const timed: IngestStore = {
      ...store,
      commit: async (batch) => {
        const t = performance.now();
        const result = await store.commit(batch);
        commits.count++;
        commits.ms += performance.now() - t;
        // Acknowledged right after this returns: the publisher's window moves on.
        commits.uplinks += batch.uplinks.length;
        return result;
      },
    };
    const log = {
      info() {},
      warn: (o: object, m: string) => console.warn(m, o),
      error: (o: object, m: string) => console.error(m, o),
    };
    const ingest = new UplinkIngest({ format, store: timed, log });
    const clientId = `heizplan-bench-${run}-ingest`;
    const adapter = startLorawanAdapter({
      url,
      format,
      ingest,
      log,
      clientId,
      topicPrefix: `bench-${run}/hp/`,
    });
    await adapter.ready;

    // Messages a broker dropped never arrive: count what did arrive (or was committed).
    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
    const rounds: {
      baseline: number;
      ingest: number;
      lost: number;
      cpuMs: number;
      loadCpuMs: number;
      ms: number;
    }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const base = await baseline(load, url, `base${round}`);
      await db.execute(sql`truncate telemetry`);
      const from = commits.uplinks;
      const cpu = process.cpuUsage();
      const ingestMs = await stream(load, `bench-${run}/hp/`, () => commits.uplinks - from);
      await ingest.drain();
      const ingestCpu = process.cpuUsage(cpu);
      const loadCpuMs = (await load.reply('published')).cpuMs;
      const counted = await db.execute(sql`select count(*)::int as n from telemetry`);
      const rows = (counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      rounds.push({
        baseline: rate(base.received, base.ms),
        ingest: rate(commits.uplinks - from, ingestMs),
        lost: FRAMES - rows,
        cpuMs: (ingestCpu.user + ingestCpu.system) / 1000,
        loadCpuMs,
        ms: ingestMs,
      });
    }
    await adapter.close();
    await (await mqtt.connectAsync(url, { protocolVersion: 4, clean: true, clientId })).endAsync();
    const loadAfter = loadavg();

    const baselineRate = Math.round(median(rounds.map((r) => r.baseline)));
    const ingestRate = Math.round(median(rounds.map((r) => r.ingest)));
    const ratio = median(rounds.map((r) => r.ingest / r.baseline));
    const lost = Math.max(...rounds.map((r) => r.lost));
    const ingestMs = median(rounds.map((r) => r.ms));
    const ingestCpuMs = median(rounds.map((r) => r.cpuMs));
    const loadCpuMs = median(rounds.map((r) => r.loadCpuMs));
    const fmt = (n: number) => n.toLocaleString('en');
    const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
    console.log(
      `ingest: ${fmt(FRAMES)} ChirpStack uplinks from ${fmt(DEVICES)} valves, QoS 1, broker: ${broker}` +
        `${externalBroker ? ` (${externalBroker})` : ' (own process)'}, publisher window ${fmt(WINDOW)}, PostgreSQL`,
    );
    const list = (key: 'baseline' | 'ingest') => rounds.map((r) => fmt(r[key])).join(' / ');
    console.log(
      `  Heizplan (broker → parse/decode → commit → PUBACK): ${fmt(ingestRate)} uplinks/s median  (rounds ${list('ingest')})`,
    );
    console.log(
      `  baseline (bare mqtt.js subscribe-and-discard):     ${fmt(baselineRate)} uplinks/s median  (rounds ${list('baseline')})`,
    );
    console.log(
      `  ratio to baseline: ${ratio.toFixed(2)} median of ${ROUNDS} interleaved rounds ` +
        `(${rounds.map((r) => (r.ingest / r.baseline).toFixed(2)).join(' / ')}; target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'})`,
    );
    console.log(
      `  ${fmt(FRAMES)} frames a round: ${lost === 0 ? 'zero loss in every round' : `up to ${fmt(lost)} LOST`}; ` +
        `${commits.count} commits, mean batch ${Math.round(ingest.metrics.uplinks / Math.max(1, commits.count))}, ` +
        `${Math.round(commits.ms)} ms in commits`,
    );
    console.log(
      `  CPU during an ingest round (median): this process ${Math.round(ingestCpuMs)} ms, ` +
        `broker and publisher ${Math.round(loadCpuMs)} ms, of ${Math.round(ingestMs * cpus().length)} ms on ` +
        `${cpus().length} cores (the rest: PostgreSQL, other processes, idle)`,
    );
    console.log(
      `  target ≥ ${fmt(TARGET_PER_S)} uplinks/s with zero loss: ${ingestRate >= TARGET_PER_S && lost === 0 ? 'PASS' : 'MISS'}`,
    );
    console.log(
      `  load average (1/5/15 min) before ${avg(loadBefore)}, after ${avg(loadAfter)} on ${cpus().length} cores` +
        ' — other processes on this machine (e.g. other test runs) lower both figures',
    );
  } finally {
    if (load) {
      load.request({ cmd: 'close' });
      await once(load.child as ChildProcess, 'exit');
    }
    await bench.drop();
  }
}

await main();
