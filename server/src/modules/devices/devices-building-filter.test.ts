/**
 * The device list's building filter (decision 0052): a device is in the building (and on the
 * floor) of the unit it is assigned to; unassigned devices and devices of units without a
 * building are in none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildings, devices, units } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from './registry-test-fixtures.ts';

describe('devices list by building', () => {
  let t: TestApp;
  let f: RegistryFixture;
  let base: string;
  let main: string;
  let annex: string;
  const ids = async (query: string) =>
    (await t.call('GET', `${base}?sort=id&order=asc&${query}`))
      .json()
      .results.map((d: { id: string }) => d.id);

  beforeAll(async () => {
    t = await buildTestApp();
    f = await seedRegistry(t.database.db);
    base = `/api/companies/${f.companyId}/devices`;
    const db = t.database.db;
    const [a, b] = await db
      .insert(buildings)
      .values([
        { companyId: f.companyId, name: 'Hauptgebäude', state: 'BY', floors: ['EG', '1. OG'] },
        { companyId: f.companyId, name: 'Anbau', state: 'BY', floors: ['EG'] },
      ])
      .returning({ id: buildings.id });
    main = a!.id;
    annex = b!.id;
    const [ground, first, annexRoom] = await db
      .insert(units)
      .values([
        { companyId: f.companyId, name: 'Aula', buildingId: main, floor: 'EG' },
        { companyId: f.companyId, name: 'Büro 101', buildingId: main, floor: '1. OG' },
        { companyId: f.companyId, name: 'Werkraum', buildingId: annex, floor: 'EG' },
      ])
      .returning({ id: units.id });
    const device = (id: string, unitId: string | null) => ({
      id,
      devEui: id,
      companyId: f.companyId,
      model: 'mclimate-vicki' as const,
      unitId,
    });
    await db
      .insert(devices)
      .values([
        device('a000000000000001', ground!.id),
        device('a000000000000002', first!.id),
        device('a000000000000003', annexRoom!.id),
        device('a000000000000004', f.unitId),
        device('a000000000000005', null),
      ]);
  });
  afterAll(() => t.close());

  it('lists the devices of a building, and of one of its floors', async () => {
    expect(await ids(`buildingId=${main}`)).toEqual(['a000000000000001', 'a000000000000002']);
    expect(await ids(`buildingId=${main}&floor=${encodeURIComponent('1. OG')}`)).toEqual([
      'a000000000000002',
    ]);
    expect(await ids(`buildingId=${annex}`)).toEqual(['a000000000000003']);
    // A floor name alone: that floor in every building.
    expect(await ids('floor=EG')).toEqual(['a000000000000001', 'a000000000000003']);
    expect((await t.call('GET', `${base}?buildingId=${main}`)).json().count).toBe(2);
    expect(await ids('')).toHaveLength(5);
  });

  it("sorts by building name, then floor in the building's order, then unit; without building last", async () => {
    // A company of its own, so the filter tests above keep their devices.
    const g = await seedRegistry(t.database.db);
    const db = t.database.db;
    // Created before the annex yet sorted after it; floors not in alphabetical order.
    const [school, annexBuilding] = await db
      .insert(buildings)
      .values([
        { companyId: g.companyId, name: 'Schulhaus', state: 'BY', floors: ['EG', '1. OG', 'Keller'] },
        { companyId: g.companyId, name: 'Altbau', state: 'BY', floors: ['EG'] },
      ])
      .returning({ id: buildings.id });
    const placed = await db
      .insert(units)
      .values([
        { companyId: g.companyId, name: 'Archiv', buildingId: school!.id, floor: 'Keller' },
        { companyId: g.companyId, name: 'Büro 10', buildingId: school!.id, floor: '1. OG' },
        { companyId: g.companyId, name: 'Büro 2', buildingId: school!.id, floor: '1. OG' },
        { companyId: g.companyId, name: 'Aula', buildingId: school!.id, floor: 'EG' },
        { companyId: g.companyId, name: 'Flur', buildingId: school!.id },
        { companyId: g.companyId, name: 'Werkraum', buildingId: annexBuilding!.id, floor: 'EG' },
      ])
      .returning({ id: units.id });
    // Device ids count up in the order of `placed`, so id order is not the expected order.
    await db.insert(devices).values(
      [...placed.map((u) => u.id), g.unitId, null].map((unitId, i) => ({
        id: `c00000000000000${i + 1}`,
        devEui: `c00000000000000${i + 1}`,
        companyId: g.companyId,
        model: 'mclimate-vicki' as const,
        unitId,
      })),
    );
    const list = async (order: string) =>
      (await t.call('GET', `/api/companies/${g.companyId}/devices?sort=building&order=${order}`))
        .json()
        .results.map((d: { unitName: string | null; buildingName: string | null; floor: string | null }) => [
          d.buildingName,
          d.floor,
          d.unitName,
        ]);
    expect(await list('asc')).toEqual([
      ['Altbau', 'EG', 'Werkraum'],
      ['Schulhaus', 'EG', 'Aula'],
      ['Schulhaus', '1. OG', 'Büro 2'],
      ['Schulhaus', '1. OG', 'Büro 10'],
      ['Schulhaus', 'Keller', 'Archiv'],
      ['Schulhaus', null, 'Flur'],
      [null, null, 'Raum 1'],
      [null, null, null],
    ]);
    // Descending reverses buildings and floors; a floor's units and the unplaced stay as they are.
    expect(await list('desc')).toEqual([
      ['Schulhaus', 'Keller', 'Archiv'],
      ['Schulhaus', '1. OG', 'Büro 2'],
      ['Schulhaus', '1. OG', 'Büro 10'],
      ['Schulhaus', 'EG', 'Aula'],
      ['Schulhaus', null, 'Flur'],
      ['Altbau', 'EG', 'Werkraum'],
      [null, null, 'Raum 1'],
      [null, null, null],
    ]);
    const aula = (await t.call('GET', `/api/companies/${g.companyId}/devices/c000000000000004`)).json();
    expect(aula).toMatchObject({ buildingId: school!.id, buildingName: 'Schulhaus', floor: 'EG' });
  });

  it('refuses a malformed building id and shows another company nothing of it', async () => {
    expect((await t.call('GET', `${base}?buildingId=main`)).statusCode).toBe(400);
    const other = await t.call(
      'GET',
      `/api/companies/${f.otherCompanyId}/devices?buildingId=${main}`,
      undefined,
      'mallory',
    );
    expect(other.json()).toMatchObject({ count: 0, results: [] });
  });
});
