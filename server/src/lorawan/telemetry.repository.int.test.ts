/**
 * The ingest's one statement per batch, on the database: what a valve answered is kept even when
 * a later uplink of the same batch answers nothing (a valve answers a query once, in the uplink
 * after the one that took it; a backlog after an outage brings several uplinks of one valve in one
 * batch).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import type { Reading } from './codecs/codec.ts';
import type { DecodedUplink } from './ingest.ts';
import { telemetryStore } from './telemetry.repository.ts';
import { seedValves } from './test-fixture.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

function uplink(devEui: string, companyId: string, time: string, fCnt: number, extra: Partial<Reading> = {}) {
  return {
    event: {
      kind: 'uplink',
      devEui,
      fCnt,
      fPort: 1,
      bytes: new Uint8Array(9),
      time: new Date(time),
      radio: { rssi: -80, snr: 7, gatewayIds: [] },
      spreadingFactor: 7,
    },
    device: { id: devEui, devEui, companyId, unitId: null, model: 'mclimate-vicki' as const },
    reading: { roomTemperature: 19.5, setpoint: 19, valveOpening: 20, errors: [], ...extra },
  } satisfies DecodedUplink;
}

const commit = (uplinks: DecodedUplink[]) =>
  telemetryStore(database.db).commit({ uplinks, statuses: [], downlinks: [], gateways: [] });

const deviceRow = async (id: string) =>
  (await database.db.select().from(devices).where(eq(devices.id, id)))[0];

describe('telemetry store', () => {
  it('keeps the answers of an earlier uplink of the batch when a later one answers nothing', async () => {
    const { companyId, devEuis } = await seedValves(database.db, 1);
    const vicki = devEuis[0] as string;
    await commit([
      uplink(vicki, companyId, '2026-11-22T05:00:00Z', 10, {
        firmware: '4.3',
        antiFreeze: { activation: 7, deactivation: 10, target: 8 },
        childLock: true,
      }),
      uplink(vicki, companyId, '2026-11-22T05:10:00Z', 11),
    ]);
    expect(await deviceRow(vicki)).toMatchObject({
      firmware: '4.3',
      antiFreeze: { activation: 7, deactivation: 10, target: 8 },
      reportedConfig: { childLock: true },
      lastSeen: new Date('2026-11-22T05:10:00Z'),
    });
  });

  it("keeps a relay controller's latest relay state with its time, never going backwards", async () => {
    const { companyId, devEuis } = await seedValves(database.db, 1);
    const device = devEuis[0] as string;
    const closed = { ro1Closed: true, ro2Closed: false };
    await commit([
      uplink(device, companyId, '2026-11-22T05:00:00Z', 1, {
        relays: { ro1Closed: false, ro2Closed: false },
      }),
      uplink(device, companyId, '2026-11-22T05:05:00Z', 2, { relays: closed }),
      uplink(device, companyId, '2026-11-22T05:10:00Z', 3),
    ]);
    expect(await deviceRow(device)).toMatchObject({
      relays: closed,
      relaysAt: new Date('2026-11-22T05:05:00Z'),
    });
    // A late uplink from before does not undo what a newer one reported.
    await commit([
      uplink(device, companyId, '2026-11-22T04:00:00Z', 0, { relays: { ro1Closed: false, ro2Closed: true } }),
    ]);
    expect(await deviceRow(device)).toMatchObject({
      relays: closed,
      relaysAt: new Date('2026-11-22T05:05:00Z'),
    });
  });

  it('takes the latest of two answers in one batch, field by field, and keeps what no uplink answered', async () => {
    const { companyId, devEuis } = await seedValves(database.db, 1);
    const vicki = devEuis[0] as string;
    await commit([
      uplink(vicki, companyId, '2026-11-22T04:00:00Z', 1, { firmware: '4.1', childLock: false }),
    ]);
    await commit([
      uplink(vicki, companyId, '2026-11-22T05:20:00Z', 3, {
        antiFreeze: { activation: 6, deactivation: 9, target: 7 },
      }),
      uplink(vicki, companyId, '2026-11-22T05:00:00Z', 2, {
        antiFreeze: { activation: 5, deactivation: 8, target: 6 },
        childLock: true,
      }),
    ]);
    expect(await deviceRow(vicki)).toMatchObject({
      firmware: '4.1',
      antiFreeze: { activation: 6, deactivation: 9, target: 7 },
      reportedConfig: { childLock: true },
      lastSeen: new Date('2026-11-22T05:20:00Z'),
    });
  });
});
