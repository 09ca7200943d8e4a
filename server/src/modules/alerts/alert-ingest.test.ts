/**
 * The alert conditions decided on ingest: device faults per code, open windows
 * reported or inferred, the onsets of frost, "not warming" and "far from setpoint" that open
 * alerts once they lasted, setpoints not delivered, and kinds a company switched off.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alertOnsets, alertSettings, alerts, devices, downlinks, telemetry, units } from '../../db/schema.ts';
import type { Reading } from '../../lorawan/codecs/codec.ts';
import type { DecodedUplink } from '../../lorawan/ingest.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { evaluateAll } from './alert-evaluation.repository.ts';
import { evaluateUplinks, uplinkAlerts } from './alert-ingest.ts';

const MIN = 60_000;
const DEV = 'f000000000000001';
const T0 = new Date('2026-11-23T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);

let t: TestApp;
let f: RegistryFixture;
let fCnt = 0;

beforeAll(async () => {
  t = await buildTestApp();
  f = await seedRegistry(t.database.db);
});
afterAll(() => t.close());
beforeEach(async () => {
  const db = t.database.db;
  await db.delete(alerts);
  await db.delete(alertOnsets);
  await db.delete(alertSettings);
  await db.delete(telemetry);
  await db.delete(downlinks);
  await db.delete(devices);
  await db
    .insert(devices)
    .values({ id: DEV, devEui: DEV, companyId: f.companyId, model: 'mclimate-vicki', unitId: f.unitId });
});

/** An uplink of the test valve at `minutes` with `reading`, stored like the ingest stores it. */
async function uplink(minutes: number, reading: Partial<Reading>): Promise<DecodedUplink> {
  const time = at(minutes);
  fCnt += 1;
  await t.database.db.insert(telemetry).values({
    devEui: DEV,
    time,
    fCnt,
    deviceId: DEV,
    companyId: f.companyId,
    unitId: f.unitId,
    fPort: 1,
    roomTemperature: reading.roomTemperature ?? null,
    setpointReported: reading.setpoint ?? null,
    valveOpening: reading.valveOpening ?? null,
  });
  await t.database.db.update(devices).set({ lastSeen: time }).where(eq(devices.id, DEV));
  return {
    event: {
      kind: 'uplink',
      devEui: DEV,
      fCnt,
      fPort: 1,
      bytes: new Uint8Array([1]),
      time,
      radio: { gatewayIds: [] },
    },
    device: { id: DEV, devEui: DEV, companyId: f.companyId, unitId: f.unitId, model: 'mclimate-vicki' },
    reading: { errors: [], ...reading },
  };
}

const open = async (kind: string) =>
  t.database.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.kind, kind as 'device_fault'), eq(alerts.state, 'open')));

describe('device faults', () => {
  it('opens one alert per fault code and resolves a code once it stayed clear', async () => {
    await evaluateUplinks(
      t.database.db,
      [await uplink(0, { errors: ['motorError', 'calibrationFailed'] })],
      at(0),
    );
    expect((await open('device_fault')).map((a) => a.code).sort()).toEqual([
      'calibrationFailed',
      'motorError',
    ]);
    await evaluateUplinks(t.database.db, [await uplink(10, { errors: ['motorError'] })], at(10));
    const calibration = (await open('device_fault')).find((a) => a.code === 'calibrationFailed');
    expect(calibration?.clearSince?.toISOString()).toBe(at(10).toISOString());
    await evaluateAll(t.database.db, at(21));
    expect((await open('device_fault')).map((a) => a.code)).toEqual(['motorError']);
  });
});

describe('open windows', () => {
  it('opens for a window the device reports and clears when it is closed', async () => {
    await evaluateUplinks(t.database.db, [await uplink(0, { openWindow: true, roomTemperature: 19 })], at(0));
    expect((await open('open_window'))[0]?.details).toMatchObject({ reported: true });
    await evaluateUplinks(
      t.database.db,
      [await uplink(10, { openWindow: false, roomTemperature: 20 })],
      at(10),
    );
    expect((await open('open_window'))[0]?.clearSince).not.toBeNull();
  });

  it('infers an open window from a sharp drop while the valve heats, and not without heating', async () => {
    await evaluateUplinks(
      t.database.db,
      [await uplink(0, { roomTemperature: 21, setpoint: 21, valveOpening: 40 })],
      at(0),
    );
    await evaluateUplinks(
      t.database.db,
      [await uplink(10, { roomTemperature: 20.5, setpoint: 21, valveOpening: 60 })],
      at(10),
    );
    expect(await open('open_window')).toEqual([]);
    await evaluateUplinks(
      t.database.db,
      [await uplink(20, { roomTemperature: 18.8, setpoint: 21, valveOpening: 90 })],
      at(20),
    );
    expect((await open('open_window'))[0]?.details).toMatchObject({
      reported: false,
      room: 18.8,
      previousRoom: 20.5,
    });
  });
});

