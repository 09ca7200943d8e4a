/**
 * The LoRaWAN `SetpointSink`: turns the scheduler's setpoint commands into downlinks in the
 * device's own byte layout (codec registry `encodeSetpoint`), records each in `downlinks` (state
 * queued → sent → acknowledged | failed), and publishes it to the network server as a confirmed
 * downlink whose id is the row id, so txack/ack events find it. Design: docs/decisions/0047.
 *
 * Rules: one downlink per device per setpoint change (the unique key device/applied-at/setpoint
 * makes a repeated `send` of the same commands a no-op); a newer setpoint supersedes that
 * device's downlinks still `queued`; devices without a setpoint (room sensors) get none; a
 * setpoint is clamped to the device's own range and step. The valve's own settings (firmware
 * query, frost protection) ride along in the same downlink until the device reports them
 * (device-settings.ts).
 *
 * Delivery at any scale:
 * - `send` only takes the commands into memory and returns: the scheduler calls it inside its
 *   own transaction, and on PGlite (one connection) any query from here would wait for that
 *   transaction forever. One worker then records and publishes them in chunks of
 *   `RECORD_CHUNK`, each one statement with a fixed number of array parameters.
 * - A chunk the database refuses while it answers otherwise is split in halves and retried with
 *   backoff down to single commands; a command still refused is set aside (a dead letter,
 *   counted and alerted), never blocking the commands behind it or another company's. While
 *   the database does not answer at all, the chunk waits with exponential backoff instead.
 * - Publishes run `PUBLISH_WINDOW` at a time and are marked in one statement. A publish that
 *   fails gives its lease up at once; one the connected broker refuses `MAX_PUBLISH_ATTEMPTS`
 *   times is set aside.
 * - Delivery is at least once: a row handed to the broker whose mark did not commit (crash,
 *   database outage) is published again. A repeat is harmless: it carries the same downlink id
 *   and the setpoint command is absolute, so the valve ends on the same value.
 * - `reconcile` re-derives what each valve should have from the desired state (its unit's
 *   setpoint in force against the device's newest downlink) and queues what is missing — what
 *   a crash, a lost in-memory backlog or a dead letter left behind. It runs at start over every
 *   device and periodically, in chunks.
 *
 * With several instances a row is published by the one holding its publish lease: `record`
 * takes it with the insert, `publishPending` claims rows without a live lease
 * (`FOR UPDATE SKIP LOCKED`), and a publish that failed gives its lease up at once
 * (docs/decisions/0032).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DownlinkHealth } from '@heizplan/contracts/health';

import type { Db } from '../db/client.ts';
import type { SetpointCommand, SetpointSink } from '../heating/setpoint-sink.ts';
import { downlinkBacklog, downlinkDeadLetters, downlinkEvents } from '../metrics.ts';
import { DUTY_CYCLE_MS } from './airtime.ts';
import { bytesToHex, CodecError, deviceSetpoint, hexToBytes } from './codecs/codec.ts';
import { getCodec } from './codecs/registry.ts';
import { desiredStates, markLostDownlinks } from './desired-state.repository.ts';
import { recalibrationSent } from './device-config.repository.ts';
import {
  claimUnpublished,
  type DeadLetter,
  deviceOfCompanyByDevEui,
  devicesByIds,
  type EncodedCommand,
  insertDownlinks,
  markPublished,
  oldestUnpublishedSeconds,
  type PublishRow,
  pingDatabase,
  releaseFailed,
  storeDeadLetters,
} from './downlink-queue.repository.ts';
import type { DownlinkRequest } from './network-server.ts';
import { missingCommands, ownSettings } from './owed-commands.ts';

/** Commands recorded per statement (9 array parameters whatever the count). */
export const RECORD_CHUNK = 2000;
/** Publishes awaiting the broker's PUBACK at once. */
const PUBLISH_WINDOW = 500;
/** Publishes the connected broker may refuse before the downlink is set aside. */
export const MAX_PUBLISH_ATTEMPTS = 5;
/** Tries of a single command the database refuses before it is set aside. */
const RECORD_TRIES = 3;
/** Commands held in memory at most; beyond, the oldest are left to `reconcile`. */
const MAX_BACKLOG = 500_000;
/**
 * ms a setpoint change must be old before the frequent reconcile pass sends it: longer than an
 * instance takes from committing a change to recording its downlink, even under load.
 */
