/**
 * The heating scheduler (docs/architecture.md). Each tick
 * 1. reads the ids of the units due (`next_change_at <= now`) in id order and claims them in
 *    batches (an id range where they lie dense) with `FOR UPDATE SKIP LOCKED` (re-checking that
 *    each is still due),
 *    applies the engine to them and, in the same transaction, writes the log entries and unit
 *    updates and hands one command per device of each changed unit to the SetpointSink (a
 *    throwing sink rolls the batch back). Older outbox rows of those units are deleted first:
 *    they are superseded, and a drain holding them finishes (and sends) before the delete returns,
 *    so a device never gets an older setpoint after a newer one;
 * 2. drains the setpoint outbox, which API changes fill (they cannot reach the sink): claims and
 *    deletes rows (`FOR UPDATE SKIP LOCKED`), expands and sends them the same way; of several
 *    pending rows of one unit only the newest is sent.
 * Sending the scheduler's own changes directly instead of through the outbox halves the rows a
 * tick writes (docs/decisions/0015).
 * Row locks instead of a single leader mean any number of instances can tick against one
 * PostgreSQL and every change is logged and commanded exactly once (docs/decisions).
 * Ticks run every `intervalMs` (default 15 s) and when a change asks for one, as the job registry
 * runs the scheduler's `job()` (jobs/registry.ts `runNow`); ticks never overlap within an
 * instance. The clock is injectable so tests can simulate a day without waiting.
 */
import type { Db } from '../db/client.ts';
import type { JobDefinition } from '../jobs/registry.ts';
import { schedulerTickDuration, schedulerUnits } from '../metrics.ts';
import {
  claimOutbox,
  deleteOutboxOfUnits,
  dueUnits,
  insertOutbox,
  type PendingSetpoint,
} from './apply.repository.ts';
import { applyUnits } from './apply.ts';
import type { DeviceDirectory } from './device-directory.ts';
import { claimUnits } from './inputs.repository.ts';
import type { PlanCache } from './inputs.ts';
import type { SetpointCommand, SetpointSink } from './setpoint-sink.ts';

/** The scheduler's name in the job registry; `runNow` with it asks for a tick. */
export const HEATING_SCHEDULER_JOB = 'heating scheduler';

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
  /** Units per transaction; default 5000 (bench: fewer, larger statements beat more, smaller ones). */
  batchSize?: number;
  /**
   * Batch transactions run at once per instance (default 2, one per core of the target machine;
   * each holds a pool connection).
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

/** One command per device of each setpoint's unit. */
function commandsFor(setpoints: PendingSetpoint[], devices: Map<string, string[]>): SetpointCommand[] {
  return setpoints.flatMap((row) =>
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
}

export class HeatingScheduler {
  private readonly db: Db;
  private readonly now: () => Date;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly planCache: PlanCache = new Map();

  constructor(private readonly options: HeatingSchedulerOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.intervalMs = options.intervalMs ?? 15_000;
    this.batchSize = options.batchSize ?? 5000;
    this.concurrency = options.concurrency ?? 2;
  }

  /** One full tick: apply every due unit, then send the pending commands. */
  async tick(): Promise<TickResult> {
    const timed = schedulerTickDuration.startTimer();
    const now = this.now();
    const result: TickResult = { evaluated: 0, changes: 0, commands: 0 };
    const { ids: due, unitCount } = await dueUnits(this.db, now);
    // The sink (the downlink queue, on this thread) starts recording once every batch is handed
    // over: the batches hold their units' row locks, the valves take downlinks only at their next
    // uplink anyway (decision 0073).
    const release = due.length > 0 ? this.options.sink.hold?.() : undefined;
    try {
      await this.tickBatches(due, unitCount, now, result);
    } finally {
      release?.();
    }
    result.commands += await this.drainOutbox();
    timed();
    schedulerUnits.inc({ result: 'evaluated' }, result.evaluated);
    schedulerUnits.inc({ result: 'changed' }, result.changes);
    return result;
  }

  /**
   * Applies the due units `due` (ids in uuid order, of `unitCount` units in all) in batches,
   * `concurrency` transactions at a time.
   */
  private async tickBatches(due: string[], unitCount: number, now: Date, result: TickResult): Promise<void> {
    await this.inParallel(async () => {
      for (let ids = due.splice(0, this.batchSize); ids.length > 0; ids = due.splice(0, this.batchSize)) {
        const batch = await this.db.transaction(async (tx) => {
          const claimed = await claimUnits(tx, ids, now, unitCount);
          let commands = 0;
          const applied = await applyUnits(tx, claimed, now, undefined, this.planCache, async (setpoints) => {
            commands += await this.sendNow(tx, setpoints);
          });
          return { claimed: claimed.length, applied: applied.length, commands };
        });
        result.evaluated += batch.claimed;
        result.changes += batch.applied;
        result.commands += batch.commands;
      }
    });
  }

  /**
   * Sends the setpoints of units locked in `tx`, replacing their older outbox rows. When the sink
   * fails they go to the outbox instead, so the change still commits and the drain retries them.
   */
  private async sendNow(tx: Db, setpoints: PendingSetpoint[]): Promise<number> {
    const unitIds = setpoints.map((s) => s.unitId);
    await deleteOutboxOfUnits(tx, unitIds);
    const commands = commandsFor(setpoints, await this.options.devices.devicesOfUnits(unitIds, tx));
    if (commands.length === 0) return 0;
    try {
      await this.options.sink.send(commands);
      return commands.length;
    } catch (err) {
      this.options.logger.error({ err, commands: commands.length }, 'setpoint sink failed; queued for retry');
      await insertOutbox(tx, setpoints);
      return 0;
    }
  }

  /**
   * Runs `concurrency` copies of a batch loop: while one waits for PostgreSQL another resolves.
   * The tick's loops take batches of the due ids in turn; the drain's share rows through
   * SKIP LOCKED, like separate instances would, and end when they find less than a full batch.
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
          const commands = commandsFor(
            rows.filter((row) => !row.superseded),
            devices,
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

  /**
   * The scheduler as a job of the registry: a tick every `intervalMs` and one right away at start,
   * for the catch-up after downtime. A failed tick is logged by the registry and retried.
   */
  job(): JobDefinition {
    return {
      name: HEATING_SCHEDULER_JOB,
      periodMs: this.intervalMs,
      lock: 'skip locked rows',
      claims: 'units whose next setpoint change is due, then the setpoint outbox',
      run: () => this.tick(),
    };
  }
}
