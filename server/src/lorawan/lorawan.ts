/**
 * Composition of the network-server path (ARCHITECTURE.md §2, issue 6): the embedded broker
 * when no MQTT_URL is configured, the dialect chosen by LORAWAN_NS, the ingest with its
 * database store, the MQTT adapter, and the downlink queue (the scheduler's `SetpointSink`). `main.ts` starts it after
 * the database is migrated and closes it on shutdown.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { chirpstackFormat } from './chirpstack.ts';
import { DownlinkQueue } from './downlink-queue.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import { type IngestMetrics, UplinkIngest } from './ingest.ts';
import { type AdapterLogger, startLorawanAdapter } from './mqtt-adapter.ts';
import type { NetworkServerFormat } from './network-server.ts';
import { telemetryStore } from './telemetry.repository.ts';
import { ttsFormat } from './tts.ts';

export interface Lorawan {
  /** mqtt:// URL the adapter uses (the embedded broker's when MQTT_URL is unset). */
  brokerUrl: string;
  setpointSink: DownlinkQueue;
  metrics: IngestMetrics;
  close(): Promise<void>;
}

/** The dialect selected by configuration. */
export function networkServerFormat(lorawan: Config['lorawan']): NetworkServerFormat {
  return lorawan.networkServer === 'tts'
    ? ttsFormat({ appId: lorawan.ttsAppId, tenant: lorawan.ttsTenant })
    : chirpstackFormat({ applicationId: lorawan.chirpstackApplicationId });
}

/**
 * Starts the broker (if embedded) and the adapter. Does not wait for the broker connection: an
 * external broker that is down must not keep the API from starting; mqtt.js keeps retrying.
 */
export async function startLorawan(options: {
  config: Config;
  db: Db;
  log: AdapterLogger;
}): Promise<Lorawan> {
  const { config, db, log } = options;
  const broker: EmbeddedBroker | undefined = config.mqttUrl ? undefined : await startEmbeddedBroker();
  const brokerUrl = config.mqttUrl ?? (broker as EmbeddedBroker).url;
  if (broker) log.info({ url: brokerUrl }, 'embedded MQTT broker started');
  const format = networkServerFormat(config.lorawan);
  const ingest = new UplinkIngest({ format, store: telemetryStore(db), log });
  const adapter = startLorawanAdapter({
    url: brokerUrl,
    format,
    ingest,
    log,
    clientId: config.lorawan.clientId,
    username: config.lorawan.username,
    password: config.lorawan.password,
    onConnect: () =>
      void queue.publishPending().catch((err) => log.error({ err }, 'publishing pending downlinks failed')),
  });
  const queue = new DownlinkQueue({
    db,
    log,
    publish: (request) => adapter.publish(format.downlink(request)),
  });
  void queue
    .recoverUnrecorded()
    .then((n) => n > 0 && log.info({ commands: n }, 'queued setpoints that were never recorded as downlinks'))
    .catch((err) => log.error({ err }, 'recovering unrecorded setpoints failed'));
  return {
    brokerUrl,
    setpointSink: queue,
    metrics: ingest.metrics,
    close: async () => {
      queue.close();
      await adapter.close();
      await broker?.close();
    },
  };
}
