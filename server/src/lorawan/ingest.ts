/**
 * Uplink ingest without loss: every MQTT message is parsed at once, collected into a
 * batch, and the batch is committed to the database in one transaction (multi-row, idempotent
 * insert); only then are the messages' `ack`s called — for QoS 1 that is the PUBACK, so a crash
 * before the commit makes the broker redeliver. Batches commit one at a time and in arrival
 * order, so PUBACKs keep the order MQTT 3.1.1 §4.6 requires.
 *
 * Each message is parsed when it arrives, so the CPU work overlaps the running commit. A flush
 * happens when `maxBatch` messages are waiting, `lingerMs` after the first one on an idle
 * pipeline, or at once when the previous commit finishes with messages waiting: a quiet system
 * commits within milliseconds, a busy one commits whatever piled up during the last commit
 * (docs/decisions/0016). A failing commit keeps its batch (nothing acknowledged) and is retried
 * after `retryMs`.
 *
 * DevEUI → device lookups are cached for `deviceCacheMs` (also "unknown"), so a steady stream
 * costs no lookup query; the store attributes rows to the device's current unit and company at
 * commit time, so only a changed model or a new registration waits out the cache.
 *
 * Poison messages — malformed JSON, unknown DevEUI (also a device of another deployment),
 * undecodable payload — are counted in `metrics`, logged once per source per hour, and still
 * acknowledged: redelivering them forever would help nobody and block the session.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import {
  downlinkReports,
  ingestBacklog,
  ingestCommitDuration,
  ingestCommitFailures,
  uplinkMessages,
} from '../metrics.ts';
import type { Reading } from './codecs/codec.ts';
import { getCodec } from './codecs/registry.ts';
import {
  type DeviceStatusEvent,
  type DownlinkStatusEvent,
  FrameError,
  type GatewayEvent,
  type NetworkServerFormat,
  type NsEvent,
  type UplinkEvent,
} from './network-server.ts';

/** The registry's view of one device, as the ingest needs it. */
export interface DeviceRef {
  id: string;
  devEui: string;
  companyId: string;
  unitId: string | null;
  /** Codec registry model id. */
  model: string;
}

export interface DecodedUplink {
  event: UplinkEvent;
  device: DeviceRef;
  /** undefined when the payload could not be decoded (the device is still marked as seen). */
  reading?: Reading;
}

/** Everything one flush writes, in one transaction. */
export interface IngestBatch {
  uplinks: DecodedUplink[];
  statuses: { event: DeviceStatusEvent; device: DeviceRef }[];
  downlinks: DownlinkStatusEvent[];
  gateways: GatewayEvent[];
}

/** Persistence port of the ingest; `telemetry.repository.ts` implements it. */
export interface IngestStore {
  /** DevEUI (lowercase) → device; unknown DevEUIs are absent. */
  devicesByDevEui(devEuis: string[]): Promise<Map<string, DeviceRef>>;
  /**
   * Commits the batch atomically. @returns how many uplinks with a reading were stored as new
   * rows (not duplicates, not of a device deleted meanwhile).
   */
  commit(batch: IngestBatch): Promise<{ inserted: number }>;
}

export interface IngestMetrics {
  received: number;
  uplinks: number;
  inserted: number;
  duplicates: number;
  malformed: number;
  unknownDevice: number;
  undecodable: number;
  ignored: number;
  commitFailures: number;
}

export interface IngestLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface IngestOptions {
  format: NetworkServerFormat;
  store: IngestStore;
  log: IngestLogger;
  /** Most messages per commit. Default 2000. */
  maxBatch?: number;
  /** Wait for more messages after the first one on an idle pipeline. Default 20 ms. */
  lingerMs?: number;
  retryMs?: number;
  /** How long a DevEUI lookup (found or unknown) is reused. Default 10 s. */
  deviceCacheMs?: number;
  /** Problems of one kind from one source are logged at most once per this period (default 1 h). */
  logEveryMs?: number;
  /**
   * Told of each committed batch's uplinks (alerts); not awaited, so whatever it does
   * never holds back the next commit or an acknowledgement.
   */
  onCommitted?: (uplinks: DecodedUplink[]) => void;
  now?: () => number;
}

