/**
 * The demo's simulator after a restart: its valves keep the configuration they reported (a
 * profile once reached stays reached), and the downlinks the old simulated network server held
 * are marked failed so the next reconcile sends them again instead of waiting forever.
 */
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { devices, downlinks } from '../db/schema.ts';
import { mclimateVicki } from '../lorawan/codecs/mclimate-vicki.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../lorawan/embedded-broker.ts';
import { APPLICATION_ID, eventually, seedValves } from '../lorawan/test-fixture.ts';
import { runDemoSimulator } from './demo-simulator.ts';

describe('demo simulator after a restart', () => {
  let database: Database;
  let broker: EmbeddedBroker;

  beforeAll(async () => {
    database = await createTestDatabase();
    broker = await startEmbeddedBroker({ port: 0 });
  });
  afterAll(async () => {
    await broker.close();
    await database.close();
  });

  it('keeps each valve’s reported configuration and fails the downlinks the old network server held', async () => {
    const seeded = await seedValves(database.db, 2);
    const [locked, factory] = seeded.devEuis as [string, string];
    await database.db
      .update(devices)
      .set({ reportedConfig: { childLock: true } })
      .where(eq(devices.id, locked));
    // What the old network server held, by state: no clock decides it, so the stamps are a stated past.
    const before = new Date('2026-11-23T05:00:00Z');
    const downlink = (deviceId: string, state: 'sent' | 'acknowledged', publishedAt: Date | null) => ({
      companyId: seeded.companyId,
      unitId: seeded.unitIds[0],
      deviceId,
      devEui: deviceId,
      setpoint: 21,
      fPort: 1,
      payload: '0e15',
      state,
      reason: 'regular_plan',
      appliedAt: before,
      publishedAt,
    });
    const [held, delivered] = await database.db
      .insert(downlinks)
      .values([downlink(locked, 'sent', before), downlink(factory, 'acknowledged', before)])
      .returning({ id: downlinks.id });

    const uplinks = new Map<string, boolean | undefined>();
    const listener = await mqtt.connectAsync(broker.url, { protocolVersion: 4 });
    listener.on('message', (_topic, payload) => {
      const body = JSON.parse(payload.toString()) as {
        deviceInfo: { devEui: string };
        fPort: number;
        data: string;
      };
      const reading = mclimateVicki.decodeUplink(body.fPort, Buffer.from(body.data, 'base64'));
      uplinks.set(body.deviceInfo.devEui, reading.childLock);
    });
    await listener.subscribeAsync(`application/${APPLICATION_ID}/device/+/event/up`, { qos: 1 });
    const demo = await runDemoSimulator(database.db, {
      companyId: seeded.companyId,
      brokerUrl: broker.url,
      applicationId: APPLICATION_ID,
      onError: (err) => {
        throw err;
      },
    });
    try {
      await eventually('an uplink of each valve', () => uplinks.size === 2);
      expect(Object.fromEntries(uplinks)).toEqual({ [locked]: true, [factory]: false });
      const state = async (id: string | undefined) =>
        (
          await database.db
            .select()
            .from(downlinks)
            .where(eq(downlinks.id, id ?? ''))
        )[0]?.state;
      expect(await state(held?.id)).toBe('failed');
      expect(await state(delivered?.id)).toBe('acknowledged');
    } finally {
      await demo.stop();
      await listener.endAsync();
    }
  });
});
