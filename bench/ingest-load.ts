/**
 * Load side of `bench/ingest.bench.ts`, run as a child process so the broker and the publishing
 * "network server" do not share a core with the ingest being measured — as in production, where
 * ChirpStack and Mosquitto are other processes. Not a bench file itself (no `.bench.ts`).
 *
 * IPC protocol (parent → child): `{ cmd: 'start', url?, devEuis, frames, window }` starts the
 * embedded aedes broker unless `url` is given and builds `frames` ChirpStack uplinks in the
 * MClimate Vicki byte layout, round-robin over `devEuis` (fCnt grows per round, so every frame is
 * a distinct telemetry row) → `{ cmd: 'ready', url, broker }`. `{ cmd: 'publish', prefix }`
 * publishes them all with QoS 1 under topic prefix `prefix`, never more than `window` ahead of
 * the count the parent reports in `{ cmd: 'acknowledged', n }` (Mosquitto drops QoS 1 messages beyond
 * `max_queued_messages` per subscriber) → `{ cmd: 'published', ms }` once the broker has
 * acknowledged every one, with the CPU time this process spent meanwhile. `{ cmd: 'close' }` ends the process.
 */
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { chirpstackUplinkEvent } from '../server/src/lorawan/chirpstack.ts';
import { getCodec } from '../server/src/lorawan/codecs/registry.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../server/src/lorawan/embedded-broker.ts';
import type { MqttMessage } from '../server/src/lorawan/network-server.ts';

export type LoadRequest =
  | { cmd: 'start'; url?: string; devEuis: string[]; frames: number; window: number }
  | { cmd: 'publish'; prefix: string }
  | { cmd: 'acknowledged'; n: number }
  | { cmd: 'close' };

export type LoadReply =
  | { cmd: 'ready'; url: string; broker: 'embedded aedes' | 'external' }
  | { cmd: 'published'; ms: number; cpuMs: number };

/** `frames` uplinks, one per device per round, one minute apart per device. */
function benchFrames(devEuis: string[], frames: number): MqttMessage[] {
  const vicki = getCodec('mclimate-vicki');
  return Array.from({ length: frames }, (_, n) => {
    const round = Math.floor(n / devEuis.length);
    const { bytes, fPort } = vicki.encodeUplink({
      roomTemperature: 18 + (n % 50) / 10,
      setpoint: 21,
      valveOpening: n % 100,
      battery: { value: 3.3, unit: 'V' },
      errors: [],
    });
    return chirpstackUplinkEvent({
      applicationId: 'bench',
      devEui: devEuis[n % devEuis.length] as string,
      fCnt: round + 1,
      fPort,
      bytes,
      time: new Date(Date.UTC(2026, 0, 1) + round * 60_000),
      gatewayId: 'b827ebfffe6c2a11',
      rssi: -90,
      snr: 7,
      deduplicationId: randomUUID(),
    });
  });
}

const send = (reply: LoadReply) => process.send?.(reply);

let broker: EmbeddedBroker | undefined;
let publisher: MqttClient | undefined;
let messages: MqttMessage[] = [];
let window = Number.MAX_SAFE_INTEGER;
let acknowledged = 0;
let credit: (() => void) | undefined;

async function publish(prefix: string) {
  acknowledged = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const acked: Promise<unknown>[] = [];
  for (let i = 0; i < messages.length; i++) {
    while (i - acknowledged >= window) await new Promise<void>((resolve) => (credit = resolve));
    const m = messages[i] as MqttMessage;
    acked.push((publisher as MqttClient).publishAsync(`${prefix}${m.topic}`, m.payload, { qos: 1 }));
    // Let socket writes and PUBACKs through now and then instead of queueing everything first.
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(acked);
  const { user, system } = process.cpuUsage(cpu);
  send({ cmd: 'published', ms: performance.now() - started, cpuMs: (user + system) / 1000 });
}

process.on('message', (request: LoadRequest) => {
  switch (request.cmd) {
    case 'start':
      void (async () => {
        broker = request.url ? undefined : await startEmbeddedBroker({ port: 0 });
        const url = request.url ?? (broker as EmbeddedBroker).url;
        publisher = await mqtt.connectAsync(url, {
          protocolVersion: 4,
          clientId: `heizplan-bench-load-${randomUUID().slice(0, 8)}`,
        });
        messages = benchFrames(request.devEuis, request.frames);
        window = request.window;
        send({ cmd: 'ready', url, broker: broker ? 'embedded aedes' : 'external' });
      })();
      break;
    case 'publish':
      void publish(request.prefix);
      break;
    case 'acknowledged':
      acknowledged = request.n;
      credit?.();
      credit = undefined;
      break;
    case 'close':
      void (async () => {
        await publisher?.endAsync();
        await broker?.close();
        process.disconnect();
      })();
      break;
  }
});