const RECENT_SETTLE_MS = 10_000;
/** Devices compared per `reconcile` statement. */
const RECONCILE_CHUNK = 5000;
/** The sender counts as stalled when a setpoint waits this long (s). */
export const STALLED_AFTER_S = 120;

/** A raw downlink the server queues for a device of a company (a heating circuit's relay command). */
export interface RawDownlink {
  companyId: string;
  /** The device's DevEUI, 16 hex digits. */
  devEui: string;
  fPort: number;
  /** Application payload, hex. */
  payloadHex: string;
  /** Why it is sent, e.g. `generator`; stored as the row's reason. */
  reason: string;
  /** When it was decided (the caller's clock). */
  at: Date;
}

/** Thrown by `queueRaw` for a DevEUI that is not a device of the company. */
export class UnknownDeviceError extends Error {
  constructor(devEui: string) {
    super(`${devEui} is not a device of the company`);
    this.name = 'UnknownDeviceError';
  }
}

/** Thrown by `publish` when the broker is not connected: a failure that is nobody's fault. */
export class BrokerUnavailableError extends Error {
  constructor() {
    super('MQTT broker not connected');
  }
}

export interface DownlinkQueueLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DownlinkQueueOptions {
  db: Db;
  /**
   * Hands a downlink to the network server (the adapter's publish); rejects with
   * `BrokerUnavailableError` while offline.
   */
  publish(request: DownlinkRequest): Promise<void>;
  log: DownlinkQueueLogger;
  /** First backoff after a failure (ms, default 1000); doubles up to 30 s. */
  retryMs?: number;
  /**
   * How long a row stays with the instance publishing it (ms, default 60 000); must outlast the
   * publish timeout, after which another instance may publish it.
   */
  leaseMs?: number;
  /** Each device's daily airtime budget for configuration traffic, ms (airtime.ts; default 1 % duty cycle). */
  airtimeBudgetMs?: number;
}

interface Pending {
  command: SetpointCommand;
  /** Date.now() when `send` took it. */
  takenAt: number;
}

/** The cause's words where there is one: drizzle wraps the database's error in "Failed query: …". */
const message = (err: unknown): string =>
  err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);

export class DownlinkQueue implements SetpointSink {
  private backlog: Pending[] = [];
  private working: Promise<void> | undefined;
  private reconciling: Promise<number> | undefined;
  private closed = false;
  /** Holds of running scheduler ticks (`hold`): while any is open the worker starts no chunk. */
  private holds = 0;
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly budgetMs: number;

