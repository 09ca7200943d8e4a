/**
 * The alert list's building filter (decision 0052): an alert is in the building (and on the
 * floor) of its unit, or — a device's alert — of the unit its device is in now; company-wide
 * alerts and those of units without a building are in none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alerts, buildings, devices, units } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';

// Alerts are opened relative to this clock; the summary and the 7-day history read it too.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

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
    t = await buildTestApp({}, { clock: clock.now });
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
    const now = clock.now();
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

  it("sorts by building name, then floor in the building's order, newest first; without building last", async () => {
    // A company of its own, so the filter tests above keep their alerts.
    const g = await seedRegistry(t.database.db);
    const db = t.database.db;
    // Created before the annex yet sorted after it; floors not in alphabetical order.
    const [school, annexBuilding] = await db
      .insert(buildings)
      .values([
        { companyId: g.companyId, name: 'Schulhaus', state: 'NW', floors: ['EG', '1. OG', 'Keller'] },
        { companyId: g.companyId, name: 'Altbau', state: 'NW', floors: ['EG'] },
      ])
      .returning({ id: buildings.id });
    const [archive, office, hall, workshop] = await db
      .insert(units)
      .values([
        { companyId: g.companyId, name: 'Archiv', buildingId: school!.id, floor: 'Keller' },
        { companyId: g.companyId, name: 'Büro 101', buildingId: school!.id, floor: '1. OG' },
        { companyId: g.companyId, name: 'Aula', buildingId: school!.id, floor: 'EG' },
        { companyId: g.companyId, name: 'Werkraum', buildingId: annexBuilding!.id, floor: 'EG' },
      ])
      .returning({ id: units.id });
    await db.insert(devices).values({
      id: 'c000000000000001',
      devEui: 'c000000000000001',
      companyId: g.companyId,
      model: 'mclimate-vicki',
      unitId: workshop!.id,
    });
    const hoursAgo = (hours: number) => new Date(clock.now().getTime() - hours * 3_600_000);
    const alert = (
      kind: 'not_warming' | 'open_window' | 'device_offline' | 'setpoints_stalled',
      subject: 'unit' | 'device' | 'company',
      subjectId: string,
      unitId: string | null,
      openedHoursAgo: number,
    ) => ({
      companyId: g.companyId,
      kind,
      subject,
      subjectId,
      unitId,
      openedAt: hoursAgo(openedHoursAgo),
      lastSeenAt: hoursAgo(0),
    });
    await db.insert(alerts).values([
      alert('not_warming', 'unit', archive!.id, archive!.id, 1),
      alert('not_warming', 'unit', office!.id, office!.id, 2),
      alert('open_window', 'unit', hall!.id, hall!.id, 5),
      alert('not_warming', 'unit', hall!.id, hall!.id, 3),
      // Without a unit of its own: placed where its device is now, as the building filter does.
      alert('device_offline', 'device', 'c000000000000001', null, 4),
      alert('not_warming', 'unit', g.unitId, g.unitId, 6),
      alert('setpoints_stalled', 'company', g.companyId, null, 7),
    ]);
    const list = async (order: string) =>
      (await t.call('GET', `/api/companies/${g.companyId}/alerts?sort=building&order=${order}`))
        .json()
        .results.map(
          (a: { buildingName: string | null; floor: string | null; kind: string; subjectName: string }) => [
            a.buildingName,
            a.floor,
            a.kind,
            a.subjectName,
          ],
        );
    const unplaced = [
      [null, null, 'not_warming', 'Raum 1'],
      [null, null, 'setpoints_stalled', g.companyId],
    ];
    expect(await list('asc')).toEqual([
      ['Altbau', 'EG', 'device_offline', 'c000000000000001'],
      ['Schulhaus', 'EG', 'not_warming', 'Aula'],
      ['Schulhaus', 'EG', 'open_window', 'Aula'],
      ['Schulhaus', '1. OG', 'not_warming', 'Büro 101'],
      ['Schulhaus', 'Keller', 'not_warming', 'Archiv'],
      ...unplaced,
    ]);
    // Descending reverses buildings and floors; newest first on a floor either way.
    expect(await list('desc')).toEqual([
      ['Schulhaus', 'Keller', 'not_warming', 'Archiv'],
      ['Schulhaus', '1. OG', 'not_warming', 'Büro 101'],
      ['Schulhaus', 'EG', 'not_warming', 'Aula'],
      ['Schulhaus', 'EG', 'open_window', 'Aula'],
      ['Altbau', 'EG', 'device_offline', 'c000000000000001'],
      ...unplaced,
    ]);
    const [first] = (await t.call('GET', `/api/companies/${g.companyId}/alerts?sort=building`)).json()
      .results;
    expect(first).toMatchObject({ buildingId: school!.id, buildingName: 'Schulhaus', floor: 'Keller' });
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
