import { createServer } from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';

const brokers: EmbeddedBroker[] = [];
afterEach(async () => {
  await Promise.all(brokers.splice(0).map((b) => b.close()));
});

describe('startEmbeddedBroker', () => {
  it('takes a free port when the preferred one is taken (Mosquitto on 1883)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const broker = await startEmbeddedBroker({ port: taken });
      brokers.push(broker);
      expect(broker.port).not.toBe(taken);
      expect(broker.url).toBe(`mqtt://127.0.0.1:${broker.port}`);
    } finally {
      blocker.close();
    }
  });

  it('delivers a QoS 1 message queued for an offline persistent session after a restart', async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    brokers.push(broker);
    const options = { protocolVersion: 4 as const, clean: false, reconnectPeriod: 50 };
    const subscriber = await mqtt.connectAsync(broker.url, { ...options, clientId: 'eb-sub' });
    await subscriber.subscribeAsync('t/#', { qos: 1 });
    await subscriber.endAsync();
    const publisher = await mqtt.connectAsync(broker.url, { ...options, clientId: 'eb-pub' });
    await publisher.publishAsync('t/1', 'kept', { qos: 1 });
    await publisher.endAsync();

    await broker.restart();

    // Handler attached before connecting: the queued message may arrive with the CONNACK.
    const again = mqtt.connect(broker.url, { ...options, clientId: 'eb-sub' });
    const message = await new Promise<string>((resolve) =>
      again.on('message', (_t, p) => resolve(p.toString())),
    );
    expect(message).toBe('kept');
    await again.endAsync();
  });
});
