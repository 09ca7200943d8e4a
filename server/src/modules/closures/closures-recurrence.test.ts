/**
 * Closures API with recurrence and buildings (decision 0051, "Recurrence and buildings"): a
 * recurring closure's status, next occurrence and list filters follow its occurrences; an
 * invalid RRULE is a 400 `invalid_recurrence` on its field; a closure of buildings or one floor
 * names them, marks exactly their units due and filters by unit; buildings and floors must be
 * the company's; a patch changes only the fields given. The company keeps UTC here so times
 * relative to the app's clock stay exact across daylight saving (the expansion's own tests cover
 * Berlin's).
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { closures, units } from '../../db/schema.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A Wednesday noon; status, next occurrence and "upcoming" are read from this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const inHours = (h: number) => new Date(clock.now().getTime() + h * HOUR).toISOString();
const shifted = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

describe('closures API: recurrence and buildings', () => {
  let t: TestApp;
  let c: string;
  let otherCompanyId: string;
  let buildingId: string;
  let ground: string;
  let upper: string;
  let outside: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const closureCount = async () => (await t.database.db.select({ n: count() }).from(closures))[0]?.n ?? 0;
  const dueIds = async () =>
    (await t.database.db.select({ id: units.id, next: units.nextChangeAt }).from(units))
      .filter((u) => u.next !== null)
      .map((u) => u.id)
      .sort();
  const clearDue = () => t.database.db.update(units).set({ nextChangeAt: null });
  const create = async (body: object) => {
    const res = await call('POST', `${c}/closures`, { name: 'Wochenende', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const seeded = await seedCompanies(t.database.db, { timeZone: 'UTC' });
    otherCompanyId = seeded.otherCompanyId;
    c = `/api/companies/${seeded.companyId}`;
    const building = await call('POST', `${c}/buildings`, {
      name: 'Hauptgebäude',
      state: 'BY',
      floors: ['EG', '1. OG'],
    });
    buildingId = building.json().id;
    const unit = async (body: object) => (await call('POST', `${c}/units`, body)).json().id as string;
    ground = await unit({ name: 'Aula', buildingId, floor: 'EG' });
    upper = await unit({ name: 'Bibliothek', buildingId, floor: '1. OG' });
    outside = await unit({ name: 'Turnhalle' });
  });
  afterAll(() => t.close());

  describe('recurrence', () => {
    it('stores the rule in upper case and answers the next occurrence', async () => {
      const start = inHours(24);
      const end = inHours(26);
      const closure = await create({ start, end, recurrence: ' freq=weekly;count=3 ' });
      expect(closure).toMatchObject({
        recurrence: 'FREQ=WEEKLY;COUNT=3',
        nextOccurrence: { start, end },
        status: 'upcoming',
      });
      expect((await call('GET', `${c}/closures/${closure.id}`)).json()).toEqual(closure);
    });

    it('keeps a recurring closure running or upcoming until its last occurrence', async () => {
      // Ten days ago from half an hour before now, for an hour: today's runs now.
      const start = inHours(-240.5);
      const daily = await create({ start, end: shifted(start, HOUR), recurrence: 'FREQ=DAILY' });
      expect(daily).toMatchObject({
        status: 'running',
        nextOccurrence: { start: shifted(start, 10 * DAY), end: shifted(start, 10 * DAY + HOUR) },
      });
      // Three weekly ones from 300 hours ago: the third starts in 36 hours.
      const start3 = inHours(-300);
      const weekly = await create({
        start: start3,
        end: shifted(start3, HOUR),
        recurrence: 'FREQ=WEEKLY;COUNT=3',
      });
      expect(weekly).toMatchObject({
        status: 'upcoming',
        nextOccurrence: { start: shifted(start3, 14 * DAY) },
      });
      // Two weekly ones from three weeks ago: both over.
      const over = await create({
        start: inHours(-504),
        end: inHours(-503),
        recurrence: 'FREQ=WEEKLY;COUNT=2',
      });
      expect(over).toMatchObject({ status: 'past', nextOccurrence: null });

      const listed = async (query: string) =>
        ((await call('GET', `${c}/closures${query}`)).json().results as { id: string }[]).map((r) => r.id);
      const current = await listed('?size=200');
      expect(current).toEqual(expect.arrayContaining([daily.id, weekly.id]));
      expect(current).not.toContain(over.id);
      expect(await listed('?includePast=true&size=200')).toContain(over.id);
      // A range between the occurrences of the weekly one leaves it out; one with an occurrence has it.
      expect(
        await listed(`?from=${inHours(-250)}&to=${inHours(-200)}&includePast=true&size=200`),
      ).not.toContain(weekly.id);
      expect(await listed(`?from=${inHours(-135)}&to=${inHours(-130)}&includePast=true&size=200`)).toContain(
        weekly.id,
      );
      // Without past ones, a range reaching back still needs an occurrence after now.
      expect(await listed(`?from=${inHours(-400)}&to=${inHours(1)}&size=200`)).not.toContain(weekly.id);
      expect(await listed(`?from=${inHours(-400)}&to=${inHours(1)}&size=200`)).toContain(daily.id);
    });

    it("moves a recurring closure's last end with the company's time zone", async () => {
      // Daily 08:00–09:00 UTC from Friday 26 March 2027, three times; Berlin moves to summer time
      // on the Sunday, New York did two weeks before.
      const closure = await create({
        start: '2027-03-26T08:00:00.000Z',
        end: '2027-03-26T09:00:00.000Z',
        recurrence: 'FREQ=DAILY;COUNT=3',
      });
      const lastEnd = async () =>
        (await t.database.db.select({ id: closures.id, lastEnd: closures.lastEnd }).from(closures))
          .find((r) => r.id === closure.id)
          ?.lastEnd?.toISOString();
      expect(await lastEnd()).toBe('2027-03-28T09:00:00.000Z');
      // In Berlin the occurrences keep 09:00–10:00 local time: Sunday's ends at 08:00 UTC.
      expect((await call('PATCH', `${c}/`, { time_zone: 'Europe/Berlin' })).statusCode).toBe(200);
      expect(await lastEnd()).toBe('2027-03-28T08:00:00.000Z');
      expect((await call('PATCH', `${c}/`, { time_zone: 'America/New_York' })).statusCode).toBe(200);
      expect(await lastEnd()).toBe('2027-03-28T09:00:00.000Z');
      expect((await call('PATCH', `${c}/`, { time_zone: 'UTC' })).statusCode).toBe(200);
    });

    it.each([
      ['an hourly rule', 'FREQ=HOURLY'],
      ['a blank rule (null is none)', '  '],
      ['no FREQ', 'BYDAY=SA,SU'],
      ['a DTSTART', 'DTSTART:20260101T000000Z;FREQ=WEEKLY'],
      ['an unknown part', 'FREQ=WEEKLY;COLOR=RED'],
      [
        'more than 500 characters',
        `FREQ=YEARLY;BYMONTHDAY=${Array.from({ length: 300 }, () => '1').join(',')}`,
      ],
    ])('refuses %s with 400 invalid_recurrence on its field, writing nothing', async (_name, recurrence) => {
      const before = await closureCount();
      const res = await call('POST', `${c}/closures`, {
        name: 'x',
        start: inHours(1),
        end: inHours(2),
        recurrence,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalid_recurrence',
        errors: [expect.objectContaining({ field: 'recurrence', code: 'invalid_recurrence' })],
      });
      expect(await closureCount()).toBe(before);
    });

    it('checks a patched recurrence and removes it with null', async () => {
      const closure = await create({ start: inHours(5), end: inHours(6), recurrence: 'FREQ=DAILY' });
      const bad = await call('PATCH', `${c}/closures/${closure.id}`, { recurrence: 'FREQ=MINUTELY' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'invalid_recurrence', errors: [{ field: 'recurrence' }] });
      const once = await call('PATCH', `${c}/closures/${closure.id}`, { recurrence: null });
      expect(once.json()).toEqual({ ...closure, recurrence: null });
      const again = await call('PATCH', `${c}/closures/${closure.id}`, { recurrence: 'FREQ=MONTHLY' });
      expect(again.json()).toEqual({ ...closure, recurrence: 'FREQ=MONTHLY' });
    });
  });

  describe('buildings and floors', () => {
    it('covers a whole building: names it and marks its units due', async () => {
      await clearDue();
      const closure = await create({
        start: inHours(24),
        end: inHours(48),
        scope: 'buildings',
        buildings: [{ buildingId }],
        groups: ['00000000-0000-4000-8000-000000000001'],
      });
      expect(closure).toMatchObject({
        scope: 'buildings',
        buildings: [{ id: buildingId, name: 'Hauptgebäude', floor: null }],
        groups: [],
        units: [],
      });
      expect(await dueIds()).toEqual([ground, upper].sort());
    });

    it('covers one floor only, with exceptions, and the list filters by unit', async () => {
      await clearDue();
      const floor = await create({
        start: inHours(24),
        end: inHours(48),
        scope: 'buildings',
        buildings: [
          { buildingId, floor: 'EG' },
          { buildingId, floor: 'EG' },
        ],
      });
      expect(floor.buildings).toEqual([{ id: buildingId, name: 'Hauptgebäude', floor: 'EG' }]);
      expect(await dueIds()).toEqual([ground]);
      const ids = async (unitId: string) =>
        (
          (await call('GET', `${c}/closures?unitId=${unitId}&size=200`)).json().results as { id: string }[]
        ).map((r) => r.id);
      expect(await ids(ground)).toContain(floor.id);
      expect(await ids(upper)).not.toContain(floor.id);
      expect(await ids(outside)).not.toContain(floor.id);

      await clearDue();
      const excepted = await call('PATCH', `${c}/closures/${floor.id}`, { exceptions: [ground] });
      expect(excepted.json().exceptions).toEqual([{ id: ground, name: 'Aula' }]);
      expect(await dueIds()).toEqual([ground]);
      expect(await ids(ground)).not.toContain(floor.id);
    });

    it('refuses another company’s building, a floor the building lacks and no building at all', async () => {
      const foreign = (
        await call(
          'POST',
          `/api/companies/${otherCompanyId}/buildings`,
          { name: 'Fremd', state: 'BE' },
          'mallory',
        )
      ).json();
      const before = await closureCount();
      const cases: [object, string, object?][] = [
        [{ buildings: [{ buildingId: foreign.id }] }, 'unknown_building'],
        [{ buildings: [{ buildingId, floor: 'Keller' }] }, 'unknown_floor', { floor: 'Keller' }],
        [{ buildings: [] }, 'closure_no_targets'],
      ];
      for (const [change, code, params] of cases) {
        const res = await call('POST', `${c}/closures`, {
          name: 'x',
          start: inHours(1),
          end: inHours(2),
          scope: 'buildings',
          ...change,
        });
        expect(res.statusCode, code).toBe(400);
        expect(res.json()).toMatchObject({
          code,
          errors: [{ field: 'buildings', code, ...(params ? { params } : {}) }],
        });
      }
      expect(await closureCount()).toBe(before);
    });

    it('patches only the fields given, also after the building dropped the chosen floor', async () => {
      const closure = await create({
        start: inHours(30),
        end: inHours(40),
        recurrence: 'FREQ=WEEKLY',
        scope: 'buildings',
        buildings: [{ buildingId, floor: '1. OG' }],
      });
      const renamed = await call('PATCH', `${c}/closures/${closure.id}`, { name: 'Obergeschoss' });
      expect(renamed.json()).toEqual({ ...closure, name: 'Obergeschoss' });
      const moved = await call('PATCH', `${c}/closures/${closure.id}`, {
        buildings: [{ buildingId, floor: 'EG' }],
      });
      expect(moved.json()).toEqual({
        ...closure,
        name: 'Obergeschoss',
        buildings: [{ ...closure.buildings[0], floor: 'EG' }],
      });

      const dropped = await call('PATCH', `${c}/buildings/${buildingId}`, { floors: ['1. OG'] });
      expect(dropped.statusCode, dropped.body).toBe(200);
      const noted = await call('PATCH', `${c}/closures/${closure.id}`, { note: 'EG gibt es nicht mehr' });
      expect(noted.statusCode, noted.body).toBe(200);
      const stale = await call('PATCH', `${c}/closures/${closure.id}`, {
        buildings: [{ buildingId, floor: 'EG' }],
      });
      expect(stale.json()).toMatchObject({ code: 'unknown_floor', params: { floor: 'EG' } });
      await call('PATCH', `${c}/buildings/${buildingId}`, { floors: ['EG', '1. OG'] });
    });
  });
});
