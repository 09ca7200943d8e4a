/**
 * Composition of the network-server path (docs/architecture.md): the embedded broker
 * when no MQTT_URL is configured, the dialect chosen by LORAWAN_NS, the ingest with its
 * database store, the leased MQTT sessions uplinks arrive through (docs/decisions/0032), a
 * publish-only client, and the downlink queue (the scheduler's `SetpointSink`). `main.ts` starts
 * it after the database is migrated and closes it on shutdown.
 */

import type { DownlinkHealth } from '@heizplan/contracts/health';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { JobDefinition } from '../jobs/registry.ts';
import { downlinkOldestUnsent } from '../metrics.ts';
import { chirpstackFormat } from './chirpstack.ts';
import { BrokerUnavailableError, DownlinkQueue } from './downlink-queue.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { type IngestMetrics, type IngestOptions, UplinkIngest } from './ingest.ts';
import { type AdapterLogger, startLorawanAdapter } from './mqtt-adapter.ts';
import { MqttSessions } from './mqtt-sessions.ts';
import type { NetworkServerFormat } from './network-server.ts';
import { telemetryStore } from './telemetry.repository.ts';
import { ttsFormat } from './tts.ts';

export interface Lorawan {
  /** mqtt:// URL the adapter uses (the embedded broker's when MQTT_URL is unset). */
  brokerUrl: string;
  setpointSink: DownlinkQueue;
  metrics: IngestMetrics;
  sessions: MqttSessions;
  /** Whether the broker is reachable from this instance (its publishing connection is up). */
  readonly brokerConnected: boolean;
  /** Whether setpoints flow to the broker, as last checked (every 10 s); `undefined` before the first check. */
  readonly downlinkHealth: DownlinkHealth | undefined;
  /**
   * The side's periodic work, for the job registry (jobs/registry.ts): resending what another
   * instance left behind, the full reconcile of every valve, the downlink health check.
   */
  jobs: JobDefinition[];
  close(): Promise<void>;
}

/** Timings and topic prefix tests shorten; production uses the defaults. */
export interface LorawanTuning {
  topicPrefix?: string;
  reconnectPeriodMs?: number;
  leaseMs?: number;
  roundMs?: number;
  idleMs?: number;
  /** Period of recovering and publishing downlinks another instance left behind (ms); default 30 000. */
  resendMs?: number;
  /** Period of comparing every device with its unit's setpoint (ms); default 300 000. */
  reconcileMs?: number;
  /** A downlink publish without PUBACK after this long is given up and retried (ms); default 20 000. */
  publishTimeoutMs?: number;
}

/** The dialect selected by configuration. */
export function networkServerFormat(lorawan: Config['lorawan']): NetworkServerFormat {
  return lorawan.networkServer === 'tts'
    ? ttsFormat({ appId: lorawan.ttsAppId, tenant: lorawan.ttsTenant })
    : chirpstackFormat({ applicationId: lorawan.chirpstackApplicationId });
}

/**
 * Starts the broker (if embedded), the publishing client and the sessions. Does not wait for the
 * broker connection: an external broker that is down must not keep the API from starting;
 * mqtt.js keeps retrying. @throws when the database cannot be reached for the session registry.
 */
