/**
 * Alert conditions, each opening, counting a repeat and resolving with hysteresis,
 * on PGlite and PostgreSQL, with a controlled clock.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alertEvents, alerts, devices, gateways, telemetry } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { evaluateAll } from './alert-evaluation.repository.ts';

const MIN = 60_000;
let t: TestApp;
let f: RegistryFixture;
const T0 = new Date('2026-11-23T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);

beforeAll(async () => {
  t = await buildTestApp();
  f = await seedRegistry(t.database.db);
});
afterAll(() => t.close());

const openAlerts = (kind: string) =>
  t.database.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.kind, kind as 'device_offline'), eq(alerts.state, 'open')));
const eventsOf = async (alertId: string) =>
  (await t.database.db.select().from(alertEvents).where(eq(alertEvents.alertId, alertId))).map((e) => e.type);

describe('device offline', () => {
  const id = 'e000000000000001';
  beforeEach(async () => {
    await t.database.db.delete(alerts);
    await t.database.db.delete(devices).where(eq(devices.id, id));
    await t.database.db.insert(devices).values({
      id,
      devEui: id,
      companyId: f.companyId,
      model: 'mclimate-vicki',
      unitId: f.unitId,
      createdAt: at(-600),
      lastSeen: at(-25),
    });
  });

  it('opens after three reporting intervals of silence, once, and resolves after staying clear', async () => {
    await evaluateAll(t.database.db, at(0));
    expect(await openAlerts('device_offline')).toEqual([]);
    await evaluateAll(t.database.db, at(6)); // 31 minutes silent: 3 × 10 minutes
    await evaluateAll(t.database.db, at(7));
    const [alert] = await openAlerts('device_offline');
    expect(alert).toMatchObject({ subject: 'device', subjectId: id, unitId: f.unitId, occurrences: 1 });
    expect(await openAlerts('device_offline')).toHaveLength(1);
    await t.database.db
      .update(devices)
      .set({ lastSeen: at(8) })
      .where(eq(devices.id, id));
    await evaluateAll(t.database.db, at(9));
    expect((await openAlerts('device_offline'))[0]?.clearSince?.toISOString()).toBe(at(9).toISOString());
    await evaluateAll(t.database.db, at(18)); // clear for 9 of 10 minutes: still open
    expect(await openAlerts('device_offline')).toHaveLength(1);
    await evaluateAll(t.database.db, at(19));
    expect(await openAlerts('device_offline')).toEqual([]);
    expect(await eventsOf(alert?.id ?? '')).toEqual(['opened', 'resolved']);
  });

  it('counts the condition coming back before the alert resolved as a repeat, not a new alert', async () => {
    await evaluateAll(t.database.db, at(6));
    await t.database.db
      .update(devices)
      .set({ lastSeen: at(6) })
      .where(eq(devices.id, id));
    await evaluateAll(t.database.db, at(7));
    await evaluateAll(t.database.db, at(37)); // silent again, 31 minutes
    const all = await t.database.db.select().from(alerts).where(eq(alerts.kind, 'device_offline'));
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ state: 'open', occurrences: 2, clearSince: null });
    expect(await eventsOf(all[0]?.id ?? '')).toEqual(['opened', 'repeated']);
  });

  it('waits for a device whose recent uplinks come more slowly than its model’s keep-alive', async () => {
    const times = [-240, -180, -120, -60].map((m) => at(m - 25));
    await t.database.db.insert(telemetry).values(
      times.map((time, fCnt) => ({
        devEui: id,
        time,
        fCnt,
        companyId: f.companyId,
        fPort: 1,
        roomTemperature: 20,
      })),
    );
    await evaluateAll(t.database.db, at(60)); // 85 minutes silent, but it reports hourly
    expect(await openAlerts('device_offline')).toEqual([]);
    await evaluateAll(t.database.db, at(160)); // 185 minutes: 3 × its hour
    expect(await openAlerts('device_offline')).toHaveLength(1);
    await t.database.db.delete(telemetry).where(eq(telemetry.devEui, id));
  });
});

describe('gateway offline and low battery', () => {
  it('opens for a silent gateway and a low battery, with the threshold and hysteresis of each', async () => {
    await t.database.db.delete(alerts);
    const [gateway] = await t.database.db
      .insert(gateways)
      .values({
        companyId: f.companyId,
        gatewayEui: 'aa555a0000000909',
        name: 'Dach',
        statsIntervalS: 30,
        lastSeen: at(-10),
      })
      .returning();
    const id = 'e000000000000002';
    await t.database.db.insert(devices).values({
      id,
      devEui: id,
      companyId: f.companyId,
      model: 'milesight-wt101',
      lastSeen: at(0),
      battery: 15,
      batteryUnit: '%',
    });
    await evaluateAll(t.database.db, at(0));
    expect((await openAlerts('gateway_offline')).map((a) => a.subjectId)).toEqual([gateway?.id]);
    const [battery] = await openAlerts('low_battery');
    expect(battery).toMatchObject({ subjectId: id, details: { battery: 15, unit: '%', threshold: 20 } });
    // 22 % is above the threshold but inside the 5 % margin: still low, nothing clears.
    await t.database.db.update(devices).set({ battery: 22 }).where(eq(devices.id, id));
    await evaluateAll(t.database.db, at(20));
    expect((await openAlerts('low_battery'))[0]?.clearSince).toBeNull();
    await t.database.db.update(devices).set({ battery: 90 }).where(eq(devices.id, id));
    await evaluateAll(t.database.db, at(21));
    await evaluateAll(t.database.db, at(31));
    expect(await openAlerts('low_battery')).toEqual([]);
  });
});
