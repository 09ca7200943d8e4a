/**
 * Events API: validation with the spec's messages (nothing written), targets of
 * another company, update rules by status, listing filters and paging, and 404 for strangers.
 * Times are relative to the app's clock, fixed at a stated instant.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { heatingEvents, units } from '../../db/schema.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const HOUR = 3_600_000;
// A Wednesday noon; "upcoming", "running" and "ended" are read from this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const inHours = (h: number) => new Date(clock.now().getTime() + h * HOUR).toISOString();

describe('events API', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let otherCompanyId: string;
  let unitIds: string[];
  let groupId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const eventCount = async () => (await t.database.db.select({ n: count() }).from(heatingEvents))[0]?.n ?? 0;
  const valid = () => ({ start: inHours(24), end: inHours(26), temperature: 22, units: [unitIds[0]] });

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    groupId = (await call('POST', `${c}/groups`, { name: 'Schule' })).json().id;
    const created = await call('POST', `${c}/units/bulk`, { pattern: 'Raum {n}', count: 3 });
    unitIds = created.json().results.map((u: { id: string }) => u.id);
    await call('POST', `${c}/groups/${groupId}/units`, { unitIds: [unitIds[1], unitIds[2]] });
  });
  afterAll(() => t.close());

  it('creates an event for units and marks them due', async () => {
    await t.database.db.update(units).set({ nextChangeAt: null });
    const res = await call('POST', `${c}/events`, { ...valid(), title: 'Elternabend', preventRegular: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Elternabend',
      temperature: 22,
      preventRegular: true,
      groupMode: false,
      units: [{ id: unitIds[0], name: 'Raum 1' }],
      groups: [],
      status: 'upcoming',
      createdBy: { id: 'alice', name: 'Alice' },
    });
    const due = await t.database.db
      .select()
      .from(units)
      .where(eq(units.id, unitIds[0] as string));
    expect(due[0]?.nextChangeAt).not.toBeNull();
  });

  it.each([
    ['end before start', { end: inHours(23) }, 'end', 'The end date must not be before the start date.'],
    ['no units', { units: [] }, 'units', 'No units selected'],
    ['no groups in group mode', { groupMode: true, groups: [] }, 'groups', 'No units selected'],
    [
      'preventRegular without end',
      { end: null, preventRegular: true },
      'end',
      'An end time is required when regular events are prevented.',
    ],
    [
      'temperature above the range',
      { temperature: 29 },
      'temperature',
      'Value exceeds temperature range set by your company.',
    ],
    [
      'temperature below the range',
      { temperature: 4 },
      'temperature',
      // Not "exceeds": below the range has a message of its own.
      'Value is below the temperature range set by your company.',
    ],
  ])('refuses %s with a 400 naming the field and writes nothing', async (_name, change, field, message) => {
    const before = await eventCount();
    const res = await call('POST', `${c}/events`, { ...valid(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().detail).toBe(message);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ field, message }));
    // Every refusal carries a code the web translates.
    expect(res.json().code).toEqual(expect.any(String));
    expect(res.json().errors.every((e: { code?: string }) => typeof e.code === 'string')).toBe(true);
    expect(await eventCount()).toBe(before);
  });

  it('reports every broken rule at once', async () => {
    const res = await call('POST', `${c}/events`, { ...valid(), units: [], temperature: 40 });
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['units', 'temperature']);
  });

  it('answers 404 Unknown unit / Unknown group for targets of another company', async () => {
    const foreignUnit = (
      await call('POST', `/api/companies/${otherCompanyId}/units`, { name: 'Fremd' }, 'mallory')
    ).json();
    const foreignGroup = (
      await call('POST', `/api/companies/${otherCompanyId}/groups`, { name: 'Fremd' }, 'mallory')
    ).json();
    const before = await eventCount();
    const unitRes = await call('POST', `${c}/events`, { ...valid(), units: [unitIds[0], foreignUnit.id] });
    expect(unitRes.statusCode).toBe(404);
    expect(unitRes.json().detail).toBe('Unknown unit');
    const groupRes = await call('POST', `${c}/events`, {
      ...valid(),
      groupMode: true,
      groups: [foreignGroup.id],
    });
    expect(groupRes.statusCode).toBe(404);
    expect(groupRes.json().detail).toBe('Unknown group');
    expect(await eventCount()).toBe(before);
  });

  it('changes an upcoming event freely; a running one only shorter; a past one not at all', async () => {
    const upcoming = (await call('POST', `${c}/events`, valid())).json();
    await t.database.db.update(units).set({ nextChangeAt: null });
    const moved = await call('PATCH', `${c}/events/${upcoming.id}`, {
      temperature: 20,
      groupMode: true,
      groups: [groupId],
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      temperature: 20,
      groupMode: true,
      units: [],
      groups: [{ id: groupId }],
    });
    // The unit it left and the group's units it reaches now are all re-evaluated.
    const due = await t.database.db.select({ id: units.id, next: units.nextChangeAt }).from(units);
    expect(
      due
        .filter((u) => u.next !== null)
        .map((u) => u.id)
        .sort(),
    ).toEqual([...unitIds].sort());

    const running = (
      await call('POST', `${c}/events`, { ...valid(), start: inHours(-1), end: inHours(3) })
    ).json();
    expect(running.status).toBe('running');
    expect((await call('PATCH', `${c}/events/${running.id}`, { temperature: 23 })).statusCode).toBe(409);
    expect((await call('PATCH', `${c}/events/${running.id}`, { end: inHours(5) })).statusCode).toBe(409);
    expect((await call('PATCH', `${c}/events/${running.id}`, { end: null })).statusCode).toBe(409);
    const shorter = await call('PATCH', `${c}/events/${running.id}`, { end: inHours(2), title: 'Kürzer' });
    expect(shorter.statusCode).toBe(200);
    expect(shorter.json().title).toBe('Kürzer');
    const ended = await call('POST', `${c}/events/${running.id}/end`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().status).toBe('past');

    expect((await call('PATCH', `${c}/events/${running.id}`, { title: 'x' })).statusCode).toBe(409);
    expect((await call('DELETE', `${c}/events/${running.id}`)).statusCode).toBe(409);
    expect((await call('POST', `${c}/events/${upcoming.id}/end`)).statusCode).toBe(409);
  });

  it('a changed end must not be in the past', async () => {
    const e = (await call('POST', `${c}/events`, valid())).json();
    const res = await call('PATCH', `${c}/events/${e.id}`, { start: inHours(-3), end: inHours(-2) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'end', message: 'The end date must not be in the past.', code: 'event_end_in_past' },
    ]);
  });

  it('deletes an upcoming event; a deleted running event ends now and leaves the list', async () => {
    const upcoming = (await call('POST', `${c}/events`, valid())).json();
    expect((await call('DELETE', `${c}/events/${upcoming.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${c}/events/${upcoming.id}`)).statusCode).toBe(404);
    const running = (
      await call('POST', `${c}/events`, { ...valid(), start: inHours(-1), end: inHours(3) })
    ).json();
    expect((await call('DELETE', `${c}/events/${running.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${c}/events/${running.id}`)).statusCode).toBe(404);
    const [kept] = await t.database.db.select().from(heatingEvents).where(eq(heatingEvents.id, running.id));
    expect(kept?.deletedAt).not.toBeNull();
    expect(kept?.end).toEqual(clock.now());
  });

  describe('listing', () => {
    let c2: string;
    let ids: Record<string, string>;
    beforeAll(async () => {
      // A fresh company so the list holds exactly these events.
      const seeded = await seedCompanies(t.database.db);
      c2 = `/api/companies/${seeded.companyId}`;
      const g = (await call('POST', `${c2}/groups`, { name: 'Flur' })).json().id;
      const [a, b] = (await call('POST', `${c2}/units/bulk`, { pattern: 'Zimmer {n}', count: 2 })).json()
        .results;
      const make = async (body: object) =>
        (await call('POST', `${c2}/events`, { temperature: 21, ...body })).json().id;
      ids = {
        soon: await make({ start: inHours(2), end: inHours(4), units: [a.id] }),
        open: await make({ start: inHours(30), end: null, units: [a.id, b.id] }),
        group: await make({ start: inHours(50), end: inHours(52), groupMode: true, groups: [g] }),
        later: await make({ start: inHours(24 * 40), end: inHours(24 * 40 + 1), units: [b.id] }),
      };
      // A past event cannot be created through the API.
      const [past] = await t.database.db
        .insert(heatingEvents)
        .values({
          companyId: seeded.companyId,
          start: new Date(inHours(-5)),
          end: new Date(inHours(-4)),
          temperature: 21,
        })
        .returning();
      ids.past = past?.id ?? '';
      // b joins the group after the event was created: the group event now covers it.
      await call('POST', `${c2}/groups/${g}/units`, { unitIds: [b.id] });
      ids.unitB = b.id;
    });
    const titles = async (query: string) =>
      (await call('GET', `${c2}/events${query}`))
        .json()
        .results.map((e: { id: string }) => Object.keys(ids).find((k) => ids[k] === e.id));

    it('hides past events unless asked and can hide open-ended ones', async () => {
      expect(await titles('')).toEqual(['soon', 'open', 'group', 'later']);
      expect(await titles('?includePast=true')).toEqual(['past', 'soon', 'open', 'group', 'later']);
      expect(await titles('?hideOpenEnded=true')).toEqual(['soon', 'group', 'later']);
    });

    it('filters by unit through its current group', async () => {
      expect(await titles(`?unitId=${ids.unitB}`)).toEqual(['open', 'group', 'later']);
    });

    it('pages on the server and answers a calendar range', async () => {
      const page = (await call('GET', `${c2}/events?size=2&page=2`)).json();
      expect(page).toMatchObject({ count: 4, page: 2, size: 2 });
      expect(page.results).toHaveLength(2);
      expect(await titles(`?from=${inHours(3)}&to=${inHours(24 * 7)}&includePast=true`)).toEqual([
        'soon',
        'open',
        'group',
      ]);
    });
  });

  it('answers 404 to a member of another company on every event endpoint', async () => {
    const e = (await call('POST', `${c}/events`, valid())).json();
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${c}/events`],
      ['POST', `${c}/events`, valid()],
      ['GET', `${c}/events/${e.id}`],
      ['PATCH', `${c}/events/${e.id}`, { title: 'x' }],
      ['POST', `${c}/events/${e.id}/end`],
      ['DELETE', `${c}/events/${e.id}`],
    ];
    for (const [method, url, body] of requests) {
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    const viaOwn = await call('GET', `/api/companies/${otherCompanyId}/events/${e.id}`, undefined, 'mallory');
    expect(viaOwn.statusCode).toBe(404);
    expect((await call('GET', `${c}/events/${e.id}`)).json().title).toBe('');
  });
});
