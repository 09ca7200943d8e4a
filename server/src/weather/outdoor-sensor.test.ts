/**
 * A building's own outdoor sensor (decision 0057): only an unassigned sensor of the company may
 * be chosen; the sync stores its hourly means (a building without coordinates too), which win over
 * the provider's values of their hours, also on later provider syncs; the building's current
 * outdoor temperature then is the sensor's; another sensor forgets the old one's hours.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { buildingOutdoorTemperatures, buildings, devices, telemetry } from '../db/schema.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';
import { syncOutdoorDue } from './outdoor-sync.ts';
import { brightSky } from './providers.ts';
import { startWeatherStandIn, type WeatherStandIn } from './weather-stand-in.test-kit.ts';

const HOUR = 3_600_000;
const quiet = { warn: () => {} };
const SENSOR = 'a81758fffe0000a1';
const OTHER_SENSOR = 'a81758fffe0000a2';
const ASSIGNED_SENSOR = 'a81758fffe0000a3';
const VALVE = '70b3d57ed0000a04';
const FOREIGN_SENSOR = 'a81758fffe0000a5';

describe("a building's outdoor sensor", () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let standIn: WeatherStandIn;
  const startHour = Math.floor(testInstant('2026-12-02T12:00:00+01:00').getTime() / HOUR) * HOUR;
  // The app and the sync both stand at 40 minutes past the start hour.
  const now = new Date(startHour + 40 * 60_000);
  const clock = testClock(now);
  const call: TestApp['call'] = (...args) => t.call(...args);
  const sync = () => syncOutdoorDue(t.database.db, () => brightSky(standIn.url), quiet, now);
  const rowsOf = (buildingId: string, kind?: 'sensor' | 'observed' | 'forecast') =>
    t.database.db
      .select()
      .from(buildingOutdoorTemperatures)
      .where(
        and(
          eq(buildingOutdoorTemperatures.buildingId, buildingId),
          kind ? eq(buildingOutdoorTemperatures.kind, kind) : undefined,
        ),
      )
      .orderBy(asc(buildingOutdoorTemperatures.at));
  /** Readings of `deviceId` at `minutes` after the hour `hoursAgo` before the start hour. */
  const readings = (deviceId: string, values: [hoursAgo: number, minute: number, celsius: number][]) =>
    t.database.db.insert(telemetry).values(
      values.map(([hoursAgo, minute, roomTemperature], fCnt) => ({
        devEui: deviceId,
        deviceId,
        companyId,
        time: new Date(startHour - hoursAgo * HOUR + minute * 60_000),
        fCnt,
        fPort: 5,
        roomTemperature,
      })),
    );
  const dueNow = (id: string) =>
    t.database.db.update(buildings).set({ outdoorSyncAt: null }).where(eq(buildings.id, id));

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    standIn = await startWeatherStandIn(() => now);
    const seeded = await seedCompanies(t.database.db);
    companyId = seeded.companyId;
    c = `/api/companies/${companyId}`;
    const unit = (await call('POST', `${c}/units`, { name: 'Raum 1' })).json();
    await t.database.db.insert(devices).values([
      { id: SENSOR, devEui: SENSOR, companyId, model: 'elsys-ers' },
      { id: OTHER_SENSOR, devEui: OTHER_SENSOR, companyId, model: 'elsys-ers' },
      { id: ASSIGNED_SENSOR, devEui: ASSIGNED_SENSOR, companyId, model: 'elsys-ers', unitId: unit.id },
      { id: VALVE, devEui: VALVE, companyId, model: 'mclimate-vicki' },
      { id: FOREIGN_SENSOR, devEui: FOREIGN_SENSOR, companyId: seeded.otherCompanyId, model: 'elsys-ers' },
    ]);
  });
  afterAll(async () => {
    await standIn.close();
    await t.close();
  });

  it('lists the unassigned sensors a building may use', async () => {
    const res = await call('GET', `${c}/devices?unassigned=true&kind=sensor&sort=id&order=asc`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((d: { id: string }) => d.id)).toEqual([SENSOR, OTHER_SENSOR]);
  });

  it("refuses a valve, an assigned sensor and another company's device", async () => {
    const refusals = [
      [VALVE, 'outdoor_sensor_not_sensor'],
      [ASSIGNED_SENSOR, 'outdoor_sensor_assigned'],
      [FOREIGN_SENSOR, 'device_not_found'],
      ['0000000000000000', 'device_not_found'],
    ] as const;
    for (const [outdoorSensorId, code] of refusals) {
      const res = await call('POST', `${c}/buildings`, { name: 'Halle', state: 'BY', outdoorSensorId });
      expect(res.statusCode, outdoorSensorId).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({
        code,
        errors: [expect.objectContaining({ field: 'body.outdoorSensorId', code })],
      });
    }
    const plain = (await call('POST', `${c}/buildings`, { name: 'Halle', state: 'BY' })).json();
    const patched = await call('PATCH', `${c}/buildings/${plain.id}`, { outdoorSensorId: VALVE });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().code).toBe('outdoor_sensor_not_sensor');
    // Another company's device is no different from an unknown one: no existence oracle.
    const foreign = await call('PATCH', `${c}/buildings/${plain.id}`, { outdoorSensorId: FOREIGN_SENSOR });
    expect(foreign.json().detail).toBe('Device not found.');
    expect((await call('DELETE', `${c}/buildings/${plain.id}`)).statusCode).toBe(204);
  });

  it('stores hourly means without coordinates and shows the current value as the sensor', async () => {
    await readings(SENSOR, [
      [2, 10, 3],
      [2, 50, 4],
      [1, 5, 5],
      [1, 25, 6],
      [1, 45, 7],
      [0, 15, 7.5],
      [0, 30, 8.5],
    ]);
    await readings(OTHER_SENSOR, [[0, 20, -10]]);
    const created = await call('POST', `${c}/buildings`, {
      name: 'Hof',
      state: 'BY',
      outdoorSensorId: SENSOR,
    });
    expect(created.statusCode, created.body).toBe(201);
    const building = created.json();
    expect(building).toMatchObject({ outdoorSensorId: SENSOR, latitude: null, outdoor: null });

    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    // No coordinates: no provider request.
    expect(standIn.requests).toEqual([]);
    const rows = await rowsOf(building.id);
    expect(rows.map((r) => [r.at.getTime(), r.temperature, r.kind, r.provider])).toEqual([
      [startHour - 2 * HOUR, 3.5, 'sensor', 'sensor'],
      [startHour - HOUR, 6, 'sensor', 'sensor'],
      [startHour, 8, 'sensor', 'sensor'],
    ]);
    const read = (await call('GET', `${c}/buildings/${building.id}`)).json();
    expect(read.outdoor).toEqual({
      temperature: 8,
      at: new Date(startHour).toISOString(),
      kind: 'sensor',
      provider: 'sensor',
    });
  });

  it("wins over the provider's values of its hours, also on a later provider sync", async () => {
    const [hof] = await t.database.db.select().from(buildings).where(eq(buildings.name, 'Hof'));
    const id = hof?.id as string;
    const located = await call('PATCH', `${c}/buildings/${id}`, { latitude: 48.1598, longitude: 11.5856 });
    expect(located.statusCode, located.body).toBe(200);
    // The move forgot everything; the sync stores the sensor's hours and the provider's around them.
    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    const sensor = await rowsOf(id, 'sensor');
    expect(sensor.map((r) => r.temperature)).toEqual([3.5, 6, 8]);
    expect((await rowsOf(id, 'forecast')).length).toBeGreaterThan(7 * 24);
    expect((await rowsOf(id, 'observed')).length).toBeGreaterThan(0);

    // A later provider sync starts from the last measured hour, the sensor's, and keeps its values.
    await dueNow(id);
    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    expect((standIn.requests.at(-1) as URL).searchParams.get('date')).toBe(
      new Date(startHour - 3 * HOUR).toISOString(),
    );
    expect((await rowsOf(id, 'sensor')).map((r) => [r.at.getTime(), r.temperature])).toEqual([
      [startHour - 2 * HOUR, 3.5],
      [startHour - HOUR, 6],
      [startHour, 8],
    ]);
    expect((await call('GET', `${c}/buildings/${id}`)).json().outdoor).toMatchObject({
      temperature: 8,
      kind: 'sensor',
    });
  });

  it('forgets the old sensor’s hours when the sensor changes, and reads the new one', async () => {
    const [hof] = await t.database.db.select().from(buildings).where(eq(buildings.name, 'Hof'));
    const id = hof?.id as string;
    const providerRows = (await rowsOf(id)).length - 3;
    const changed = await call('PATCH', `${c}/buildings/${id}`, { outdoorSensorId: OTHER_SENSOR });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ outdoorSensorId: OTHER_SENSOR, latitude: 48.1598 });
    expect(await rowsOf(id, 'sensor')).toEqual([]);
    // The provider's hours stay.
    expect((await rowsOf(id)).length).toBe(providerRows);

    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    expect((await rowsOf(id, 'sensor')).map((r) => [r.at.getTime(), r.temperature])).toEqual([
      [startHour, -10],
    ]);
    const none = await call('PATCH', `${c}/buildings/${id}`, { outdoorSensorId: null });
    expect(none.json().outdoorSensorId).toBeNull();
    expect(await rowsOf(id, 'sensor')).toEqual([]);
  });

  it('clears the setting when the device is deleted', async () => {
    const building = (
      await call('POST', `${c}/buildings`, { name: 'Lager', state: 'BY', outdoorSensorId: SENSOR })
    ).json();
    await t.database.db.delete(devices).where(eq(devices.id, SENSOR));
    expect((await call('GET', `${c}/buildings/${building.id}`)).json().outdoorSensorId).toBeNull();
  });
});
