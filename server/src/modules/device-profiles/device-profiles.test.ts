/**
 * Device profiles and one-off commands through the API (decision 0062): the most specific place
 * wins, the devices list tells each valve's state against its profile and airtime, a profile
 * refuses values its model cannot take, a place moves between profiles of one model, and a
 * recalibration is asked for only where the model has the command. Strangers get 404,
 * read-only members 403.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const CONFIG = {
  keepAliveMinutes: 15,
  openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
  childLock: true,
  childLockKeptOffline: false,
  temperatureRange: { min: 16, max: 26 },
  temperatureOffset: 0,
};
const VICKI = '70b3d52dd3000001';
const SENSOR = '70b3d52dd3000002';

describe('device profiles', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let otherCompanyId: string;
  let buildingId: string;
  let unitId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const ok = async (res: Awaited<ReturnType<TestApp['call']>>, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };
  const deviceConfig = async (id: string) =>
    (await ok(await call('GET', `${c}/devices/${id}`))).config as {
      status: string;
      profileName: string | null;
    };

  beforeAll(async () => {
    t = await buildTestApp();
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'erin', 'ems');
    await grantLicences(t.database.db, companyId);
    buildingId = (await ok(await call('POST', `${c}/buildings`, { name: 'Grundschule', state: 'BY' }), 201))
      .id;
    unitId = (await ok(await call('POST', `${c}/units`, { name: 'Klasse 1a' }), 201)).id;
    await ok(await call('PATCH', `${c}/units/${unitId}`, { buildingId }));
    await ok(await call('POST', `${c}/devices`, { id: VICKI, model: 'mclimate-vicki', unitId }), 201);
    await ok(await call('POST', `${c}/devices`, { id: SENSOR, model: 'elsys-ers', unitId }), 201);
  });
  afterAll(() => t.close());

  it('applies the most specific profile: the building before the company default', async () => {
    expect(await deviceConfig(VICKI)).toMatchObject({ status: 'none', profileName: null });
    const base = await ok(
      await call('POST', `${c}/device-profiles`, {
        name: 'Standard',
        model: 'mclimate-vicki',
        config: { ...CONFIG, childLock: false },
        places: { company: true, buildingIds: [], groupIds: [], unitIds: [] },
      }),
      201,
    );
    expect(await deviceConfig(VICKI)).toMatchObject({ status: 'pending', profileName: 'Standard' });
    const school = await ok(
      await call('POST', `${c}/device-profiles`, {
        name: 'Schule',
        model: 'mclimate-vicki',
        config: CONFIG,
        places: { company: false, buildingIds: [buildingId], groupIds: [], unitIds: [] },
      }),
      201,
    );
    expect(await deviceConfig(VICKI)).toMatchObject({ status: 'pending', profileName: 'Schule' });
    const list = await ok(await call('GET', `${c}/device-profiles`));
    expect(list.results.map((p: { name: string; sync: object }) => [p.name, p.sync])).toEqual([
      ['Schule', { devices: 1, inSync: 0, pending: 1, differs: 0 }],
      ['Standard', { devices: 0, inSync: 0, pending: 0, differs: 0 }],
    ]);
    expect(list.models.map((m: { model: string }) => m.model)).toEqual(['mclimate-vicki']);
    // The valve reports the profile: in sync.
    await t.database.db
      .update(devices)
      .set({ reportedConfig: CONFIG, spreadingFactor: 7 })
      .where(eq(devices.id, VICKI));
    expect(await deviceConfig(VICKI)).toMatchObject({ status: 'in_sync' });
    const airtime = (await ok(await call('GET', `${c}/devices/${VICKI}`))).airtime;
    expect(airtime).toMatchObject({ spreadingFactor: 7, budgetS: 864, keepAliveOverBudget: null });
    // The company place moves to the school profile; deleting it falls back to nothing.
    await ok(
      await call('PATCH', `${c}/device-profiles/${school.id}`, {
        places: { company: true, buildingIds: [buildingId], groupIds: [], unitIds: [] },
      }),
    );
    expect((await ok(await call('GET', `${c}/device-profiles/${base.id}`))).places.company).toBe(false);
    expect((await call('DELETE', `${c}/device-profiles/${school.id}`)).statusCode).toBe(204);
    expect(await deviceConfig(VICKI)).toMatchObject({ status: 'none' });
  });

  it('lets a profile for a single room win over its building, naming the room', async () => {
    const place = (places: { buildingIds?: string[]; unitIds?: string[] }) => ({
      company: false,
      buildingIds: [],
      groupIds: [],
      unitIds: [],
      ...places,
    });
    const school = await ok(
      await call('POST', `${c}/device-profiles`, {
        name: 'Schulhaus',
        model: 'mclimate-vicki',
        config: CONFIG,
        places: place({ buildingIds: [buildingId] }),
      }),
      201,
    );
    const room = await ok(
      await call('POST', `${c}/device-profiles`, {
        name: 'Klassenraum',
        model: 'mclimate-vicki',
        config: { ...CONFIG, childLockKeptOffline: true },
        places: place({ unitIds: [unitId] }),
      }),
      201,
    );
    expect(room.units).toEqual([{ id: unitId, name: 'Klasse 1a' }]);
    expect(school.units).toEqual([]);
    expect(await deviceConfig(VICKI)).toMatchObject({ profileName: 'Klassenraum' });
    for (const id of [room.id, school.id]) {
      expect((await call('DELETE', `${c}/device-profiles/${id}`)).statusCode).toBe(204);
    }
  });

  it('refuses a model without configuration commands, a taken name and a place of another company', async () => {
    const sensor = await call('POST', `${c}/device-profiles`, {
      name: 'Sensoren',
      model: 'elsys-ers',
      config: CONFIG,
    });
    expect(sensor.statusCode).toBe(400);
    expect(sensor.json()).toMatchObject({ code: 'device_profile_model' });
    const taken = await call('POST', `${c}/device-profiles`, {
      name: 'standard',
      model: 'mclimate-vicki',
      config: CONFIG,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'device_profile_name_taken' });
    const foreign = await call('POST', `${c}/device-profiles`, {
      name: 'Fremd',
      model: 'mclimate-vicki',
      config: CONFIG,
      places: {
        company: false,
        buildingIds: ['00000000-0000-4000-8000-000000000099'],
        groupIds: [],
        unitIds: [],
      },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await ok(await call('GET', `${c}/device-profiles`))).results.map((p: { name: string }) => p.name),
    ).toEqual(['Standard']);
    const range = await call('POST', `${c}/device-profiles`, {
      name: 'Falsch',
      model: 'mclimate-vicki',
      config: { ...CONFIG, temperatureRange: { min: 25, max: 20 } },
    });
    expect(range.statusCode).toBe(400);
  });

  it('asks for a recalibration where the model has it and tells which have not', async () => {
    const res = await ok(await call('POST', `${c}/devices/recalibrate`, { deviceIds: [VICKI, SENSOR] }));
    expect(res).toEqual({ requested: 1, unsupported: [SENSOR] });
    expect((await ok(await call('GET', `${c}/devices/${VICKI}`))).config.recalibrating).toBe(true);
    const unknown = await call('POST', `${c}/devices/recalibrate`, { deviceIds: ['ffffffffffffffff'] });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers strangers 404 and read-only members 403, changing nothing', async () => {
    const stranger = `/api/companies/${otherCompanyId}`;
    expect((await call('GET', `${stranger}/device-profiles`)).statusCode).toBe(404);
    expect((await call('POST', `${stranger}/devices/recalibrate`, { deviceIds: [VICKI] })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `${c}/device-profiles`, undefined, 'erin')).statusCode).toBe(200);
    const refused = await call(
      'POST',
      `${c}/device-profiles`,
      { name: 'Leser', model: 'mclimate-vicki', config: CONFIG },
      'erin',
    );
    expect(refused.statusCode).toBe(403);
    expect((await call('POST', `${c}/devices/recalibrate`, { deviceIds: [VICKI] }, 'erin')).statusCode).toBe(
      403,
    );
  });
});