export async function startLorawan(options: {
  config: Config;
  db: Db;
  log: AdapterLogger;
  /** Told of every committed batch of uplinks (alerts); see `IngestOptions.onCommitted`. */
  onUplinks?: IngestOptions['onCommitted'];
  tuning?: LorawanTuning;
}): Promise<Lorawan> {
  const { config, db, log, tuning = {} } = options;
  const broker: EmbeddedBroker | undefined = config.mqttUrl ? undefined : await startEmbeddedBroker();
  const brokerUrl = config.mqttUrl ?? (broker as EmbeddedBroker).url;
  if (broker) log.info({ url: brokerUrl }, 'embedded MQTT broker started');
  const format = networkServerFormat(config.lorawan);
  const ingest = new UplinkIngest({ format, store: telemetryStore(db), log, onCommitted: options.onUplinks });
  const { username, password } = config.lorawan;
  // Downlinks go out on a connection of their own (no session, random client id): an instance
  // standing by for the plain session still sends the setpoints its scheduler decides.
  const publisher = startLorawanAdapter({
    url: brokerUrl,
    format,
    ingest,
    log,
    username,
    password,
    clean: true,
    filters: [],
    topicPrefix: tuning.topicPrefix,
    reconnectPeriodMs: tuning.reconnectPeriodMs,
    onConnect: () => resend('publishing pending downlinks failed'),
  });
  const publishTimeoutMs = tuning.publishTimeoutMs ?? 20_000;
  const queue = new DownlinkQueue({
    db,
    log,
    leaseMs: 3 * publishTimeoutMs,
    airtimeBudgetMs: config.lorawan.airtimeBudgetMs,
    // Offline, mqtt.js would keep the message until the broker is back while the row's lease
    // runs out; failing at once leaves the row to publishPending on the next connect.
    publish: (request) =>
      publisher.connected
        ? publisher.publish(format.downlink(request), publishTimeoutMs)
        : Promise.reject(new BrokerUnavailableError()),
  });
  const resend = (failure: string) => void queue.publishPending().catch((err) => log.error({ err }, failure));
  let downlinkHealth: DownlinkHealth | undefined;
  const checkDownlinks = async () => {
    const health = await queue.health();
    if (health.state === 'stalled' && downlinkHealth?.state !== 'stalled') {
      log.error({ ...health }, 'setpoints are not being sent: the oldest has waited too long');
    }
    downlinkHealth = health;
    downlinkOldestUnsent.set(health.oldestUnsentSeconds ?? 0);
  };
  const reconcile = async (withinMs?: number) => {
    const queued = await queue.reconcile(withinMs);
    if (queued > 0) log.info({ commands: queued }, 'queued setpoints that valves had not been sent');
  };
  const sessions = new MqttSessions({
    db,
    url: brokerUrl,
    format,
    ingest,
    log,
    clientId: config.lorawan.clientId,
    shareGroup: config.lorawan.shareGroup,
    takeOver: broker !== undefined,
    username,
    password,
    topicPrefix: tuning.topicPrefix,
    reconnectPeriodMs: tuning.reconnectPeriodMs,
    leaseMs: tuning.leaseMs,
    roundMs: tuning.roundMs,
    idleMs: tuning.idleMs,
  });
  await sessions.start();
  // What another instance took and then died with: commands it never recorded (units changed
  // within the last 15 minutes; every device at start and every `reconcileMs`) and rows whose
  // publish lease ran out.
  const jobs: JobDefinition[] = [
    {
      name: 'downlink resend',
      periodMs: tuning.resendMs ?? 30_000,
      lock: 'skip locked rows',
      claims:
        'setpoints of units changed in the last 15 minutes that no valve got, and downlinks whose publish lease ran out',
      runAtStart: false,
      run: async () => {
        await reconcile(15 * 60_000);
        if (publisher.connected) await queue.publishPending();
      },
    },
    {
      name: 'downlink reconcile',
      periodMs: tuning.reconcileMs ?? 300_000,
      lock: 'skip locked rows',
      claims: 'every valve whose last setpoint differs from its unit’s, or that failed',
      run: () => reconcile(),
    },
    {
      name: 'downlink health',
      periodMs: 10_000,
      lock: 'this instance',
      claims: 'the age of the oldest unsent setpoint, for readiness and /metrics',
      run: checkDownlinks,
    },
  ];
  return {
    jobs,
    brokerUrl,
    setpointSink: queue,
    metrics: ingest.metrics,
    sessions,
    get brokerConnected() {
      return publisher.connected;
    },
    get downlinkHealth() {
      return downlinkHealth;
    },
    close: async () => {
      queue.close();
      await sessions.close();
      await publisher.disconnect();
      await broker?.close();
    },
  };
}
