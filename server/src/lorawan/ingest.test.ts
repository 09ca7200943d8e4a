import { describe, expect, it, vi } from 'vitest';
import { chirpstackFormat } from './chirpstack.ts';
import { type DeviceRef, type IngestBatch, type IngestStore, UplinkIngest } from './ingest.ts';
import { vickiUplink } from './test-fixture.ts';

const device = (devEui: string): DeviceRef => ({
  id: devEui,
  devEui,
  companyId: 'c1',
  unitId: 'u1',
  model: 'mclimate-vicki',
});

/** A store that records batches; `fail` makes the next commits throw. */
function memoryStore(known: string[]) {
  const batches: IngestBatch[] = [];
  const lookups: string[][] = [];
  let failures = 0;
  const store: IngestStore = {
    async devicesByDevEui(devEuis) {
      lookups.push(devEuis);
      return new Map(devEuis.filter((d) => known.includes(d)).map((d) => [d, device(d)]));
    },
    async commit(batch) {
      if (failures > 0) {
        failures--;
        throw new Error('connection reset');
      }
      batches.push(batch);
      return { inserted: batch.uplinks.filter((u) => u.reading).length };
    },
  };
  return { store, batches, lookups, fail: (n: number) => (failures = n) };
}

const log = () => ({ warn: vi.fn(), error: vi.fn() });
const A = '70b3d52dd3000001';

describe('UplinkIngest', () => {
  it('acknowledges in arrival order, only after the batch holding the message committed', async () => {
    const { store, batches } = memoryStore([A]);
    const ingest = new UplinkIngest({
      format: chirpstackFormat({ applicationId: 'a' }),
      store,
      log: log(),
      maxBatch: 3,
    });
    const acked: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const m = vickiUplink(A, i);
      ingest.accept(m.topic, m.payload, () => acked.push(i));
    }
    expect(acked).toEqual([]);
    await ingest.drain();
    expect(acked).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(batches.map((b) => b.uplinks.map((u) => u.event.fCnt))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(batches[0]?.uplinks[0]?.reading).toMatchObject({ setpoint: 21, valveOpening: 40 });
  });

  it('keeps a failed batch unacknowledged and commits it on retry', async () => {
    const { store, batches, fail } = memoryStore([A]);
    const logger = log();
    const ingest = new UplinkIngest({
      format: chirpstackFormat({ applicationId: 'a' }),
      store,
      log: logger,
      retryMs: 1,
    });
    fail(2);
    const acked: number[] = [];
    for (const i of [1, 2]) {
      const m = vickiUplink(A, i);
      ingest.accept(m.topic, m.payload, () => acked.push(i));
    }
    await ingest.drain();
    expect(ingest.metrics.commitFailures).toBe(2);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(acked).toEqual([1, 2]);
    expect(batches.flatMap((b) => b.uplinks.map((u) => u.event.fCnt))).toEqual([1, 2]);
  });

  it('acknowledges poison messages and logs each problem once per source per hour', async () => {
    const { store } = memoryStore([A]);
    const logger = log();
    let now = 0;
    const ingest = new UplinkIngest({
      format: chirpstackFormat({ applicationId: 'a' }),
      store,
      log: logger,
      now: () => now,
    });
    const unknown = vickiUplink('70b3d52dd3009999', 1);
    const acks = vi.fn();
    for (const t of [0, 59 * 60_000, 61 * 60_000]) {
      now = t;
      ingest.accept(unknown.topic, unknown.payload, acks);
      ingest.accept(unknown.topic.replace('9999', '0001'), Buffer.from('not json'), acks);
      await ingest.drain();
    }
    expect(acks).toHaveBeenCalledTimes(6);
    expect(ingest.metrics).toMatchObject({ unknownDevice: 3, malformed: 3, inserted: 0 });
    expect(logger.warn.mock.calls.map(([o]) => `${o.kind}@${o.source}`)).toEqual([
      'malformed@70b3d52dd3000001',
      'unknownDevice@70b3d52dd3009999',
      'malformed@70b3d52dd3000001',
      'unknownDevice@70b3d52dd3009999',
    ]);
  });

  it('looks a DevEUI up once per cache period, unknown ones too', async () => {
    const { store, lookups } = memoryStore([A]);
    let now = 0;
    const ingest = new UplinkIngest({
      format: chirpstackFormat({ applicationId: 'a' }),
      store,
      log: log(),
      deviceCacheMs: 10_000,
      now: () => now,
    });
    const unknown = '70b3d52dd3009999';
    const send = async (fCnt: number) => {
      for (const devEui of [A, unknown]) {
        const m = vickiUplink(devEui, fCnt);
        ingest.accept(m.topic, m.payload, () => {});
      }
      await ingest.drain();
    };
    await send(1);
    now = 9_999;
    await send(2);
    expect(lookups).toEqual([[A, unknown]]);
    now = 10_000;
    await send(3);
    expect(lookups).toEqual([
      [A, unknown],
      [A, unknown],
    ]);
    expect(ingest.metrics).toMatchObject({ inserted: 3, unknownDevice: 3 });
  });

  it('commits what arrived during a commit right after it, without lingering', async () => {
    let release: () => void = () => {};
    const commits: number[] = [];
    const ingest = new UplinkIngest({
      format: chirpstackFormat({ applicationId: 'a' }),
      store: {
        devicesByDevEui: async (devEuis) => new Map(devEuis.map((d) => [d, device(d)])),
        commit: async (batch) => {
          commits.push(batch.uplinks.length);
          if (commits.length === 1) await new Promise<void>((resolve) => (release = resolve));
          return { inserted: batch.uplinks.length };
        },
      },
      log: log(),
      lingerMs: 60_000,
      maxBatch: 2,
    });
    const acked: number[] = [];
    const send = (fCnt: number) => {
      const m = vickiUplink(A, fCnt);
      ingest.accept(m.topic, m.payload, () => acked.push(fCnt));
    };
    send(1);
    send(2);
    await vi.waitFor(() => expect(commits).toEqual([2]));
    send(3);
    release();
    // The linger (60 s) would time the test out; the busy pipeline flushes fCnt 3 at once.
    await vi.waitFor(() => expect(acked).toEqual([1, 2, 3]));
    expect(commits).toEqual([2, 1]);
  });
});