interface Pending {
  /** undefined: malformed (already counted and logged), acknowledged with its batch. */
  event: NsEvent | undefined;
  ack: () => void;
}

/**
 * The ingest pipeline. `accept` never throws; `drain` resolves when everything accepted so far is
 * committed and acknowledged.
 */
export class UplinkIngest {
  readonly metrics: IngestMetrics = {
    received: 0,
    uplinks: 0,
    inserted: 0,
    duplicates: 0,
    malformed: 0,
    unknownDevice: 0,
    undecodable: 0,
    ignored: 0,
    commitFailures: 0,
  };
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly lastLogged = new Map<string, number>();
  private readonly devices = new Map<string, { device: DeviceRef | undefined; until: number }>();
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly retryMs: number;
  private readonly logEveryMs: number;
  private readonly deviceCacheMs: number;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: IngestOptions) {
    this.maxBatch = options.maxBatch ?? 2000;
    this.lingerMs = options.lingerMs ?? 20;
    this.retryMs = options.retryMs ?? 1000;
    this.logEveryMs = options.logEveryMs ?? 3_600_000;
    this.deviceCacheMs = options.deviceCacheMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Messages accepted but not yet acknowledged. */
  get backlog() {
    return this.pending.length;
  }

  /** Queues one MQTT message; `ack` is called once it is committed (or judged poison). */
  accept(topic: string, payload: Buffer, ack: () => void) {
    this.metrics.received++;
    this.pending.push({ event: this.parse(topic, payload), ack });
    this.schedule();
  }

  /** Resolves when every message accepted so far has been committed and acknowledged. */
  async drain() {
    while (this.pending.length > 0 || this.flushing !== undefined) {
      if (this.flushing !== undefined) await this.flushing;
      else await this.flush();
    }
  }

  /** Commits what is pending, then stops scheduling. */
  async close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing !== undefined) await this.flushing;
    // One last attempt; what still fails stays unacknowledged and the broker redelivers it.
    if (this.pending.length > 0) await this.flush();
  }

  private schedule() {
    if (this.flushing || this.closed) return;
    if (this.pending.length >= this.maxBatch) void this.flush();
    else if (!this.timer && this.pending.length > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.lingerMs);
    }
  }

  private flush(): Promise<void> {
    if (this.flushing !== undefined) return this.flushing;
    clearTimeout(this.timer);
    this.timer = undefined;
    ingestBacklog.set(this.pending.length);
    const taken = this.pending.splice(0, this.maxBatch);
    if (taken.length === 0) return Promise.resolve();
    this.flushing = this.commit(taken).then(
      () => {
        for (const message of taken) message.ack();
        ingestBacklog.set(this.pending.length);
        this.flushing = undefined;
        // What piled up during this commit goes next, without lingering: the pipeline is busy.
        if (this.pending.length > 0 && !this.closed) void this.flush();
      },
      (err: unknown) => {
        this.metrics.commitFailures++;
        ingestCommitFailures.inc();
        if (this.closed) {
          this.flushing = undefined;
          return;
        }
        this.options.log.error({ err, messages: taken.length }, 'telemetry commit failed; will retry');
        // Nothing was acknowledged: put the batch back in front, in order, and try again later.
        this.pending.unshift(...taken);
        this.flushing = sleep(this.retryMs).then(() => {
          this.flushing = undefined;
          this.schedule();
        });
      },
    );
    return this.flushing;
  }

  /** Parses one message; a parser failure is this message's problem, never the batch's. */
  private parse(topic: string, payload: Buffer): NsEvent | undefined {
    try {
      return this.options.format.parse(topic, payload);
    } catch (err) {
      this.metrics.malformed++;
      uplinkMessages.inc({ result: 'malformed' });
      const source = err instanceof FrameError && err.source ? err.source : topic;
      this.problem('malformed', source, {
        topic,
        reason: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  /** The devices of `devEuis`, from the cache or one lookup for the misses. */
  private async lookup(devEuis: Set<string>): Promise<Map<string, DeviceRef | undefined>> {
    const now = this.now();
    const found = new Map<string, DeviceRef | undefined>();
    const misses: string[] = [];
    for (const devEui of devEuis) {
      const cached = this.devices.get(devEui);
      if (cached && cached.until > now) found.set(devEui, cached.device);
      else misses.push(devEui);
    }
    if (misses.length === 0) return found;
    const fetched = await this.options.store.devicesByDevEui(misses);
    if (this.devices.size > 100_000) {
      for (const [k, v] of this.devices) if (v.until <= now) this.devices.delete(k);
    }
    for (const devEui of misses) {
      const device = fetched.get(devEui);
      this.devices.set(devEui, { device, until: now + this.deviceCacheMs });
      found.set(devEui, device);
    }
    return found;
  }

  private async commit(messages: Pending[]) {
    const batch: IngestBatch = { uplinks: [], statuses: [], downlinks: [], gateways: [] };
    const deviceEvents: (UplinkEvent | DeviceStatusEvent)[] = [];
    for (const { event } of messages) {
      if (!event) continue;
      if (event.kind === 'uplink' || event.kind === 'status') deviceEvents.push(event);
      else if (event.kind === 'downlink') batch.downlinks.push(event);
      else if (event.kind === 'gateway') batch.gateways.push(event);
      else {
        this.metrics.ignored++;
        uplinkMessages.inc({ result: 'ignored' });
      }
    }
    const devices = await this.lookup(new Set(deviceEvents.map((e) => e.devEui)));
    for (const event of deviceEvents) {
      const device = devices.get(event.devEui);
      if (!device) {
        this.metrics.unknownDevice++;
        uplinkMessages.inc({ result: 'unknown_device' });
        this.problem('unknownDevice', event.devEui, {});
        continue;
      }
      if (event.kind === 'status') {
        batch.statuses.push({ event, device });
        continue;
      }
      this.metrics.uplinks++;
      batch.uplinks.push({ event, device, reading: this.decode(event, device) });
    }
    const committed = ingestCommitDuration.startTimer();
    const { inserted } = await this.options.store.commit(batch);
    committed();
    if (batch.uplinks.length > 0) this.options.onCommitted?.(batch.uplinks);
    const duplicates = batch.uplinks.filter((u) => u.reading).length - inserted;
    this.metrics.inserted += inserted;
    this.metrics.duplicates += duplicates;
    uplinkMessages.inc({ result: 'stored' }, inserted);
    uplinkMessages.inc({ result: 'duplicate' }, duplicates);
    uplinkMessages.inc({ result: 'status' }, batch.statuses.length);
    uplinkMessages.inc({ result: 'gateway' }, batch.gateways.length);
    uplinkMessages.inc({ result: 'downlink' }, batch.downlinks.length);
    for (const report of batch.downlinks) downlinkReports.inc({ state: report.state });
  }

  private decode(event: UplinkEvent, device: DeviceRef): Reading | undefined {
    // fPort 0 carries MAC commands only: the device was heard, there is no reading.
    if (event.fPort === 0 || event.bytes.length === 0) return undefined;
    try {
      return getCodec(device.model).decodeUplink(event.fPort, event.bytes);
    } catch (err) {
      this.metrics.undecodable++;
      uplinkMessages.inc({ result: 'undecodable' });
      this.problem('undecodable', event.devEui, {
        model: device.model,
        fPort: event.fPort,
        hex: Buffer.from(event.bytes).toString('hex'),
        reason: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  /** Logs a problem unless the same kind from the same source was logged within `logEveryMs`. */
  private problem(kind: string, source: string, details: object) {
    const key = `${kind}:${source}`;
    const now = this.now();
    const last = this.lastLogged.get(key);
    if (last !== undefined && now - last < this.logEveryMs) return;
    if (this.lastLogged.size > 10_000) {
      for (const [k, at] of this.lastLogged) if (now - at >= this.logEveryMs) this.lastLogged.delete(k);
    }
    this.lastLogged.set(key, now);
    this.options.log.warn(
      { kind, source, ...details },
      `LoRaWAN ${kind} message (logged once per hour per source)`,
    );
  }
}