describe('rooms that do not warm', () => {
  it('opens "not warming" only after the condition lasted, on the unit, and drops the onset when it ends', async () => {
    const cold = { roomTemperature: 17, setpoint: 21, valveOpening: 95 };
    await evaluateUplinks(t.database.db, [await uplink(0, cold)], at(0));
    await evaluateUplinks(t.database.db, [await uplink(60, cold)], at(60));
    await evaluateAll(t.database.db, at(119));
    expect(await open('not_warming')).toEqual([]);
    await evaluateAll(t.database.db, at(121));
    const [alert] = await open('not_warming');
    expect(alert).toMatchObject({ subject: 'unit', subjectId: f.unitId, unitId: f.unitId });
    expect(alert?.details).toMatchObject({ room: 17, setpoint: 21, valve: 95 });
    await evaluateUplinks(
      t.database.db,
      [await uplink(130, { roomTemperature: 20, setpoint: 21, valveOpening: 95 })],
      at(130),
    );
    expect(await t.database.db.select().from(alertOnsets)).toEqual([]);
    await evaluateAll(t.database.db, at(131));
    await evaluateAll(t.database.db, at(142));
    expect(await open('not_warming')).toEqual([]);
  });

  it('opens a frost alert once the room stayed below 5 °C for 15 minutes, not waiting for "not warming"', async () => {
    // The demo's tea kitchen: 2 °C with its valve wide open, for 17 minutes without an alert.
    const freezing = { roomTemperature: 2, setpoint: 21, valveOpening: 100 };
    await evaluateUplinks(
      t.database.db,
      [await uplink(0, { roomTemperature: 5, setpoint: 21, valveOpening: 100 })],
      at(0),
    );
    await evaluateUplinks(t.database.db, [await uplink(2, freezing)], at(2));
    await evaluateAll(t.database.db, at(16));
    expect(await open('frost')).toEqual([]);
    await evaluateUplinks(t.database.db, [await uplink(12, freezing)], at(12));
    await evaluateAll(t.database.db, at(17.5));
    const [alert] = await open('frost');
    expect(alert).toMatchObject({ subject: 'unit', subjectId: f.unitId, unitId: f.unitId });
    expect(alert?.details).toMatchObject({ room: 2, valve: 100 });
    const details = (alert?.details ?? {}) as { since?: string };
    expect(new Date(String(details.since)).toISOString()).toBe(at(2).toISOString());
    expect(await open('not_warming')).toEqual([]);
    // Back above 5 °C: the onset goes, and the alert resolves after the clear minutes.
    await evaluateUplinks(
      t.database.db,
      [await uplink(22, { roomTemperature: 6, setpoint: 21, valveOpening: 100 })],
      at(22),
    );
    await evaluateAll(t.database.db, at(23));
    await evaluateAll(t.database.db, at(34));
    expect(await open('frost')).toEqual([]);
  });

  it('opens "far from setpoint" after the set time from the unit’s own setpoint', async () => {
    await t.database.db.update(units).set({ setpoint: 21 }).where(eq(units.id, f.unitId));
    await t.database.db.insert(alertSettings).values({
      companyId: f.companyId,
      settings: { farFromSetpointKelvin: 2, farFromSetpointMinutes: 30 },
    });
    await evaluateUplinks(t.database.db, [await uplink(0, { roomTemperature: 24 })], at(0));
    await evaluateAll(t.database.db, at(31));
    expect((await open('far_from_setpoint'))[0]?.details).toMatchObject({ room: 24, setpoint: 21 });
  });
});

describe('setpoints not delivered and switched-off kinds', () => {
  it('opens for a downlink pending past the limit or failed, and clears once a newer one arrived', async () => {
    const row = {
      companyId: f.companyId,
      unitId: f.unitId,
      deviceId: DEV,
      devEui: DEV,
      setpoint: 21,
      fPort: 1,
      payload: '00',
      reason: 'regular_plan',
    };
    await t.database.db
      .insert(downlinks)
      .values({ ...row, appliedAt: at(0), createdAt: at(0), state: 'sent' });
    await evaluateAll(t.database.db, at(59));
    expect(await open('setpoint_not_delivered')).toEqual([]);
    await evaluateAll(t.database.db, at(61));
    expect((await open('setpoint_not_delivered'))[0]).toMatchObject({ subjectId: DEV });
    await t.database.db
      .insert(downlinks)
      .values({ ...row, setpoint: 20, appliedAt: at(62), createdAt: at(62), state: 'acknowledged' });
    await evaluateAll(t.database.db, at(63));
    expect((await open('setpoint_not_delivered'))[0]?.clearSince).not.toBeNull();
  });

  it('opens nothing for a kind the company switched off', async () => {
    await t.database.db
      .insert(alertSettings)
      .values({ companyId: f.companyId, settings: { enabled: ['device_offline'] } });
    await evaluateUplinks(
      t.database.db,
      [await uplink(0, { errors: ['motorError'], openWindow: true })],
      at(0),
    );
    expect(await t.database.db.select().from(alerts)).toEqual([]);
  });
});

describe('evaluating committed batches', () => {
  it('merges batches that arrive during an evaluation and logs a failure instead of throwing', async () => {
    const errors: object[] = [];
    const runner = uplinkAlerts(t.database.db, { error: (obj) => errors.push(obj) });
    runner.push([await uplink(0, { errors: ['motorError'] })]);
    runner.push([await uplink(1, { errors: ['brokenSensor'] })]);
    await runner.idle();
    expect((await open('device_fault')).map((a) => a.code).sort()).toEqual(['brokenSensor', 'motorError']);
    expect(errors).toEqual([]);
  });
});
