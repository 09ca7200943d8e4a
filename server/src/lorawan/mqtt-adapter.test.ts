import { once } from 'node:events';
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UplinkIngest } from './ingest.ts';
import { type LorawanAdapter, startLorawanAdapter } from './mqtt-adapter.ts';
import { ttsFormat } from './tts.ts';

describe('LoRaWAN MQTT adapter subscriptions', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  /** aedes, recording the QoS each subscription asks for. */
  async function broker() {
    const requested: number[] = [];
    const broker = await Aedes.createBroker({
      authorizeSubscribe: (_client, sub, done) => {
        requested.push(sub.qos);
        done(null, sub);
      },
    });
    const server = createServer(broker.handle).listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanup.push(
      () => new Promise<void>((resolve) => broker.close(() => resolve())),
      () => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    return { url: `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`, requested };
  }

  async function connect(url: string) {
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const format = ttsFormat({ appId: 'heizplan', tenant: 'ttn' });
    const ingest = new UplinkIngest({
      format,
      log,
      store: { devicesByDevEui: async () => new Map(), commit: async () => ({ inserted: 0 }) },
    });
    const adapter: LorawanAdapter = startLorawanAdapter({
      url,
      format,
      ingest,
      log,
      clientId: 'adapter-test',
    });
    cleanup.push(() => adapter.close());
    await adapter.ready;
    return log;
  }

  it('asks for QoS 1 on The Things Stack topics and says nothing when it is granted', async () => {
    const { url, requested } = await broker();
    const log = await connect(url);
    expect(requested).toEqual([1, 1]);
    expect(log.warn).not.toHaveBeenCalled();
  });
});
