/**
 * Closures API (decision 0051): create/read/update/delete with the scope's targets kept,
 * validation with the contracts' rules and codes (nothing written), groups and units of another
 * company, listing filters (by unit, by building: 404 for another company's) and paging, 404 for
 * strangers and 403 for a member who only reads. Times are relative to the app's clock, fixed
 * at a stated instant.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { closures, units } from '../../db/schema.ts';
import { addMember, expectProblem } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const HOUR = 3_600_000;
// A Wednesday noon; status, next occurrence and "upcoming" are read from this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const inHours = (h: number) => new Date(clock.now().getTime() + h * HOUR).toISOString();

describe('closures API', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let otherCompanyId: string;
  let unitIds: string[];
  let groupId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const closureCount = async () => (await t.database.db.select({ n: count() }).from(closures))[0]?.n ?? 0;
  const valid = () => ({ name: 'Betriebsurlaub', start: inHours(24), end: inHours(24 * 8) });
  const dueIds = async () =>
    (await t.database.db.select({ id: units.id, next: units.nextChangeAt }).from(units))
      .filter((u) => u.next !== null)
      .map((u) => u.id)
      .sort();

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    groupId = (await call('POST', `${c}/groups`, { name: 'Schule' })).json().id;
    const created = await call('POST', `${c}/units/bulk`, { pattern: 'Raum {n}', count: 3 });
    unitIds = created.json().results.map((u: { id: string }) => u.id);
    await call('POST', `${c}/groups/${groupId}/units`, { unitIds: [unitIds[1], unitIds[2]] });
    await addMember(t, companyId, 'erin', 'ems');
  });
  afterAll(() => t.close());

  it('creates a company-wide closure in frost mode by default, marks every unit due and wakes the scheduler', async () => {
    const wake = vi.fn();
    t.ports.wake = wake;
    await t.database.db.update(units).set({ nextChangeAt: null });
    const body = valid();
    const res = await call('POST', `${c}/closures`, {
      ...body,
      note: 'Werksferien',
      exceptions: [unitIds[0], unitIds[0]],
      // Targets of another scope are dropped.
      groups: [groupId],
      units: [unitIds[1]],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Betriebsurlaub',
      note: 'Werksferien',
      start: body.start,
      end: body.end,
      recurrence: null,
      nextOccurrence: { start: body.start, end: body.end },
      mode: 'frost',
      scope: 'company',
      buildings: [],
      groups: [],
      units: [],
      exceptions: [{ id: unitIds[0], name: 'Raum 1' }],
      status: 'upcoming',
      createdAt: expect.any(String),
      createdBy: { id: 'alice', name: 'Alice' },
    });
    // Every unit of the company, and none of another company.
    expect(await dueIds()).toEqual([...unitIds].sort());
    expect(wake).toHaveBeenCalledTimes(1);
    t.ports.wake = undefined;
  });

  it('keeps only the targets of the scope: groups without units, units without groups and exceptions', async () => {
    const grouped = await call('POST', `${c}/closures`, {
      ...valid(),
      mode: 'economy',
      scope: 'groups',
      groups: [groupId],
      units: [unitIds[0]],
      exceptions: [unitIds[2]],
    });
    expect(grouped.statusCode).toBe(201);
    expect(grouped.json()).toMatchObject({
      mode: 'economy',
      scope: 'groups',
      groups: [{ id: groupId, name: 'Schule' }],
      units: [],
      exceptions: [{ id: unitIds[2] }],
    });
    const chosen = await call('POST', `${c}/closures`, {
      ...valid(),
      mode: 'standby',
      scope: 'units',
      units: [unitIds[2], unitIds[0]],
      exceptions: [unitIds[1]],
    });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json()).toMatchObject({
      scope: 'units',
      groups: [],
      units: [
        { id: unitIds[0], name: 'Raum 1' },
        { id: unitIds[2], name: 'Raum 3' },
      ],
      exceptions: [],
    });
    expect((await call('GET', `${c}/closures/${chosen.json().id}`)).json()).toEqual(chosen.json());
  });

  it.each([
    ['an end not after the start', { end: inHours(24) }, 'end', 'closure_end_not_after_start'],
    ['more than 366 days', { end: inHours(24 + 367 * 24) }, 'end', 'closure_too_long'],
    ['scope groups without groups', { scope: 'groups' }, 'groups', 'closure_no_targets'],
    ['scope units without units', { scope: 'units', units: [] }, 'units', 'closure_no_targets'],
  ])(
    'refuses %s with a 400 naming the field and its code, writing nothing',
    async (_name, change, field, code) => {
      const before = await closureCount();
      const res = await call('POST', `${c}/closures`, { ...valid(), ...change });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().code).toBe(code);
      expect(res.json().errors).toEqual([
        expect.objectContaining({ field, code, message: res.json().detail }),
      ]);
      expect(await closureCount()).toBe(before);
    },
  );

  it('names the longest closure in the problem params', async () => {
    const res = await call('POST', `${c}/closures`, { ...valid(), end: inHours(24 + 400 * 24) });
    expect(res.json().errors[0]).toMatchObject({ code: 'closure_too_long', params: { days: 366 } });
  });

  it.each([
    ['a blank name', { name: '  ' }, 'body.name'],
    ['an unknown mode', { mode: 'eco' }, 'body.mode'],
    ['an unknown scope', { scope: 'building' }, 'body.scope'],
    ['a start without offset', { start: '2030-01-01T10:00:00' }, 'body.start'],
  ])('refuses %s as a bad request', async (_name, change, field) => {
    const before = await closureCount();
    const res = await call('POST', `${c}/closures`, { ...valid(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await closureCount()).toBe(before);
  });

  it('answers 400 unknown_unit / unknown_group for targets and exceptions of another company', async () => {
    const foreignUnit = (
      await call('POST', `/api/companies/${otherCompanyId}/units`, { name: 'Fremd' }, 'mallory')
    ).json();
    const foreignGroup = (
      await call('POST', `/api/companies/${otherCompanyId}/groups`, { name: 'Fremd' }, 'mallory')
    ).json();
    const before = await closureCount();
    const cases: [object, string, string][] = [
      [{ scope: 'units', units: [unitIds[0], foreignUnit.id] }, 'units', 'unknown_unit'],
      [{ scope: 'groups', groups: [foreignGroup.id] }, 'groups', 'unknown_group'],
      [{ exceptions: [foreignUnit.id] }, 'exceptions', 'unknown_unit'],
    ];
    for (const [change, field, code] of cases) {
      const res = await call('POST', `${c}/closures`, { ...valid(), ...change });
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ code, errors: [{ field, code }] });
    }
    expect(await closureCount()).toBe(before);
    // Another company's ids in an update are refused the same way.
    const own = (await call('POST', `${c}/closures`, valid())).json();
    const patched = await call('PATCH', `${c}/closures/${own.id}`, { exceptions: [foreignUnit.id] });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ code: 'unknown_unit', errors: [{ field: 'exceptions' }] });
    expect((await call('GET', `${c}/closures/${own.id}`)).json().exceptions).toEqual([]);
  });

  it('updates only the fields given, checks the merged closure and marks the units before and after due', async () => {
    const created = (
      await call('POST', `${c}/closures`, { ...valid(), scope: 'units', units: [unitIds[0]] })
    ).json();
    const renamed = await call('PATCH', `${c}/closures/${created.id}`, { name: 'Inventur', mode: 'standby' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...created, name: 'Inventur', mode: 'standby' });

    // Merged with the stored start, this end is not after it.
    const early = await call('PATCH', `${c}/closures/${created.id}`, { end: inHours(12) });
    expect(early.statusCode).toBe(400);
    expect(early.json().errors).toEqual([
      expect.objectContaining({ field: 'end', code: 'closure_end_not_after_start' }),
    ]);
    // Switching to groups needs groups.
    const noGroups = await call('PATCH', `${c}/closures/${created.id}`, { scope: 'groups' });
    expect(noGroups.json().errors).toEqual([
      expect.objectContaining({ field: 'groups', code: 'closure_no_targets' }),
    ]);
    expect((await call('GET', `${c}/closures/${created.id}`)).json()).toEqual(renamed.json());

    await t.database.db.update(units).set({ nextChangeAt: null });
    const moved = await call('PATCH', `${c}/closures/${created.id}`, { scope: 'groups', groups: [groupId] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ scope: 'groups', units: [], groups: [{ id: groupId }] });
    // The unit it left and the group's units it reaches now.
    expect(await dueIds()).toEqual([...unitIds].sort());

    // An exception re-evaluates the excepted unit (it leaves the closure) and those still covered.
    await t.database.db.update(units).set({ nextChangeAt: null });
    const excepted = await call('PATCH', `${c}/closures/${created.id}`, { exceptions: [unitIds[2]] });
    expect(excepted.json().exceptions).toEqual([{ id: unitIds[2], name: 'Raum 3' }]);
    expect(await dueIds()).toEqual([unitIds[1], unitIds[2]].sort());
  });

  it('computes the status from now: upcoming, running, past', async () => {
    const make = async (start: number, end: number) =>
      (await call('POST', `${c}/closures`, { ...valid(), start: inHours(start), end: inHours(end) })).json();
    expect((await make(1, 2)).status).toBe('upcoming');
    expect((await make(-1, 2)).status).toBe('running');
    expect((await make(-3, -2)).status).toBe('past');
  });

  it('deletes a closure, marking its units due; then it is unknown', async () => {
    const closure = (
      await call('POST', `${c}/closures`, {
        ...valid(),
        start: inHours(-1),
        scope: 'units',
        units: [unitIds[1]],
      })
    ).json();
    await t.database.db.update(units).set({ nextChangeAt: null });
    expect((await call('DELETE', `${c}/closures/${closure.id}`)).statusCode).toBe(204);
    expect(await dueIds()).toEqual([unitIds[1]]);
    const gone = await call('GET', `${c}/closures/${closure.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'unknown_closure' });
    expect((await call('DELETE', `${c}/closures/${closure.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `${c}/closures/${closure.id}`, { name: 'x' })).statusCode).toBe(404);
  });

  describe('listing', () => {
    let c2: string;
    let ids: Record<string, string>;
    let unitA: string;
    let unitB: string;
    beforeAll(async () => {
      // A fresh company so the list holds exactly these closures.
      const seeded = await seedCompanies(t.database.db);
      c2 = `/api/companies/${seeded.companyId}`;
      const g = (await call('POST', `${c2}/groups`, { name: 'Flur' })).json().id;
      const [a, b] = (await call('POST', `${c2}/units/bulk`, { pattern: 'Zimmer {n}', count: 2 })).json()
        .results;
      unitA = a.id;
      unitB = b.id;
      const make = async (body: object) =>
        (await call('POST', `${c2}/closures`, { name: 'x', ...body })).json().id;
      ids = {
        running: await make({ start: inHours(-2), end: inHours(5), exceptions: [unitB] }),
        soon: await make({ start: inHours(2), end: inHours(4), scope: 'units', units: [unitA] }),
        group: await make({ start: inHours(50), end: inHours(52), scope: 'groups', groups: [g] }),
        later: await make({ start: inHours(24 * 40), end: inHours(24 * 41), scope: 'units', units: [unitB] }),
        past: await make({ start: inHours(-5), end: inHours(-4) }),
      };
      // b joins the group after the closure was created: the group closure now covers it.
      await call('POST', `${c2}/groups/${g}/units`, { unitIds: [unitB] });
    });
    const names = async (query: string) =>
      (await call('GET', `${c2}/closures${query}`))
        .json()
        .results.map((e: { id: string }) => Object.keys(ids).find((k) => ids[k] === e.id));

    it('hides past closures unless asked', async () => {
      expect(await names('')).toEqual(['running', 'soon', 'group', 'later']);
      expect(await names('?includePast=true')).toEqual(['past', 'running', 'soon', 'group', 'later']);
    });

    it('filters by unit: through its current group, never as an exception', async () => {
      expect(await names(`?unitId=${unitB}`)).toEqual(['group', 'later']);
      expect(await names(`?unitId=${unitA}&includePast=true`)).toEqual(['past', 'running', 'soon']);
      // A unit of another company is covered by none of them.
      const foreign = (await call('POST', `${c}/units`, { name: 'Fremd' })).json().id;
      expect(await names(`?unitId=${foreign}&includePast=true`)).toEqual([]);
    });

    it('pages on the server and answers a calendar range', async () => {
      const page = (await call('GET', `${c2}/closures?size=3&page=2`)).json();
      expect(page).toMatchObject({ count: 4, page: 2, size: 3 });
      expect(page.results).toHaveLength(1);
      expect(await names(`?from=${inHours(4.5)}&to=${inHours(24 * 7)}&includePast=true`)).toEqual([
        'running',
        'group',
      ]);
      expect(await names(`?from=${inHours(-10)}&to=${inHours(-1)}&includePast=true`)).toEqual([
        'past',
        'running',
      ]);
    });
  });

  describe('listing by building', () => {
    let c3: string;
    let strangerCompany: string;
    let main: string;
    let annex: string;
    let ids: Record<string, string>;
    beforeAll(async () => {
      // A fresh company so the list holds exactly these closures.
      const seeded = await seedCompanies(t.database.db);
      c3 = `/api/companies/${seeded.companyId}`;
      strangerCompany = seeded.otherCompanyId;
      const building = async (name: string, floors: string[]) =>
        (await call('POST', `${c3}/buildings`, { name, state: 'BY', floors })).json().id as string;
      main = await building('Hauptgebäude', ['EG', 'OG']);
      annex = await building('Nebengebäude', []);
      const unit = async (body: object) => (await call('POST', `${c3}/units`, body)).json().id as string;
      const ground = await unit({ name: 'Aula', buildingId: main, floor: 'EG' });
      const upper = await unit({ name: 'Bibliothek', buildingId: main, floor: 'OG' });
      const shed = await unit({ name: 'Werkstatt', buildingId: annex });
      const store = await unit({ name: 'Lager', buildingId: annex });
      const outside = await unit({ name: 'Container' });
      const group = async (name: string, unitIds: string[]) => {
        const id = (await call('POST', `${c3}/groups`, { name })).json().id as string;
        await call('POST', `${c3}/groups/${id}/units`, { unitIds });
        return id;
      };
      // A unit is in one group at most.
      const mixed = await group('Flure', [shed, upper]);
      const annexOnly = await group('Lager', [store, outside]);
      let hour = 10;
      const make = async (body: object) => {
        hour += 1;
        const res = await call('POST', `${c3}/closures`, {
          name: 'x',
          start: inHours(hour),
          end: inHours(hour + 1),
          ...body,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id as string;
      };
      ids = {
        company: await make({ exceptions: [ground] }),
        upperFloor: await make({ scope: 'buildings', buildings: [{ buildingId: main, floor: 'OG' }] }),
        annex: await make({ scope: 'buildings', buildings: [{ buildingId: annex }] }),
        mixedGroup: await make({ scope: 'groups', groups: [mixed] }),
        annexGroup: await make({ scope: 'groups', groups: [annexOnly] }),
        mainUnit: await make({ scope: 'units', units: [outside, ground] }),
        otherUnits: await make({ scope: 'units', units: [shed, outside] }),
        past: await make({ start: inHours(-3), end: inHours(-2) }),
      };
    });
    const listed = async (query: string) => {
      const res = await call('GET', `${c3}/closures${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      return {
        count: page.count,
        names: page.results.map((e: { id: string }) => Object.keys(ids).find((k) => ids[k] === e.id)),
      };
    };

    it('lists the closures reaching a unit of the building: company, its buildings or floors, groups and units in it', async () => {
      expect(await listed(`?buildingId=${main}`)).toEqual({
        count: 4,
        names: ['company', 'upperFloor', 'mixedGroup', 'mainUnit'],
      });
      expect(await listed(`?buildingId=${annex}&includePast=true`)).toEqual({
        count: 6,
        names: ['past', 'company', 'annex', 'mixedGroup', 'annexGroup', 'otherUnits'],
      });
      // Paged on the server like the whole list.
      expect(await listed(`?buildingId=${main}&size=3&page=2`)).toEqual({ count: 4, names: ['mainUnit'] });
    });

    it('answers 404 unknown_building for a building of another company or an unknown one', async () => {
      const foreign = (
        await call(
          'POST',
          `/api/companies/${strangerCompany}/buildings`,
          { name: 'Fremd', state: 'BE', floors: [] },
          'mallory',
        )
      ).json().id;
      for (const buildingId of [foreign, '00000000-0000-4000-8000-000000000bad']) {
        expect(
          expectProblem(await call('GET', `${c3}/closures?buildingId=${buildingId}`), 404),
        ).toMatchObject({ code: 'unknown_building' });
      }
      // The stranger learns nothing through their own company either.
      expect(
        expectProblem(
          await call(
            'GET',
            `/api/companies/${strangerCompany}/closures?buildingId=${main}`,
            undefined,
            'mallory',
          ),
          404,
        ),
      ).toMatchObject({ code: 'unknown_building' });
      expectProblem(await call('GET', `${c3}/closures?buildingId=${main}`, undefined, 'mallory'), 404);
    });
  });

  it('answers 404 to a member of another company on every closure endpoint, changing nothing', async () => {
    const closure = (await call('POST', `${c}/closures`, valid())).json();
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${c}/closures`],
      ['POST', `${c}/closures`, valid()],
      ['GET', `${c}/closures/${closure.id}`],
      ['PATCH', `${c}/closures/${closure.id}`, { name: 'x' }],
      ['DELETE', `${c}/closures/${closure.id}`],
    ];
    const before = await closureCount();
    for (const [method, url, body] of requests) {
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    // Through the stranger's own company the closure is unknown too.
    const own = `/api/companies/${otherCompanyId}/closures/${closure.id}`;
    const ownRequests: [Parameters<typeof call>[0], object?][] = [
      ['GET'],
      ['PATCH', { name: 'x' }],
      ['DELETE'],
    ];
    for (const [method, body] of ownRequests) {
      const res = await call(method, own, body, 'mallory');
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ code: 'unknown_closure' });
    }
    expect(await closureCount()).toBe(before);
    expect((await call('GET', `${c}/closures/${closure.id}`)).json().name).toBe('Betriebsurlaub');
  });

  it('lets a member who only reads list and read, but answers 403 to every write', async () => {
    const closure = (await call('POST', `${c}/closures`, valid())).json();
    expect((await call('GET', `${c}/closures`, undefined, 'erin')).statusCode).toBe(200);
    expect((await call('GET', `${c}/closures/${closure.id}`, undefined, 'erin')).json()).toEqual(closure);
    const before = await closureCount();
    const writes: [Parameters<typeof call>[0], string, object?][] = [
      ['POST', `${c}/closures`, valid()],
      ['PATCH', `${c}/closures/${closure.id}`, { name: 'x' }],
      ['DELETE', `${c}/closures/${closure.id}`],
    ];
    for (const [method, url, body] of writes) {
      const res = await call(method, url, body, 'erin');
      expect(res.statusCode, method).toBe(403);
    }
    expect(await closureCount()).toBe(before);
    expect((await call('GET', `${c}/closures/${closure.id}`)).json()).toEqual(closure);
  });
});
