/**
 * The heating scheduler (issue 5, ARCHITECTURE.md §5). Each tick
 * 1. claims due units (`next_change_at <= now`) in batches with `FOR UPDATE SKIP LOCKED` and
 *    applies the engine to them in the same transaction (log entry + outbox row + unit update),
 * 2. drains the setpoint outbox: claims and deletes rows (`FOR UPDATE SKIP LOCKED`), expands each
 *    to one command per device of the unit and hands them to the SetpointSink in the same
 *    transaction (a throwing sink rolls back, so the commands are retried next tick); of several
 *    pending rows of one unit only the newest is sent.
 * Row locks instead of a single leader mean any number of instances can tick against one
 * PostgreSQL and every change is logged and commanded exactly once (docs/decisions).
 * Ticks run every `intervalMs` (default 15 s) and on `wake()` after a change; ticks never overlap
 * within an instance. The clock is injectable so tests can simulate a day without waiting.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { setpointOutbox } from '../db/schema.ts';
import type { LogKind } from '../heating/types.ts';
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
  /**
   * Batch transactions run at once per instance (default 3; each holds a pool connection).
   * The sink may therefore receive concurrent `send` calls.
   */
  concurrency?: number;
}

export interface TickResult {
  /** Units evaluated because they were due. */
  evaluated: number;
  /** Heating log entries written. */
  changes: number;
  /** Commands handed to the sink. */
  commands: number;
}

interface OutboxEntry {
  id: number;
  companyId: string;
  unitId: string;
  setpoint: number;
  wallControlMin: number | null;
  wallControlMax: number | null;
  ignoreWallControl: boolean;
  reason: LogKind;
  at: Date;
  /** A newer row for the same unit is pending: this setpoint is stale and is not sent. */
  superseded: boolean;
}

/**
 * Claims and deletes up to `limit` outbox rows in one statement (a throwing sink rolls the
 * delete back). A row with a newer pending row for its unit — in this batch or another
 * instance's — is marked superseded, so a device never gets an old setpoint after a new one
 * and no LoRaWAN downlink is spent on a value already replaced.
 */
async function claimOutbox(tx: Db, limit: number): Promise<OutboxEntry[]> {
  const result = await tx.execute(sql`
    with claimed as (
      select id from ${setpointOutbox} order by id limit ${limit} for update skip locked
    ), deleted as (
      delete from ${setpointOutbox} o using claimed c where o.id = c.id returning o.*
    )
    select d.*, exists (
      select 1 from ${setpointOutbox} n where n.unit_id = d.unit_id and n.id > d.id
    ) as superseded
    from deleted d order by d.id`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: String(r.company_id),
    unitId: String(r.unit_id),
    setpoint: Number(r.setpoint),
    wallControlMin: r.wall_control_min === null ? null : Number(r.wall_control_min),
    wallControlMax: r.wall_control_max === null ? null : Number(r.wall_control_max),
    ignoreWallControl: Boolean(r.ignore_wall_control),
    reason: r.reason as LogKind,
    at: new Date(r.at as string | Date),
    superseded: Boolean(r.superseded),
  }));
}

export class HeatingScheduler {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TickResult> | null = null;
  private again = false;
  private readonly planCache: PlanCache = new Map();

  constructor(private readonly options: HeatingSchedulerOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.intervalMs = options.intervalMs ?? 15_000;
    this.batchSize = options.batchSize ?? 1000;
    this.concurrency = options.concurrency ?? 3;
  }

  /** One full tick: apply every due unit, then send the pending commands. */
  async tick(): Promise<TickResult> {
    const now = this.now();
    const result: TickResult = { evaluated: 0, changes: 0, commands: 0 };
    await this.inParallel(async () => {
      for (;;) {
        const batch = await this.db.transaction(async (tx) => {
          const due = await claimDueUnits(tx, now, this.batchSize);
          const applied = await applyUnits(tx, due, now, undefined, this.planCache);
          return { due: due.length, applied: applied.length };
        });
        result.evaluated += batch.due;
        result.changes += batch.applied;
        if (batch.due < this.batchSize) return;
      }
    });
    result.commands = await this.drainOutbox();
    return result;
  }

  /**
   * Runs `concurrency` copies of a batch loop. SKIP LOCKED hands each its own rows, so they
   * share the work like separate instances would: while one waits for PostgreSQL another
   * resolves. A loop ends when it finds less than a full batch.
   */
  private async inParallel(loop: () => Promise<void>): Promise<void> {
    await Promise.all(Array.from({ length: this.concurrency }, loop));
  }

  /** Sends pending outbox rows, one command per device; returns the number of commands sent. */
  async drainOutbox(): Promise<number> {
    let sent = 0;
    await this.inParallel(async () => {
      for (;;) {
        const batch = await this.db.transaction(async (tx) => {
          const rows = await claimOutbox(tx, this.batchSize);
          if (rows.length === 0) return { rows: 0, commands: 0 };
          const devices = await this.options.devices.devicesOfUnits(
            [...new Set(rows.map((r) => r.unitId))],
            tx,
          );
          const commands: SetpointCommand[] = rows.flatMap((row) =>
            (row.superseded ? [] : (devices.get(row.unitId) ?? [])).map((deviceId) => ({
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
        if (batch.rows < this.batchSize) return;
      }
    });
    return sent;
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
