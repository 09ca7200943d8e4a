/**
 * The alert list's building filter (decision 0052): an alert is in the building (and on the
 * floor) of its unit, or — a device's alert — of the unit its device is in now; company-wide
 * alerts and those of units without a building are in none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alerts, buildings, devices, units } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';

describe('alert list by building', () => {
  let t: TestApp;
  let f: RegistryFixture;
  let base: string;
  let main: string;
  let annex: string;
  let ground: string;
  let first: string;
  const subjects = async (query: string) =>
    (await t.call('GET', `${base}?${query}`))
      .json()
      .results.map((a: { subjectId: string }) => a.subjectId)
      .sort();

  beforeAll(async () => {
    t = await buildTestApp();
    f = await seedRegistry(t.database.db);
    base = `/api/companies/${f.companyId}/alerts`;
    const db = t.database.db;
    const [a, b] = await db
      .insert(buildings)
      .values([
        { companyId: f.companyId, name: 'Hauptgebäude', state: 'NW', floors: ['EG', '1. OG'] },
        { companyId: f.companyId, name: 'Anbau', state: 'NW', floors: ['EG'] },
      ])
      .returning({ id: buildings.id });
    main = a!.id;
    annex = b!.id;
    const [groundRoom, firstRoom, annexRoom] = await db
      .insert(units)
      .values([
        { companyId: f.companyId, name: 'Aula', buildingId: main, floor: 'EG' },
        { companyId: f.companyId, name: 'Büro 101', buildingId: main, floor: '1. OG' },
        { companyId: f.companyId, name: 'Werkraum', buildingId: annex, floor: 'EG' },
      ])
      .returning({ id: units.id });
    ground = groundRoom!.id;
    first = firstRoom!.id;
    // A valve that reported without a unit, and was then put into the annex.
    await db.insert(devices).values({
      id: 'b000000000000001',
      devEui: 'b000000000000001',
      companyId: f.companyId,
      model: 'mclimate-vicki',
      unitId: annexRoom!.id,
    });
    const now = new Date();
    const alert = (
      kind: 'not_warming' | 'device_offline' | 'setpoints_stalled',
      subject: 'unit' | 'device' | 'company',
      subjectId: string,
      unitId: string | null,
    ) => ({
      companyId: f.companyId,
      kind,
      subject,
      subjectId,
      unitId,
      openedAt: now,
      lastSeenAt: now,
    });
    await db
      .insert(alerts)
      .values([
        alert('not_warming', 'unit', ground, ground),
        alert('not_warming', 'unit', first, first),
        alert('device_offline', 'device', 'b000000000000001', null),
        alert('not_warming', 'unit', f.unitId, f.unitId),
        alert('setpoints_stalled', 'company', f.companyId, null),
      ]);
  });
  afterAll(() => t.close());

  it("lists a building's alerts — its units' and its devices' — and one floor's", async () => {
    expect(await subjects(`buildingId=${main}`)).toEqual([ground, first].sort());
    expect(await subjects(`buildingId=${main}&floor=EG`)).toEqual([ground]);
    expect(await subjects(`buildingId=${annex}`)).toEqual(['b000000000000001']);
    expect(await subjects('floor=EG')).toEqual([ground, 'b000000000000001'].sort());
    expect((await t.call('GET', `${base}?buildingId=${main}&state=open`)).json().count).toBe(2);
    expect(await subjects('')).toHaveLength(5);
  });

  it('refuses a malformed building id and shows another company nothing of it', async () => {
    expect((await t.call('GET', `${base}?buildingId=main`)).statusCode).toBe(400);
    const other = await t.call(
      'GET',
      `/api/companies/${f.otherCompanyId}/alerts?buildingId=${main}`,
      undefined,
      'mallory',
    );
    expect(other.json()).toMatchObject({ count: 0, results: [] });
  });
});
