/**
 * The one place the server's background work is declared and started (docs/architecture.md,
 * "Background jobs"). Every loop — the heating scheduler, the LoRaWAN side's resends and checks,
 * alert evaluation and mails, reports, feeds, weather, purges — is a `JobDefinition` with its name,
 * period, how it stays correct on several instances (`lock`) and what it works on (`claims`);
 * `main.ts` adds them and calls `start()` once.
 *
 * A job runs at start (unless `runAtStart: false`) and every `periodMs`; never two runs of one job
 * at once in a process; `runNow` asks for a run soon (after the running one, if any, so a change
 * made during a run is not missed). A failed run is logged and counted, and the next period tries
 * again. Each run is measured: `heizplan_job_runs_total`, `heizplan_job_duration_seconds` and
 * `heizplan_job_last_success_timestamp_seconds` in `/metrics`, and `status()` for the readiness
 * answer's detail.
 */
import type { JobHealth } from '@heizplan/contracts/health';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { jobDuration, jobLastSuccess, jobRuns } from '../metrics.ts';
import type { JobsStatus } from '../ports.ts';

/**
 * How a job stays correct when every instance runs it:
 * - `advisory lock`: one instance at a time takes a PostgreSQL advisory lock, the others skip;
 * - `skip locked rows`: each run claims its rows `for update skip locked`, so instances share them;
 * - `idempotent`: doing it twice does no harm (a purge, a partition ahead);
 * - `this instance`: the work is this process's own (its MQTT sessions, its outbox lease).
 */
export type JobLock = JobHealth['lock'];

export interface JobDefinition {
  /** Unique, lower case, as an operator reads it: 'heating scheduler'. */
  name: string;
  /** ms between the starts of two runs. */
  periodMs: number;
  lock: JobLock;
  /** What one run works on, in words: 'units whose next change is due'. */
  claims: string;
  /** One run; its result is ignored, a rejection is logged and counted. */
  run(): Promise<unknown>;
  /** Whether the first run starts with `start()` (default true). */
  runAtStart?: boolean;
}

/** One job as the readiness answer reports it (contracts `JobHealthSchema`). */
export type JobStatus = JobHealth;

export interface JobRegistryOptions {
  log: { error(obj: object, msg: string): void };
  now?: Clock;
}

interface Entry {
  definition: JobDefinition;
  timer?: ReturnType<typeof setInterval>;
  running: Promise<void> | null;
  again: boolean;
  runs: number;
  failures: number;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
}

export class JobRegistry implements JobsStatus {
  private readonly entries = new Map<string, Entry>();
  private started = false;
  private stopped = false;
  private readonly now: Clock;

  constructor(private readonly options: JobRegistryOptions) {
    this.now = options.now ?? systemClock;
  }

  /**
   * Declares jobs; before or after `start()` (added after it, they start at once).
   * @throws Error when a name is taken or a period is not a positive number of ms.
   */
  add(...definitions: JobDefinition[]): this {
    for (const definition of definitions) {
      if (this.entries.has(definition.name)) throw new Error(`job "${definition.name}" is declared twice`);
      if (!(definition.periodMs > 0)) throw new Error(`job "${definition.name}": period must be > 0 ms`);
      const entry: Entry = {
        definition,
        running: null,
        again: false,
        runs: 0,
        failures: 0,
        failingSince: null,
        lastSuccessAt: null,
        lastError: null,
      };
      this.entries.set(definition.name, entry);
      if (this.started && !this.stopped) this.schedule(entry);
    }
    return this;
  }

  /** Starts every declared job: a first run now (unless `runAtStart: false`), then each period. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const entry of this.entries.values()) this.schedule(entry);
  }

  /**
   * Asks for a run of `name` soon: now, or right after the running one; nothing before `start()`
   * or after `stop()`.
   * @throws Error for a name no job has.
   */
  runNow(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no job "${name}"`);
    // Before `start()` the first run is still to come; after `stop()` nothing runs.
    if (!this.started || this.stopped) return;
    this.trigger(entry);
  }

  /** Stops every period and waits for the runs in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const entry of this.entries.values()) {
      if (entry.timer) clearInterval(entry.timer);
      entry.timer = undefined;
      entry.again = false;
    }
    await Promise.all([...this.entries.values()].map((entry) => entry.running));
  }

  /** Every job with its counts, in the order they were declared. */
  status(): JobStatus[] {
    return [...this.entries.values()].map((entry) => ({
      name: entry.definition.name,
      periodSeconds: entry.definition.periodMs / 1000,
      lock: entry.definition.lock,
      claims: entry.definition.claims,
      running: entry.running !== null,
      runs: entry.runs,
      failures: entry.failures,
      failingSince: entry.failingSince?.toISOString() ?? null,
      lastSuccessAt: entry.lastSuccessAt?.toISOString() ?? null,
      lastError: entry.lastError,
    }));
  }

  private schedule(entry: Entry): void {
    const timer = setInterval(() => this.trigger(entry), entry.definition.periodMs);
    // A job never keeps the process alive: shutdown stops them, a test's end does too.
    timer.unref();
    entry.timer = timer;
    if (entry.definition.runAtStart !== false) this.trigger(entry);
  }

  private trigger(entry: Entry): void {
    if (entry.running !== null) {
      entry.again = true;
      return;
    }
    entry.running = this.runOnce(entry).finally(() => {
      entry.running = null;
      if (entry.again && !this.stopped) {
        entry.again = false;
        this.trigger(entry);
      }
    });
  }

  private async runOnce(entry: Entry): Promise<void> {
    const { name } = entry.definition;
    const done = jobDuration.startTimer({ job: name });
    try {
      await entry.definition.run();
      const at = this.now();
      entry.lastSuccessAt = at;
      entry.failingSince = null;
      entry.lastError = null;
      jobRuns.inc({ job: name, outcome: 'ok' });
      jobLastSuccess.set({ job: name }, at.getTime() / 1000);
    } catch (err) {
      entry.failures += 1;
      entry.failingSince ??= this.now();
      entry.lastError = err instanceof Error ? err.message : String(err);
      jobRuns.inc({ job: name, outcome: 'failed' });
      this.options.log.error({ err, job: name }, `${name} failed`);
    } finally {
      entry.runs += 1;
      done();
    }
  }
}