  constructor(private readonly options: DownlinkQueueOptions) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.retryMs = options.retryMs ?? 1000;
    this.budgetMs = options.airtimeBudgetMs ?? DUTY_CYCLE_MS;
  }

  async send(commands: SetpointCommand[]): Promise<void> {
    if (commands.length === 0) return;
    const takenAt = Date.now();
    for (const command of commands) this.backlog.push({ command, takenAt });
    const excess = this.backlog.length - MAX_BACKLOG;
    if (excess > 0) {
      // Memory stays bounded through a long outage; reconcile queues these again from the units.
      this.backlog.splice(0, excess);
      this.options.log.warn({ dropped: excess }, 'downlink backlog full; oldest commands left to reconcile');
    }
    downlinkBacklog.set(this.backlog.length);
    this.kick();
  }

  /**
   * Keeps the worker from recording further chunks until the release is called: a scheduler tick
   * hands over its batches first (decision 0073). Commands are still taken; a chunk being
   * published goes on. The release is idempotent and kicks the worker once the last hold ends.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0 && this.backlog.length > 0) this.kick();
    };
  }

  /** Resolves when every command taken so far is recorded and published (or failed to publish). */
  async idle() {
    while (this.working !== undefined) await this.working;
  }

  /**
   * Stops taking work. Does not wait for a publish in flight (the broker may be unreachable);
   * a row whose publish did not complete keeps published_at null and goes out on the next start.
   */
  close() {
    this.closed = true;
  }

  /** Commands taken but not yet recorded. */
  get backlogSize(): number {
    return this.backlog.length;
  }

  /**
   * Whether setpoints flow: the oldest command not yet handed to the broker, in this instance's
   * memory or recorded by any instance, waited less than `STALLED_AFTER_S`.
   * @throws when the database does not answer.
   */
  async health(): Promise<DownlinkHealth> {
    const first = this.backlog[0];
    const inMemory = first ? (Date.now() - first.takenAt) / 1000 : null;
    const recorded = await oldestUnpublishedSeconds(this.options.db);
    const ages = [inMemory, recorded].filter((a): a is number => a !== null);
    const oldest = ages.length > 0 ? Math.max(...ages) : null;
    return {
      state: oldest !== null && oldest > STALLED_AFTER_S ? 'stalled' : 'ok',
      oldestUnsentSeconds: oldest,
    };
  }

  /**
   * Queues the setpoint in force for every device (with a setpoint codec) whose newest downlink
   * that was not superseded carries another value, or that never got one: what a crash, a lost
   * backlog or a dead letter left behind. The full pass (no `withinMs`) first marks lost
   * downlinks failed (`markLostDownlinks`) and repeats failed deliveries of the setpoint in force
   * (`DesiredState.redeliver`). Works through the devices in chunks and waits for each chunk to
   * be recorded before reading the next, so memory stays bounded. `withinMs` limits it to units
   * whose setpoint took effect that recently. A call while one runs joins it.
   * @returns the commands queued.
   */
  reconcile(withinMs?: number): Promise<number> {
    this.reconciling ??= this.reconcileChunks(withinMs).finally(() => {
      this.reconciling = undefined;
    });
    return this.reconciling;
  }

  /**
   * Queues the setpoint in force for `deviceIds` where `reconcile` would: a valve just paired
   * with a unit, or moved to another, gets its setpoint now instead of at the next reconcile.
   * @returns the commands queued.
   */
  async reconcileDevices(deviceIds: string[]): Promise<number> {
    if (deviceIds.length === 0 || this.closed) return 0;
    const states = await desiredStates(this.options.db, '', deviceIds.length, {
      deviceIds,
      withSettings: true,
    });
    const missing = missingCommands(states, new Date(), this.budgetMs);
    await this.send(missing);
    return missing.length;
  }

  private async reconcileChunks(withinMs?: number): Promise<number> {
    let queued = 0;
    let after = '';
    if (withinMs === undefined) {
      const lost = await markLostDownlinks(this.options.db);
      if (lost.length > 0) {
        downlinkEvents.inc({ event: 'lost' }, lost.length);
        this.options.log.warn(
          { lost: lost.length },
          'downlinks lost at the network server; sending them again',
        );
      }
    }
    while (!this.closed) {
      // Settings owed are looked for in the full pass only: the recent-changes pass runs often.
      const states = await desiredStates(this.options.db, after, RECONCILE_CHUNK, {
        withinMs,
        // The frequent pass looks for what another instance died with, not for what one is
        // recording right now: two instances sent the same setpoint twice under load.
        ...(withinMs === undefined ? {} : { settledMs: RECENT_SETTLE_MS }),
        withSettings: withinMs === undefined,
      });
      const missing = missingCommands(states, new Date(), this.budgetMs);
      if (missing.length > 0) {
        await this.send(missing);
        await this.idle();
        queued += missing.length;
      }
      const last = states.at(-1);
      if (!last || states.length < RECONCILE_CHUNK) break;
      after = last.command.deviceId;
    }
    return queued;
  }

  /**
   * Publishes recorded downlinks that never reached the broker and that no instance is
   * publishing (no live lease), oldest first, in claims of `RECORD_CHUNK`. @returns how many it tried.
   */
  async publishPending(): Promise<number> {
    let tried = 0;
    for (;;) {
      const rows = await claimUnpublished(this.options.db, RECORD_CHUNK, this.leaseMs);
      await this.publishRows(rows);
      tried += rows.length;
      if (rows.length < RECORD_CHUNK || this.closed) return tried;
    }
  }

  /**
   * Records one raw downlink (no setpoint) for a device of the company and publishes it through
   * the same path as the setpoints: a confirmed downlink whose id is the row id, so the network
   * server's txack/ack events move it queued → sent → acknowledged | failed, a newer one
   * supersedes it while it is still queued, and a publish that fails is left to `publishPending`.
   * Resolves once it is recorded (and handed to the broker, or left for the retry).
   * @returns the row id, or null when the queue is closed.
   * @throws UnknownDeviceError when `devEui` is not a device of `companyId`; CodecError for a
   * payload that is not hex; a database error when it cannot be recorded.
   */
  async queueRaw(downlink: RawDownlink): Promise<string | null> {
    if (this.closed) return null;
    const { db } = this.options;
    const bytes = hexToBytes(downlink.payloadHex);
    const device = await deviceOfCompanyByDevEui(db, downlink.companyId, downlink.devEui);
    if (!device) throw new UnknownDeviceError(downlink.devEui);
    const rows = await insertDownlinks(
      db,
      [
        {
          companyId: downlink.companyId,
          unitId: null,
          deviceId: device.id,
          devEui: device.devEui,
          setpoint: null,
          fPort: downlink.fPort,
          payload: bytesToHex(bytes),
          reason: downlink.reason,
          appliedAt: downlink.at,
        },
      ],
      this.leaseMs,
    );
    downlinkEvents.inc({ event: 'recorded' }, rows.length);
    await this.publishRows(rows);
    return rows[0]?.id ?? null;
  }

  private kick() {
    if (this.working || this.closed || this.holds > 0) return;
    this.working = this.work().finally(() => {
      this.working = undefined;
    });
    // A `send` or a hold's release between the worker's last look at the backlog and its end found
    // it still working and started nothing: look once more when it has ended.
    this.working.then(
      () => {
        if (this.backlog.length > 0) this.kick();
      },
      () => {},
    );
  }

  /**
   * Records the backlog chunk by chunk and publishes each recorded chunk while the next one is
   * recorded: the database's insert and the broker's round trips run side by side instead of one
   * after the other (decision 0073). At most one chunk is being published at a time, and chunks go
   * out in the order `send` took them, so a device never gets an older setpoint after a newer one.
   */
  private async work() {
    let backoff = this.retryMs;
    let publishing: Promise<void> = Promise.resolve();
    try {
      for (;;) {
        while (this.backlog.length > 0 && !this.closed && this.holds === 0) {
          const chunk = this.backlog.slice(0, RECORD_CHUNK);
          let rows: PublishRow[];
          try {
            rows = await this.recordAll(chunk.map((p) => p.command));
            backoff = this.retryMs;
          } catch (err) {
            // The database does not answer: keep the chunk and wait, nothing is set aside.
            this.options.log.error(
              { err, commands: this.backlog.length },
              'recording setpoint downlinks failed; the database does not answer, retrying',
            );
            await sleep(backoff);
            backoff = Math.min(backoff * 2, 30_000);
            continue;
          }
          // Recorded rows that are not yet published count as waiting in `health` through the table.
          this.backlog.splice(0, chunk.length);
          downlinkBacklog.set(this.backlog.length);
          await publishing;
          publishing = this.publishRows(rows);
        }
        await publishing;
        // Commands `send` took while the last chunk was being published found this worker busy
        // and started none: take them now, not only with the next `send`.
        // A hold taken meanwhile kicks the worker again when it is released.
        if (this.backlog.length === 0 || this.closed || this.holds > 0) return;
      }
    } finally {
      await publishing;
    }
  }

  /**
   * Records the commands; returns the new rows to publish. A refusal while the database answers
   * splits them and sets aside the single commands still refused.
   * @throws when the database does not answer.
   */
  private async recordAll(commands: SetpointCommand[], tries = 1): Promise<PublishRow[]> {
    try {
      return await this.record(commands);
    } catch (err) {
      if (!(await this.databaseAnswers())) throw err;
      if (commands.length > 1) {
        const half = Math.ceil(commands.length / 2);
        const first = await this.recordAll(commands.slice(0, half));
        return [...first, ...(await this.recordAll(commands.slice(half)))];
      }
      if (tries < RECORD_TRIES) {
        await sleep(this.retryMs * tries);
        return this.recordAll(commands, tries + 1);
      }
      await this.setAside(
        commands.map((c) => ({ ...c, appliedAt: c.at })),
        'record',
        err,
      );
      return [];
    }
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await pingDatabase(this.options.db);
      return true;
    } catch {
      return false;
    }
  }

  private async setAside(letters: DeadLetter[], stage: 'record' | 'publish', err: unknown) {
    downlinkDeadLetters.inc({ stage }, letters.length);
    this.options.log.error(
      {
        stage,
        err: message(err),
        commands: letters.map((l) => ({ deviceId: l.deviceId, setpoint: l.setpoint })),
      },
      'setpoint downlinks set aside after repeated refusals',
    );
    await storeDeadLetters(this.options.db, letters, stage, message(err)).catch((storeErr) =>
      this.options.log.error({ err: storeErr }, 'storing dead-lettered downlinks failed'),
    );
  }

  /** Encodes and stores the commands; returns the new rows to publish. */
  private async record(commands: SetpointCommand[]): Promise<PublishRow[]> {
    const { db, log } = this.options;
    const byId = await devicesByIds(db, [...new Set(commands.map((c) => c.deviceId))]);
    const encoded = new Map<string, EncodedCommand>();
    const recalibrating = new Set<string>();
    for (const command of commands) {
      const device = byId.get(command.deviceId);
      if (!device?.devEui) {
        log.warn({ deviceId: command.deviceId }, 'setpoint for a device without DevEUI; no downlink');
        continue;
      }
      const codec = getCodec(device.model);
      if (!codec.setpoint) continue;
      const setpoint = deviceSetpoint(codec.setpoint, command.setpoint);
      let payload: string;
      let fPort: number;
      try {
        const frame = codec.encodeSetpoint(setpoint);
        const own = ownSettings(codec, device, this.budgetMs, frame.bytes.length);
        payload = bytesToHex(Uint8Array.from([...frame.bytes, ...own.bytes]));
        if (own.recalibrate) recalibrating.add(device.devEui);
        fPort = frame.fPort;
      } catch (err) {
        if (!(err instanceof CodecError)) throw err;
        log.warn(
          { deviceId: command.deviceId, setpoint, reason: err.message },
          'setpoint not encodable; no downlink',
        );
        continue;
      }
      // Repeats within one call would meet the unique key twice in one statement.
      encoded.set(`${command.deviceId}|${command.at.toISOString()}|${setpoint}`, {
        companyId: command.companyId,
        unitId: command.unitId,
        deviceId: command.deviceId,
        devEui: device.devEui,
        setpoint,
        fPort,
        payload,
        reason: command.reason,
        appliedAt: command.at,
      });
    }
    if (encoded.size === 0) return [];
    const rows = await insertDownlinks(db, [...encoded.values()], this.leaseMs);
    downlinkEvents.inc({ event: 'recorded' }, rows.length);
    // A recalibration is a one-off: asked for once, sent once (a LoRaWAN DevEUI is the device id).
    await recalibrationSent(
      db,
      rows.filter((r) => recalibrating.has(r.devEui)).map((r) => r.devEui),
    );
    return rows;
  }

  /**
   * Publishes rows `PUBLISH_WINDOW` at a time and marks each window in one statement. Never
   * throws: what failed keeps published_at null for `publishPending`.
   */
  private async publishRows(rows: PublishRow[]) {
    for (let i = 0; i < rows.length && !this.closed; i += PUBLISH_WINDOW) {
      const window = rows.slice(i, i + PUBLISH_WINDOW);
      const results = await Promise.allSettled(
        window.map((row) =>
          this.options.publish({
            id: row.id,
            devEui: row.devEui,
            fPort: row.fPort,
            bytes: hexToBytes(row.payload),
            confirmed: true,
          }),
        ),
      );
      const published = window.filter((_, k) => results[k]?.status === 'fulfilled').map((r) => r.id);
      const failures = results.flatMap((r, k) =>
        r.status === 'rejected' ? [{ row: window[k], err: r.reason }] : [],
      );
      downlinkEvents.inc({ event: 'published' }, published.length);
      try {
        await markPublished(this.options.db, published);
      } catch (err) {
        // Handed to the broker but not marked: published again later, which is harmless.
        this.options.log.warn({ err, downlinks: published.length }, 'marking published downlinks failed');
      }
      if (failures.length > 0) await this.publishFailed(failures);
    }
  }

  private async publishFailed(failures: { row: PublishRow | undefined; err: unknown }[]) {
    downlinkEvents.inc({ event: 'publish_failed' }, failures.length);
    const first = failures[0]?.err;
    const counted = failures.some((f) => !(f.err instanceof BrokerUnavailableError));
    this.options.log.warn({ err: message(first), downlinks: failures.length }, 'publishing downlinks failed');
    try {
      const ids = failures.flatMap((f) => (f.row ? [f.row.id] : []));
      const given = await releaseFailed(this.options.db, ids, counted, MAX_PUBLISH_ATTEMPTS);
      if (given.length > 0) await this.setAside(given, 'publish', first);
    } catch (err) {
      // The leases run out by themselves; publishPending takes the rows then.
      this.options.log.warn({ err }, 'releasing failed downlinks failed');
    }
  }
}
