/**
 * The LoRaWAN `SetpointSink` (issue 5 port, issue 6): turns the scheduler's setpoint commands
 * into downlinks in the device's own byte layout (codec registry `encodeSetpoint`), records
 * each in `downlinks` (state queued → sent → acknowledged | failed), and publishes it to the
 * network server as a confirmed downlink whose id is the row id, so txack/ack events find it.
 *
 * Rules: one downlink per device per setpoint change (the unique key device/applied-at/setpoint
 * makes a repeated `send` of the same commands a no-op); a newer setpoint supersedes that
 * device's downlinks still `queued`; devices without a setpoint (room sensors) get none; a
 * setpoint is clamped to the device's own range and step.
 *
 * `send` only takes the commands into memory and returns: the scheduler calls it inside its
 * own transaction, and on PGlite (one connection) any query from here would wait for that
 * transaction forever. The worker records and publishes right after; a failure is logged and
 * retried. Rows not yet handed to the broker (crash, broker down) are published by
 * `publishPending`, which runs whenever the adapter (re)connects. Commands the process took but
 * never recorded (a crash right after the scheduler's commit) are found again at start by
 * `recoverUnrecorded`: a device with no downlink since its unit's setpoint took effect.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import type { SetpointCommand, SetpointSink } from '../jobs/setpoint-sink.ts';
import { bytesToHex, CodecError, type Frame, hexToBytes, roundTo } from './codecs/codec.ts';
import { getCodec } from './codecs/registry.ts';
import type { DownlinkRequest } from './network-server.ts';

export interface DownlinkQueueLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DownlinkQueueOptions {
  db: Db;
  /** Hands a downlink to the network server (the adapter's publish). */
  publish(request: DownlinkRequest): Promise<void>;
  log: DownlinkQueueLogger;
  retryMs?: number;
}

type Row = typeof downlinks.$inferSelect;

