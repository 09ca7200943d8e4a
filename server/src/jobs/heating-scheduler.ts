/**
 * The heating scheduler (issue 5, ARCHITECTURE.md §5). Each tick
 * 1. claims due units (`next_change_at <= now`) in batches with `FOR UPDATE SKIP LOCKED` and
 *    applies the engine to them in the same transaction (log entry + outbox row + unit update),
 * 2. drains the setpoint outbox: claims and deletes rows (`FOR UPDATE SKIP LOCKED`), expands each
 *    to one command per device of the unit and hands them to the SetpointSink in the same
 *    transaction (a throwing sink rolls back, so the commands are retried next tick).
 * Row locks instead of a single leader mean any number of instances can tick against one
 * PostgreSQL and every change is logged and commanded exactly once (docs/decisions).
 * Ticks run every `intervalMs` (default 15 s) and on `wake()` after a change; ticks never overlap
 * within an instance. The clock is injectable so tests can simulate a day without waiting.
 */
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { setpointOutbox } from '../db/schema.ts';
import type { DeviceDirectory } from './device-directory.ts';
import { applyUnits, claimDueUnits } from './heating-apply.ts';
import type { PlanCache } from './heating-inputs.ts';
import type { SetpointCommand, SetpointSink } from './setpoint-sink.ts';

export interface SchedulerLogger {
  error(obj: object, msg: string): void;
}

export interface HeatingSchedulerOptions {
  db: Db;
  sink: SetpointSink;
  devices: DeviceDirectory;
  logger: SchedulerLogger;
  /** Current instant (UTC); tests inject a simulated clock. */
  now?: () => Date;
  /** ms between ticks; default 15 000. */
  intervalMs?: number;
  /** Units per transaction; default 1000. */
  batchSize?: number;
}

export interface TickResult {
  /** Units evaluated because they were due. */
  evaluated: number;
  /** Heating log entries written. */
  changes: number;
  /** Commands handed to the sink. */
  commands: number;
}

export class HeatingScheduler {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TickResult> | null = null;
  private again = false;
  private readonly planCache: PlanCache = new Map();

  constructor(private readonly options: HeatingSchedulerOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.intervalMs = options.intervalMs ?? 15_000;
    this.batchSize = options.batchSize ?? 1000;
  }

  /** One full tick: apply every due unit, then send the pending commands. */
  async tick(): Promise<TickResult> {
    const now = this.now();
    const result: TickResult = { evaluated: 0, changes: 0, commands: 0 };
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const due = await claimDueUnits(tx, now, this.batchSize);
        const applied = await applyUnits(tx, due, now, undefined, this.planCache);
        return { due: due.length, applied: applied.length };
      });
      result.evaluated += batch.due;
      result.changes += batch.applied;
      if (batch.due < this.batchSize) break;
    }
    result.commands = await this.drainOutbox();
    return result;
  }

  /** Sends pending outbox rows, one command per device; returns the number of commands sent. */
  async drainOutbox(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        // Claim and delete in one statement; a throwing sink rolls the delete back.
        const claim = tx
          .select({ id: setpointOutbox.id })
          .from(setpointOutbox)
          .orderBy(asc(setpointOutbox.id))
          .limit(this.batchSize)
          .for('update', { skipLocked: true });
        const rows = (
          await tx.delete(setpointOutbox).where(inArray(setpointOutbox.id, claim)).returning()
        ).sort((a, b) => a.id - b.id);
        if (rows.length === 0) return { rows: 0, commands: 0 };
        const devices = await this.options.devices.devicesOfUnits(
          [...new Set(rows.map((r) => r.unitId))],
          tx,
        );
        const commands: SetpointCommand[] = rows.flatMap((row) =>
          (devices.get(row.unitId) ?? []).map((deviceId) => ({
            companyId: row.companyId,
            unitId: row.unitId,
            deviceId,
            setpoint: row.setpoint,
            wallControl:
              row.wallControlMin === null && row.wallControlMax === null
                ? null
                : { min: row.wallControlMin, max: row.wallControlMax },
            ignoreWallControl: row.ignoreWallControl,
            reason: row.reason,
            at: row.at,
          })),
        );
        if (commands.length > 0) await this.options.sink.send(commands);
        return { rows: rows.length, commands: commands.length };
      });
      sent += batch.commands;
      if (batch.rows < this.batchSize) return sent;
    }
  }

  /** Runs a tick soon (after the running one, if any); errors are logged, never thrown. */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tick()
      .catch((err: unknown) => {
        this.options.logger.error({ err }, 'heating scheduler tick failed');
        return { evaluated: 0, changes: 0, commands: 0 };
      })
      .finally(() => {
        this.running = null;
        if (this.again && this.timer) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Starts periodic ticks (and one right away for catch-up after downtime). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.intervalMs);
    this.wake();
  }

  /** Stops ticking and waits for a running tick to finish. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.again = false;
    await this.running;
  }
}
