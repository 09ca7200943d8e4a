/**
 * Buildings API (decision 0052): create/read/update/delete with each building's number of units,
 * validation with codes (holiday region of the state, also when only the state changes; nothing
 * written), a building's public holidays of a year (regional ones marked), every state's holiday
 * regions, 404 for strangers and 403 to writes of a member who only reads. Units in buildings:
 * building and floor checked on create, bulk create and update, listed and filtered, the floor
 * cleared when the building drops it, and both cleared when the building is deleted.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildings, units } from '../../db/schema.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

describe('buildings API', () => {
  let t: TestApp;
  let c: string;
  let otherCompanyId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const buildingCount = async () => (await t.database.db.select({ n: count() }).from(buildings))[0]?.n ?? 0;
  const valid = () => ({ name: 'Schulhaus', state: 'BY', floors: ['EG', '1. OG'] });
  const create = async (body: object = valid()) => {
    const res = await call('POST', `${c}/buildings`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const dueOf = async (unitId: string) =>
    (await t.database.db.select({ next: units.nextChangeAt }).from(units).where(eq(units.id, unitId)))[0]
      ?.next ?? null;

  beforeAll(async () => {
    t = await buildTestApp();
    const seeded = await seedCompanies(t.database.db);
    otherCompanyId = seeded.otherCompanyId;
    c = `/api/companies/${seeded.companyId}`;
    await addMember(t, seeded.companyId, 'erin', 'ems');
  });
  afterAll(() => t.close());

  it('creates a building with defaults, reads it and lists it with its number of units', async () => {
    const res = await call('POST', `${c}/buildings`, {
      name: ' Rathaus ',
      street: 'Maximilianstraße 1',
      postcode: '86150',
      city: 'Augsburg',
      state: 'BY',
      region: 'A',
      floors: ['UG', 'EG', 'UG'],
    });
    expect(res.statusCode).toBe(201);
    const building = res.json();
    expect(building).toEqual({
      id: expect.any(String),
      name: 'Rathaus',
      street: 'Maximilianstraße 1',
      postcode: '86150',
      city: 'Augsburg',
      state: 'BY',
      region: 'A',
      // Duplicates dropped, the order kept.
      floors: ['UG', 'EG'],
      publicHolidays: 'ignore',
      holidayMode: 'frost',
      schoolHolidays: false,
      // Without coordinates no weather: optimum start runs on room data alone.
      latitude: null,
      longitude: null,
      outdoorSensorId: null,
      outdoor: null,
      occupantMaxTemperature: null,
      occupantBand: null,
      unitCount: 0,
      heatingStartTomorrow: null,
      createdAt: expect.any(String),
      createdBy: { id: 'alice', name: 'Alice' },
    });
    expect((await call('GET', `${c}/buildings/${building.id}`)).json()).toEqual(building);

    await call('POST', `${c}/units/bulk`, {
      pattern: 'Amt {n}',
      count: 2,
      buildingId: building.id,
      floor: 'EG',
    });
    const list = (await call('GET', `${c}/buildings`)).json();
    expect(list).toMatchObject({ page: 1, size: expect.any(Number) });
    expect(list.results.find((b: { id: string }) => b.id === building.id)).toEqual({
      ...building,
      unitCount: 2,
    });
  });

  it('lists by name in natural order, paged', async () => {
    const seeded = await seedCompanies(t.database.db);
    const c2 = `/api/companies/${seeded.companyId}`;
    for (const name of ['Haus 10', 'Haus 2', 'Anbau'])
      expect((await call('POST', `${c2}/buildings`, { name, state: 'NW' })).statusCode).toBe(201);
    const first = (await call('GET', `${c2}/buildings?size=2`)).json();
    expect(first).toMatchObject({ count: 3, page: 1, size: 2 });
    expect(first.results.map((b: { name: string }) => b.name)).toEqual(['Anbau', 'Haus 2']);
    const second = (await call('GET', `${c2}/buildings?size=2&page=2`)).json();
    expect(second.results.map((b: { name: string }) => b.name)).toEqual(['Haus 10']);
  });

  it.each([
    ['a region the state does not have', { state: 'BE', region: 'A' }],
    ['an unknown region', { state: 'BY', region: 'XYZ' }],
  ])('refuses %s with 400 unknown_holiday_region, writing nothing', async (_name, change) => {
    const before = await buildingCount();
    const res = await call('POST', `${c}/buildings`, { ...valid(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      code: 'unknown_holiday_region',
      params: { region: change.region },
      errors: [{ field: 'region', code: 'unknown_holiday_region', params: { region: change.region } }],
    });
    expect(await buildingCount()).toBe(before);
  });

  it.each([
    ['a blank name', { name: ' ' }, 'body.name'],
    ['an unknown state', { state: 'XX' }, 'body.state'],
    ['a postcode of four digits', { postcode: '8615' }, 'body.postcode'],
    ['an unknown holiday treatment', { publicHolidays: 'always' }, 'body.publicHolidays'],
    ['an unknown holiday mode', { holidayMode: 'comfort' }, 'body.holidayMode'],
    ['a blank floor', { floors: ['EG', ' '] }, 'body.floors.1'],
  ])('refuses %s as a bad request', async (_name, change, field) => {
    const before = await buildingCount();
    const res = await call('POST', `${c}/buildings`, { ...valid(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await buildingCount()).toBe(before);
  });

  it('updates only the fields given and checks the region against the merged state', async () => {
    const building = await create({ ...valid(), region: 'A' });
    const renamed = await call('PATCH', `${c}/buildings/${building.id}`, {
      name: 'Altbau',
      city: 'Augsburg',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...building, name: 'Altbau', city: 'Augsburg' });

    // Berlin has no region A: only the state changes, and the stored region no longer exists.
    const moved = await call('PATCH', `${c}/buildings/${building.id}`, { state: 'BE' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      code: 'unknown_holiday_region',
      errors: [{ field: 'region', params: { region: 'A' } }],
    });
    const sorbian = await call('PATCH', `${c}/buildings/${building.id}`, { region: 'BZ' });
    expect(sorbian.json()).toMatchObject({ code: 'unknown_holiday_region', params: { region: 'BZ' } });
    expect((await call('GET', `${c}/buildings/${building.id}`)).json()).toEqual(renamed.json());

    // With the region, or without it, the move is fine.
    const saxony = await call('PATCH', `${c}/buildings/${building.id}`, { state: 'SN', region: 'BZ' });
    expect(saxony.json()).toMatchObject({ state: 'SN', region: 'BZ' });
    const berlin = await call('PATCH', `${c}/buildings/${building.id}`, { state: 'BE', region: null });
    expect(berlin.json()).toMatchObject({ state: 'BE', region: null });
  });

  it('marks its units due and wakes the scheduler when what the heating sees changes, not for a new name', async () => {
    const building = await create();
    const unit = (await call('POST', `${c}/units`, { name: 'Hausmeister', buildingId: building.id })).json();
    const wake = vi.fn();
    t.ports.wake = wake;
    const changes: [object, boolean][] = [
      [{ name: 'Neubau', floors: ['EG'] }, false],
      // Still ignored: nothing for the heating.
      [{ holidayMode: 'economy' }, false],
      [{ publicHolidays: 'closure' }, true],
      [{ holidayMode: 'standby' }, true],
      [{ state: 'HE' }, true],
      [{ publicHolidays: 'sunday' }, true],
      [{ publicHolidays: 'ignore' }, true],
      [{ schoolHolidays: true }, true],
      [{ holidayMode: 'frost' }, true],
      [{ schoolHolidays: false }, true],
    ];
    for (const [patch, due] of changes) {
      await t.database.db.update(units).set({ nextChangeAt: null });
      wake.mockClear();
      expect((await call('PATCH', `${c}/buildings/${building.id}`, patch)).statusCode).toBe(200);
      expect((await dueOf(unit.id)) !== null, JSON.stringify(patch)).toBe(due);
      expect(wake.mock.calls.length > 0, JSON.stringify(patch)).toBe(due);
    }
    t.ports.wake = undefined;
  });

  it('deletes a building: its units stay without building and floor; then it is unknown', async () => {
    const building = await create({ ...valid(), publicHolidays: 'closure' });
    const unit = (
      await call('POST', `${c}/units`, { name: 'Keller', buildingId: building.id, floor: 'EG' })
    ).json();
    await t.database.db.update(units).set({ nextChangeAt: null });
    expect((await call('DELETE', `${c}/buildings/${building.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${c}/units/${unit.id}`)).json()).toMatchObject({
      buildingId: null,
      buildingName: null,
      floor: null,
    });
    // Its holidays no longer apply: the unit is evaluated again.
    expect(await dueOf(unit.id)).not.toBeNull();
    const gone = await call('GET', `${c}/buildings/${building.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'unknown_building' });
    expect((await call('DELETE', `${c}/buildings/${building.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `${c}/buildings/${building.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', `${c}/buildings/${building.id}/holidays?year=2026`)).statusCode).toBe(404);
  });

  describe('public holidays', () => {
    type Listed = { date: string; name: string; regional: boolean };
    const holidays = async (body: object, query: string): Promise<Listed[]> => {
      const building = await create({ name: 'Kalender', ...body });
      const res = await call('GET', `${c}/buildings/${building.id}/holidays?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results;
    };

    it('lists the public holidays of Bavaria, with those of Augsburg marked regional', async () => {
      const bavaria = await holidays({ state: 'BY' }, 'year=2026');
      expect(bavaria).toContainEqual({ date: '2026-01-06', name: 'Heilige Drei Könige', regional: false });
      expect(bavaria).toContainEqual({ date: '2026-04-06', name: 'Ostermontag', regional: false });
      expect(bavaria).toContainEqual({ date: '2026-12-25', name: '1. Weihnachtstag', regional: false });
      expect(bavaria.some((h) => h.date === '2026-08-08')).toBe(false);
      expect(bavaria.every((h) => /^\d{4}-\d{2}-\d{2}$/.test(h.date))).toBe(true);
      expect(bavaria.map((h) => h.date)).toEqual([...bavaria.map((h) => h.date)].sort());

      const augsburg = await holidays({ state: 'BY', region: 'A' }, 'year=2026');
      expect(augsburg).toContainEqual({
        date: '2026-08-08',
        name: 'Augsburger Friedensfest',
        regional: true,
      });
      expect(augsburg).toContainEqual({ date: '2026-01-06', name: 'Heilige Drei Könige', regional: false });
      expect(augsburg.length).toBeGreaterThan(bavaria.length);
    });

    it('lists Berlin with Women’s Day, in English on request; Easter Monday everywhere', async () => {
      const berlin = await holidays({ state: 'BE' }, 'year=2026');
      expect(berlin).toContainEqual({
        date: '2026-03-08',
        name: 'Internationaler Frauentag',
        regional: false,
      });
      expect(berlin.some((h) => h.date === '2026-01-06')).toBe(false);
      const english = await holidays({ state: 'BE' }, 'year=2026&lang=en');
      expect(english).toContainEqual({
        date: '2026-03-08',
        name: "International Women's Day",
        regional: false,
      });
      for (const state of ['BW', 'HB', 'HH', 'MV', 'NI', 'NW', 'SH', 'TH'])
        expect(await holidays({ state }, 'year=2026'), state).toContainEqual(
          expect.objectContaining({ date: '2026-04-06' }),
        );
    });

    it("lists the school holidays of the building's state overlapping the year, and up to when they are known", async () => {
      const building = await create({ ...valid(), state: 'NW' });
      const res = await call('GET', `${c}/buildings/${building.id}/holidays?year=2027&lang=en`);
      const { schoolHolidays, schoolHolidaysUntil } = res.json();
      expect(schoolHolidays[0]).toEqual({
        start: '2026-12-23',
        end: '2027-01-06',
        name: 'Christmas holidays',
      });
      expect(schoolHolidays).toContainEqual({
        start: '2027-07-19',
        end: '2027-08-31',
        name: 'Summer holidays',
      });
      expect(schoolHolidays.at(-1)).toMatchObject({ start: '2027-12-24', end: '2028-01-06' });
      expect(schoolHolidaysUntil).toBe('2029-09-30');
      const far = (await call('GET', `${c}/buildings/${building.id}/holidays?year=2040`)).json();
      expect(far.schoolHolidays).toEqual([]);
    });

    it('needs a year between 2000 and 2100', async () => {
      const building = await create();
      for (const query of ['', 'year=1999', 'year=2101', 'year=2026&lang=fr']) {
        const res = await call('GET', `${c}/buildings/${building.id}/holidays?${query}`);
        expect(res.statusCode, query).toBe(400);
      }
    });

    it('lists every federal state with its holiday regions for any signed-in user', async () => {
      const res = await call('GET', '/api/holiday-regions', undefined, 'mallory');
      expect(res.statusCode).toBe(200);
      const { results } = res.json();
      expect(results).toHaveLength(16);
      const bavaria = results.find((s: { state: string }) => s.state === 'BY');
      expect(bavaria.regions).toContainEqual({ code: 'A', name: 'Stadt Augsburg' });
      expect(results.find((s: { state: string }) => s.state === 'BE').regions).toEqual([]);
      const english = (await call('GET', '/api/holiday-regions?lang=en')).json().results;
      expect(english.find((s: { state: string }) => s.state === 'BY').regions).toContainEqual({
        code: 'KATH',
        name: 'Predominantly catholic communities',
      });
      expect((await t.app.inject({ method: 'GET', url: '/api/holiday-regions' })).statusCode).toBe(401);
    });
  });

  it('answers 404 to a member of another company on every building endpoint, changing nothing', async () => {
    const building = await create();
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${c}/buildings`],
      ['POST', `${c}/buildings`, valid()],
      ['GET', `${c}/buildings/${building.id}`],
      ['PATCH', `${c}/buildings/${building.id}`, { name: 'x' }],
      ['DELETE', `${c}/buildings/${building.id}`],
      ['GET', `${c}/buildings/${building.id}/holidays?year=2026`],
    ];
    const before = await buildingCount();
    for (const [method, url, body] of requests)
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    // Through the stranger's own company the building is unknown too.
    const own = `/api/companies/${otherCompanyId}/buildings/${building.id}`;
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await call(method, own, body, 'mallory');
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ code: 'unknown_building' });
    }
    expect(await buildingCount()).toBe(before);
    expect((await call('GET', `${c}/buildings/${building.id}`)).json()).toEqual(building);
  });

  it('lets a member who only reads list, read and see holidays, but answers 403 to every write', async () => {
    const building = await create();
    expect((await call('GET', `${c}/buildings`, undefined, 'erin')).statusCode).toBe(200);
    expect((await call('GET', `${c}/buildings/${building.id}`, undefined, 'erin')).json()).toEqual(building);
    const holidays = await call('GET', `${c}/buildings/${building.id}/holidays?year=2027`, undefined, 'erin');
    expect(holidays.statusCode).toBe(200);
    const before = await buildingCount();
    const writes: [Parameters<typeof call>[0], string, object?][] = [
      ['POST', `${c}/buildings`, valid()],
      ['PATCH', `${c}/buildings/${building.id}`, { name: 'x' }],
      ['DELETE', `${c}/buildings/${building.id}`],
    ];
    for (const [method, url, body] of writes)
      expect((await call(method, url, body, 'erin')).statusCode, method).toBe(403);
    expect(await buildingCount()).toBe(before);
    expect((await call('GET', `${c}/buildings/${building.id}`)).json()).toEqual(building);
  });

  describe('units in buildings', () => {
    let c3: string;
    let school: { id: string; name: string };
    let hall: { id: string };
    let foreign: { id: string };
    beforeAll(async () => {
      // A fresh company so its unit list holds exactly these units.
      const seeded = await seedCompanies(t.database.db);
      c3 = `/api/companies/${seeded.companyId}`;
      school = (
        await call('POST', `${c3}/buildings`, { name: 'Schule', state: 'NW', floors: ['EG', '1. OG'] })
      ).json();
      hall = (await call('POST', `${c3}/buildings`, { name: 'Halle', state: 'NW', floors: ['EG'] })).json();
      foreign = (
        await call('POST', `/api/companies/${seeded.otherCompanyId}/buildings`, valid(), 'mallory')
      ).json();
    });
    const unitCount = async () => (await t.database.db.select({ n: count() }).from(units))[0]?.n ?? 0;

    it('creates units in a building and on a floor; the response names the building', async () => {
      const res = await call('POST', `${c3}/units`, {
        name: 'Raum 101',
        buildingId: school.id,
        floor: '1. OG',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ buildingId: school.id, buildingName: 'Schule', floor: '1. OG' });
      const bulk = await call('POST', `${c3}/units/bulk`, {
        pattern: 'Raum E{n}',
        count: 2,
        buildingId: school.id,
        floor: 'EG',
      });
      expect(bulk.statusCode).toBe(201);
      expect(bulk.json().results).toEqual([
        expect.objectContaining({
          name: 'Raum E1',
          buildingId: school.id,
          buildingName: 'Schule',
          floor: 'EG',
        }),
        expect.objectContaining({ name: 'Raum E2', buildingId: school.id, floor: 'EG' }),
      ]);
      const loose = (await call('POST', `${c3}/units`, { name: 'Container' })).json();
      expect(loose).toMatchObject({ buildingId: null, buildingName: null, floor: null });
    });

    it('refuses another company’s or an unknown building and a floor the building does not list', async () => {
      const before = await unitCount();
      const cases: [string, object, string, string, object?][] = [
        ['/units', { name: 'X', buildingId: foreign.id }, 'buildingId', 'unknown_building'],
        ['/units', { name: 'X', buildingId: crypto.randomUUID() }, 'buildingId', 'unknown_building'],
        [
          '/units',
          { name: 'X', buildingId: hall.id, floor: '1. OG' },
          'floor',
          'unknown_floor',
          { floor: '1. OG' },
        ],
        // A floor needs a building.
        ['/units', { name: 'X', floor: 'EG' }, 'floor', 'unknown_floor', { floor: 'EG' }],
        [
          '/units/bulk',
          { pattern: 'X{n}', count: 2, buildingId: foreign.id },
          'buildingId',
          'unknown_building',
        ],
        [
          '/units/bulk',
          { pattern: 'X{n}', count: 2, buildingId: hall.id, floor: 'DG' },
          'floor',
          'unknown_floor',
        ],
      ];
      for (const [path, body, field, code, params] of cases) {
        const res = await call('POST', `${c3}${path}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code, errors: [{ field, code, ...(params ? { params } : {}) }] });
      }
      expect(await unitCount()).toBe(before);
    });

    it('moves a unit: the floor follows the rules, another building keeps it only when listed', async () => {
      const unit = (
        await call('POST', `${c3}/units`, { name: 'Umzug', buildingId: school.id, floor: 'EG' })
      ).json();
      const patch = (body: object) => call('PATCH', `${c3}/units/${unit.id}`, body);
      const refused = await patch({ floor: 'DG' });
      expect(refused.json()).toMatchObject({ code: 'unknown_floor', errors: [{ field: 'floor' }] });
      expect((await patch({ buildingId: foreign.id })).json()).toMatchObject({ code: 'unknown_building' });
      expect((await patch({ floor: '1. OG' })).json()).toMatchObject({
        buildingId: school.id,
        floor: '1. OG',
      });
      // The hall has no "1. OG": the floor goes; its "EG" is kept when moving back and forth.
      expect((await patch({ buildingId: hall.id })).json()).toMatchObject({
        buildingId: hall.id,
        buildingName: 'Halle',
        floor: null,
      });
      expect((await patch({ floor: 'EG' })).json()).toMatchObject({ floor: 'EG' });
      expect((await patch({ buildingId: school.id })).json()).toMatchObject({
        buildingId: school.id,
        floor: 'EG',
      });
      expect((await patch({ buildingId: hall.id, floor: null })).json()).toMatchObject({ floor: null });
      expect((await patch({ buildingId: null })).json()).toMatchObject({
        buildingId: null,
        buildingName: null,
      });
      expect((await patch({ floor: 'EG' })).json()).toMatchObject({ code: 'unknown_floor' });
    });

    it('lists a building’s units and their building names; the count follows the filter', async () => {
      const page = (await call('GET', `${c3}/units?buildingId=${school.id}&size=2`)).json();
      const all = (await call('GET', `${c3}/units?buildingId=${school.id}&size=100`)).json();
      expect(page.count).toBe(all.results.length);
      expect(page.results).toHaveLength(2);
      expect(all.results.every((u: { buildingId: string }) => u.buildingId === school.id)).toBe(true);
      expect(all.results.map((u: { name: string }) => u.name)).toEqual(['Raum 101', 'Raum E1', 'Raum E2']);
      expect(all.results[0]).toMatchObject({ buildingName: 'Schule', floor: '1. OG' });
      expect((await call('GET', `${c3}/units?buildingId=${hall.id}`)).json().count).toBe(0);
      const everything = (await call('GET', `${c3}/units?size=100`)).json().results;
      expect(everything.find((u: { name: string }) => u.name === 'Container')).toMatchObject({
        buildingId: null,
        buildingName: null,
      });
    });

    it('sorts units by building, then by floor as the building lists them, units without building last', async () => {
      const store = (
        await call('POST', `${c3}/units`, { name: 'Geräteraum', buildingId: hall.id, floor: 'EG' })
      ).json();
      const listed = async (order: string) =>
        (
          (await call('GET', `${c3}/units?sort=building&order=${order}&size=100`)).json().results as {
            name: string;
            buildingName: string | null;
            floor: string | null;
          }[]
        ).map((u) => [u.buildingName, u.floor, u.name]);
      // "Halle" before "Schule"; in the school "EG" before "1. OG" (its list), not alphabetically.
      expect(await listed('asc')).toEqual([
        ['Halle', 'EG', 'Geräteraum'],
        ['Schule', 'EG', 'Raum E1'],
        ['Schule', 'EG', 'Raum E2'],
        ['Schule', '1. OG', 'Raum 101'],
        [null, null, 'Container'],
        [null, null, 'Umzug'],
      ]);
      expect(await listed('desc')).toEqual([
        ['Schule', '1. OG', 'Raum 101'],
        ['Schule', 'EG', 'Raum E1'],
        ['Schule', 'EG', 'Raum E2'],
        ['Halle', 'EG', 'Geräteraum'],
        [null, null, 'Container'],
        [null, null, 'Umzug'],
      ]);
      await call('DELETE', `${c3}/units/${store.id}`);
    });

    it('keeps two buildings of one name apart when sorting by building', async () => {
      const twin = (
        await call('POST', `${c3}/buildings`, { name: 'Halle', state: 'NW', floors: ['EG'] })
      ).json();
      const created = [
        await call('POST', `${c3}/units`, { name: 'Geräteraum', buildingId: hall.id, floor: 'EG' }),
        await call('POST', `${c3}/units`, { name: 'Anbau', buildingId: twin.id, floor: 'EG' }),
        await call('POST', `${c3}/units`, { name: 'Werkstatt', buildingId: twin.id, floor: 'EG' }),
      ].map((r) => r.json().id as string);
      const halls = (
        (await call('GET', `${c3}/units?sort=building&order=asc&size=100`)).json().results as {
          buildingId: string | null;
          buildingName: string | null;
        }[]
      )
        .filter((u) => u.buildingName === 'Halle')
        .map((u) => u.buildingId);
      // One run per building: [hall, twin, twin] or [twin, twin, hall], never interleaved by name.
      const runs = halls.filter((id, i) => i === 0 || halls[i - 1] !== id);
      expect(runs.sort()).toEqual([hall.id, twin.id].sort());
      for (const id of created) await call('DELETE', `${c3}/units/${id}`);
      await call('DELETE', `${c3}/buildings/${twin.id}`);
    });

    it('clears the floor of units on a floor the building drops, keeping the others', async () => {
      const res = await call('PATCH', `${c3}/buildings/${school.id}`, { floors: ['EG', '2. OG'] });
      expect(res.json()).toMatchObject({ floors: ['EG', '2. OG'], unitCount: 3 });
      const listed = (await call('GET', `${c3}/units?buildingId=${school.id}&size=100`)).json().results;
      expect(listed.map((u: { name: string; floor: string | null }) => [u.name, u.floor])).toEqual([
        ['Raum 101', null],
        ['Raum E1', 'EG'],
        ['Raum E2', 'EG'],
      ]);
    });
  });
});
