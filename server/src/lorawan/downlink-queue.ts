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
 * `publishPending`, which runs whenever the adapter (re)connects and periodically. With several
 * instances a row is published by the one holding its publish lease: `record` takes it with the
 * insert, `publishPending` claims rows without a live lease (`FOR UPDATE SKIP LOCKED`), and a
 * publish that failed gives its lease up at once (docs/decisions/0032). Commands the process took but
 * never recorded (a crash right after the scheduler's commit) are found again at start by
 * `recoverUnrecorded`: a device with no downlink since its unit's setpoint took effect.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import { units } from '../db/schema/heating.ts';
import { downlinks } from '../db/schema/telemetry.ts';
import type { SetpointCommand, SetpointSink } from '../jobs/setpoint-sink.ts';
import { downlinkEvents } from '../metrics.ts';
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
  /**
   * How long a row stays with the instance publishing it (ms, default 60 000); must outlast the
   * publish timeout, after which another instance may publish it.
   */
  leaseMs?: number;
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
   * adds nothing. Runs at start over every unit, and periodically over the units whose setpoint
   * took effect within `withinMs` (an instance that died in that window leaves its commands to
   * the others). @returns the commands queued.
   */
  async recoverUnrecorded(withinMs?: number): Promise<number> {
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
          withinMs === undefined
            ? undefined
            : sql`${units.setpointSince} >= now() - ${withinMs} * interval '1 millisecond'`,
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

  /**
   * Publishes recorded downlinks that never reached the broker and that no instance is
   * publishing (no live lease), oldest first, in claims of 500. @returns how many it tried.
   */
  async publishPending(): Promise<number> {
    let tried = 0;
    for (;;) {
      const rows = await this.claimUnpublished(500);
      await this.publishRows(rows);
      tried += rows.length;
      if (rows.length < 500 || this.closed) return tried;
    }
  }

  private async claimUnpublished(limit: number): Promise<Row[]> {
    const claimed = await this.options.db
      .update(downlinks)
      .set({ publishLeaseUntil: this.leaseEnd() })
      .where(
        inArray(
          downlinks.id,
          this.options.db
            .select({ id: downlinks.id })
            .from(downlinks)
            .where(
              and(
                isNull(downlinks.publishedAt),
                eq(downlinks.state, 'queued'),
                or(isNull(downlinks.publishLeaseUntil), lt(downlinks.publishLeaseUntil, sql`now()`)),
              ),
            )
            .orderBy(downlinks.createdAt)
            .limit(limit)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
    return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  private leaseEnd() {
    return sql`now() + ${this.options.leaseMs ?? 60_000} * interval '1 millisecond'`;
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
    const values: PgInsertValue<typeof downlinks>[] = [];
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
        publishLeaseUntil: this.leaseEnd(),
      });
    }
    if (values.length === 0) return [];
    const rows = await db.transaction(async (tx) => {
      const inserted = await tx.insert(downlinks).values(values).onConflictDoNothing().returning();
      if (inserted.length === 0) return [];
      const ids = sql`${sql.param(inserted.map((r) => r.id))}::uuid[]`;
      // A command that arrives after a newer one of its device (a recovery racing the scheduler)
      // is stale: sending it would leave the valve on the older setpoint.
      const stale = await tx.execute(sql`
        update ${downlinks} d set state = 'superseded', updated_at = now()
        where d.id = any(${ids}) and exists (
          select 1 from ${downlinks} o
          where o.device_id = d.device_id and o.applied_at > d.applied_at and o.id <> d.id)
        returning d.id`);
      // Older, not yet sent setpoints of these devices are obsolete once a newer one exists.
      const superseded = await tx.execute(sql`
        update ${downlinks} d set state = 'superseded', updated_at = now()
        from ${downlinks} n
        where n.id = any(${ids}) and n.state = 'queued' and d.device_id = n.device_id
          and d.state = 'queued' and d.id <> n.id and d.applied_at <= n.applied_at
        returning d.id`);
      const dropped = new Set(
        [stale, superseded].flatMap((r) =>
          (r as unknown as { rows: { id: string }[] }).rows.map((row) => row.id),
        ),
      );
      return inserted.filter((row) => !dropped.has(row.id));
    });
    downlinkEvents.inc({ event: 'recorded' }, rows.length);
    return rows;
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
          .set({
            publishedAt: sql`now()`,
            queueItemId: row.id,
            publishLeaseUntil: null,
            updatedAt: sql`now()`,
          })
          .where(eq(downlinks.id, row.id));
        downlinkEvents.inc({ event: 'published' });
      } catch (err) {
        downlinkEvents.inc({ event: 'publish_failed' });
        // The row keeps published_at null and gives up its lease; publishPending retries it.
        this.options.log.warn({ err, downlinkId: row.id }, 'publishing downlink failed');
        await this.options.db
          .update(downlinks)
          .set({ publishLeaseUntil: null })
          .where(eq(downlinks.id, row.id))
          .catch(() => {});
      }
    }
  }
}