export class DownlinkQueue implements SetpointSink {
  private backlog: SetpointCommand[] = [];
  private working: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: DownlinkQueueOptions) {}

  async send(commands: SetpointCommand[]): Promise<void> {
    if (commands.length === 0) return;
    this.backlog.push(...commands);
    this.kick();
  }

  /** Resolves when every command taken so far is recorded and published (or failed to publish). */
  async idle() {
    while (this.working) await this.working;
  }

  /**
   * Stops taking work. Does not wait for a publish in flight (the broker may be unreachable);
   * a row whose publish did not complete keeps published_at null and goes out on the next start.
   */
  close() {
    this.closed = true;
  }

  /**
   * Queues the setpoint in force again for every device (with a setpoint codec) that has no
   * downlink applied since its unit's setpoint took effect — what a crash between the
   * scheduler's commit and `record` would have lost. `appliedAt` is that instant, so a second run
   * adds nothing. Run once at start. @returns the commands queued.
   */
  async recoverUnrecorded(): Promise<number> {
    const rows = await this.options.db
      .select({
        companyId: units.companyId,
        unitId: units.id,
        deviceId: devices.id,
        model: devices.model,
        setpoint: units.setpoint,
        since: units.setpointSince,
        reason: units.setpointSource,
        ignoreWallControl: units.ignoreWallControl,
        wallControlMin: units.wallControlMin,
        wallControlMax: units.wallControlMax,
      })
      .from(units)
      .innerJoin(devices, eq(devices.unitId, units.id))
      .where(
        and(
          isNotNull(units.setpoint),
          isNotNull(units.setpointSince),
          sql`not exists (select 1 from ${downlinks} d where d.device_id = ${devices.id} and d.applied_at >= ${units.setpointSince})`,
        ),
      );
    const commands: SetpointCommand[] = rows.flatMap((r) =>
      r.setpoint === null || r.since === null || r.reason === null || !getCodec(r.model).setpoint
        ? []
        : [
            {
              companyId: r.companyId,
              unitId: r.unitId,
              deviceId: r.deviceId,
              setpoint: r.setpoint,
              wallControl:
                r.wallControlMin === null && r.wallControlMax === null
                  ? null
                  : { min: r.wallControlMin, max: r.wallControlMax },
              ignoreWallControl: r.ignoreWallControl,
              reason: r.reason,
              at: r.since,
            },
          ],
    );
    await this.send(commands);
    return commands.length;
  }

  /** Publishes recorded downlinks that never reached the broker, oldest first. */
  async publishPending(): Promise<number> {
    const rows = await this.options.db
      .select()
      .from(downlinks)
      .where(and(isNull(downlinks.publishedAt), eq(downlinks.state, 'queued')))
      .orderBy(downlinks.createdAt);
    await this.publishRows(rows);
    return rows.length;
  }

  private kick() {
    if (this.working || this.closed) return;
    this.working = this.work().finally(() => {
      this.working = undefined;
      if (this.backlog.length > 0 && !this.closed) this.kick();
    });
  }

  private async work() {
    const commands = this.backlog.splice(0);
    try {
      const rows = await this.record(commands);
      await this.publishRows(rows);
    } catch (err) {
      this.options.log.error(
        { err, commands: commands.length },
        'recording setpoint downlinks failed; will retry',
      );
      this.backlog.unshift(...commands);
      await sleep(this.options.retryMs ?? 5000);
    }
  }

  /** Encodes and stores the commands in one transaction; returns the new rows to publish. */
  private async record(commands: SetpointCommand[]): Promise<Row[]> {
    const { db, log } = this.options;
    const found = await db
      .select({ id: devices.id, devEui: devices.devEui, model: devices.model })
      .from(devices)
      .where(inArray(devices.id, [...new Set(commands.map((c) => c.deviceId))]));
    const byId = new Map(found.map((d) => [d.id, d]));
    const values: (typeof downlinks.$inferInsert)[] = [];
    for (const command of commands) {
      const device = byId.get(command.deviceId);
      if (!device?.devEui) {
        log.warn({ deviceId: command.deviceId }, 'setpoint for a device without DevEUI; no downlink');
        continue;
      }
      const codec = getCodec(device.model);
      if (!codec.setpoint) continue;
      const { min, max, step } = codec.setpoint;
      const setpoint = roundTo(Math.min(max, Math.max(min, command.setpoint)), step);
      let frame: Frame;
      try {
        frame = codec.encodeSetpoint(setpoint);
      } catch (err) {
        if (!(err instanceof CodecError)) throw err;
        log.warn(
          { deviceId: device.id, setpoint, reason: err.message },
          'setpoint not encodable; no downlink',
        );
        continue;
      }
      values.push({
        companyId: command.companyId,
        unitId: command.unitId,
        deviceId: device.id,
        devEui: device.devEui,
        setpoint,
        fPort: frame.fPort,
        payload: bytesToHex(frame.bytes),
        reason: command.reason,
        appliedAt: command.at,
      });
    }
    if (values.length === 0) return [];
    return db.transaction(async (tx) => {
      const inserted = await tx.insert(downlinks).values(values).onConflictDoNothing().returning();
      for (const row of inserted) {
        // Older, not yet sent setpoints of this device are obsolete once a newer one exists.
        await tx
          .update(downlinks)
          .set({ state: 'superseded', updatedAt: sql`now()` })
          .where(
            and(
              eq(downlinks.deviceId, row.deviceId),
              eq(downlinks.state, 'queued'),
              ne(downlinks.id, row.id),
              sql`${downlinks.appliedAt} <= ${row.appliedAt.toISOString()}::timestamptz`,
            ),
          );
      }
      return inserted;
    });
  }

  private async publishRows(rows: Row[]) {
    for (const row of rows) {
      try {
        await this.options.publish({
          id: row.id,
          devEui: row.devEui,
          fPort: row.fPort,
          bytes: hexToBytes(row.payload),
          confirmed: true,
        });
        await this.options.db
          .update(downlinks)
          .set({ publishedAt: sql`now()`, queueItemId: row.id, updatedAt: sql`now()` })
          .where(eq(downlinks.id, row.id));
      } catch (err) {
        // The row keeps published_at null; publishPending retries it on the next connect.
        this.options.log.warn({ err, downlinkId: row.id }, 'publishing downlink failed');
      }
    }
  }
}
