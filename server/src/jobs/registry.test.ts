import { afterEach, describe, expect, it, vi } from 'vitest';
import { testClock } from '../../test/clock.ts';
import { registry as metrics } from '../metrics.ts';
import { type JobDefinition, JobRegistry } from './registry.ts';

/** A run the test ends by hand, to see what happens while it runs. */
function gate() {
  let open: () => void = () => {};
  let fail: (err: Error) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const job = (over: Partial<JobDefinition> & Pick<JobDefinition, 'name' | 'run'>): JobDefinition => ({
  periodMs: 60_000,
  lock: 'idempotent',
  claims: 'nothing',
  ...over,
});

const log = () => ({ error: vi.fn() });

/** Lets the registry's promise chains settle (no timers involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('JobRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each job at start and then every period, never two runs of one job at once', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const registry = new JobRegistry({ log: log() })
      .add(job({ name: 'a', periodMs: 1000, run: async () => runs.push('a') }))
      .add(job({ name: 'b', periodMs: 5000, runAtStart: false, run: async () => runs.push('b') }));
    registry.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs.filter((r) => r === 'a')).toHaveLength(6);
    expect(runs.filter((r) => r === 'b')).toHaveLength(1);
    await registry.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toHaveLength(7);
  });

  it('runs again right after the running run when asked during it, once for several asks', async () => {
    const first = gate();
    let calls = 0;
    const registry = new JobRegistry({ log: log() }).add(
      job({
        name: 'heating scheduler',
        run: async () => {
          calls += 1;
          if (calls === 1) await first.promise;
        },
      }),
    );
    registry.start();
    registry.runNow('heating scheduler');
    registry.runNow('heating scheduler');
    expect(calls).toBe(1);
    expect(registry.status()[0]?.running).toBe(true);
    first.open();
    await vi.waitFor(() => expect(registry.status()[0]).toMatchObject({ runs: 2, running: false }));
    expect(calls).toBe(2);
    await registry.stop();
  });

  it('logs and counts a failed run, says since when it fails, and clears that on success', async () => {
    const clock = testClock('2026-12-02T08:00:00Z');
    const logger = log();
    let fail = true;
    const registry = new JobRegistry({ log: logger, now: clock.now }).add(
      job({
        name: 'alert mail',
        lock: 'advisory lock',
        claims: 'alerts whose mail is due',
        run: async () => {
          if (fail) throw new Error('smtp down');
        },
      }),
    );
    registry.start();
    await settle();
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ job: 'alert mail' }),
      'alert mail failed',
    );
    expect(registry.status()).toEqual([
      {
        name: 'alert mail',
        periodSeconds: 60,
        lock: 'advisory lock',
        claims: 'alerts whose mail is due',
        running: false,
        runs: 1,
        failures: 1,
        failingSince: '2026-12-02T08:00:00.000Z',
        lastSuccessAt: null,
        lastError: 'smtp down',
      },
    ]);
    clock.advance(60_000);
    registry.runNow('alert mail');
    await settle();
    expect(registry.status()[0]?.failingSince).toBe('2026-12-02T08:00:00.000Z');
    fail = false;
    clock.advance(60_000);
    registry.runNow('alert mail');
    await settle();
    expect(registry.status()[0]).toMatchObject({
      runs: 3,
      failures: 2,
      failingSince: null,
      lastError: null,
      lastSuccessAt: '2026-12-02T08:02:00.000Z',
    });
    const text = await metrics.metrics();
    expect(text).toContain('heizplan_job_runs_total{job="alert mail",outcome="failed"} 2');
    expect(text).toContain('heizplan_job_runs_total{job="alert mail",outcome="ok"} 1');
    expect(text).toContain(
      `heizplan_job_last_success_timestamp_seconds{job="alert mail"} ${Date.parse('2026-12-02T08:02:00Z') / 1000}`,
    );
    await registry.stop();
  });

  it('waits on stop for the run in progress, and runs nothing after', async () => {
    const running = gate();
    let calls = 0;
    const registry = new JobRegistry({ log: log() }).add(
      job({
        name: 'rollups',
        run: async () => {
          calls += 1;
          await running.promise;
        },
      }),
    );
    registry.start();
    let stopped = false;
    const stopping = registry.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    running.open();
    await stopping;
    registry.runNow('rollups');
    expect(calls).toBe(1);
  });

  it('refuses a name declared twice, a period that is not positive and an unknown job', () => {
    const registry = new JobRegistry({ log: log() }).add(job({ name: 'a', run: async () => {} }));
    expect(() => registry.add(job({ name: 'a', run: async () => {} }))).toThrow('job "a" is declared twice');
    expect(() => registry.add(job({ name: 'b', periodMs: 0, run: async () => {} }))).toThrow(
      'job "b": period must be > 0 ms',
    );
    expect(() => registry.runNow('c')).toThrow('no job "c"');
  });
});
