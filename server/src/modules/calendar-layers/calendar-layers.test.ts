/**
 * The events calendar's layers: a company with entered closures (one recurring), a Bavarian
 * school treating public holidays as closures with school holidays on and an own day, an office
 * treating holidays like Sundays, and a booking feed of a room in the school (fresh: its heating
 * booking shows, one that does not heat does not; stale: nothing) — over Christmas 2026, by start,
 * in the member's language, narrowed to one building; the window's limits; strangers 404, a
 * member who only reads gets them.
 */
import type { CalendarLayer, CalendarLayerList } from '@heizplan/contracts/calendar-layers';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { bookingFeeds, bookings, users } from '../../db/schema.ts';
import { addMember, expectProblem } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

/** Monday 14 December 2026 to Monday 11 January 2027, Berlin time: four weeks. */
const FROM = '2026-12-14T00:00:00+01:00';
const TO = '2027-01-11T00:00:00+01:00';
// Two weeks before the window: its closures are upcoming, a feed's freshness is read from here.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

describe('calendar layers', () => {
  let t: TestApp;
  let c: string;
  let school: { id: string; name: string };
  let office: { id: string; name: string };
  let room: { id: string; name: string };
  let foreignBuilding: string;
  let weekly: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const layersUrl = (from: string, to: string, extra = '') =>
    `${c}/calendar-layers?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`;
  const layers = async (extra = '', user?: string): Promise<CalendarLayer[]> => {
    const res = await call('GET', layersUrl(FROM, TO, extra), undefined, user);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CalendarLayerList;
    expect(body.truncated).toBe(false);
    return body.results;
  };
  const created = async (res: { statusCode: number; body: string; json(): unknown }) => {
    expect(res.statusCode, res.body).toBe(201);
    const { id, name } = res.json() as { id: string; name: string };
    return { id, name };
  };
  const booking = (feedId: string, uid: string, title: string, start: string, end: string, heats = true) => ({
    id: crypto.randomUUID(),
    feedId,
    uid,
    title,
    start: new Date(start),
    end: new Date(end),
    heats,
  });

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const seeded = await seedCompanies(t.database.db);
    c = `/api/companies/${seeded.companyId}`;
    await addMember(t, seeded.companyId, 'erin', 'ems');
    foreignBuilding = (
      await created(
        await call(
          'POST',
          `/api/companies/${seeded.otherCompanyId}/buildings`,
          { name: 'Fremd', state: 'BY', publicHolidays: 'closure' },
          'mallory',
        ),
      )
    ).id;
    school = await created(
      await call('POST', `${c}/buildings`, {
        name: 'Grundschule',
        state: 'BY',
        publicHolidays: 'closure',
        holidayMode: 'economy',
        schoolHolidays: true,
      }),
    );
    office = await created(
      await call('POST', `${c}/buildings`, { name: 'Verwaltung', state: 'NW', publicHolidays: 'sunday' }),
    );
    await created(
      await call('POST', `${c}/buildings/${school.id}/days`, { date: '2026-12-23', name: 'Inventur' }),
    );
    await created(
      await call('POST', `${c}/buildings/${office.id}/days`, { date: '2026-12-30', name: 'Brückentag' }),
    );
    room = await created(
      await call('POST', `${c}/units`, { name: 'Besprechung 1.10', buildingId: school.id }),
    );
    const desk = await created(await call('POST', `${c}/units`, { name: 'Büro', buildingId: office.id }));
    await created(
      await call('POST', `${c}/closures`, {
        name: 'Betriebsruhe',
        start: '2026-12-21T07:00:00Z',
        end: '2026-12-22T07:00:00Z',
        mode: 'standby',
      }),
    );
    await created(
      await call('POST', `${c}/closures`, {
        name: 'Büro zu',
        start: '2026-12-28T07:00:00Z',
        end: '2026-12-28T17:00:00Z',
        scope: 'units',
        units: [desk.id],
      }),
    );
    // Friday 18:00 to Saturday 06:00 (Berlin), three times; the first one before the window.
    weekly = (
      await created(
        await call('POST', `${c}/closures`, {
          name: 'Wochenende',
          start: '2026-12-11T17:00:00Z',
          end: '2026-12-12T05:00:00Z',
          recurrence: 'FREQ=WEEKLY;COUNT=3',
          scope: 'buildings',
          buildings: [{ buildingId: office.id }],
        }),
      )
    ).id;
    const fresh = await created(
      await call('POST', `${c}/booking-feeds`, {
        name: 'Raumbuchung',
        unitId: room.id,
        url: 'webcal://calendar.example.test/raum.ics',
      }),
    );
    const stale = await created(
      await call('POST', `${c}/booking-feeds`, {
        name: 'Alt',
        unitId: room.id,
        url: 'webcal://calendar.example.test/alt.ics',
      }),
    );
    const db = t.database.db;
    await db
      .update(bookingFeeds)
      .set({ lastSuccessAt: clock.now(), lastSyncAt: clock.now() })
      .where(eq(bookingFeeds.id, fresh.id));
    await db
      .update(bookingFeeds)
      .set({ lastSuccessAt: new Date(clock.now().getTime() - 25 * 3_600_000), lastSyncAt: clock.now() })
      .where(eq(bookingFeeds.id, stale.id));
    await db
      .insert(bookings)
      .values([
        booking(fresh.id, 'eltern@test', 'Elternabend', '2026-12-15T17:00:00Z', '2026-12-15T19:00:00Z'),
        booking(
          fresh.id,
          'putz@test',
          'Reinigung – nicht heizen',
          '2026-12-16T17:00:00Z',
          '2026-12-16T18:00:00Z',
          false,
        ),
        booking(fresh.id, 'frueher@test', 'Vorher', '2026-12-01T17:00:00Z', '2026-12-01T18:00:00Z'),
        booking(stale.id, 'alt@test', 'Veraltet', '2026-12-17T17:00:00Z', '2026-12-17T18:00:00Z'),
      ]);
  });
  afterAll(() => t.close());

  it('lists closures, holidays, school holidays, own days and bookings of the window by start, in German', async () => {
    const all = await layers();
    const at = (name: string) => all.filter((l) => l.name === name);
    expect(at('Elternabend')).toEqual([
      {
        id: expect.stringMatching(/^booking:/),
        kind: 'booking',
        name: 'Elternabend',
        start: '2026-12-15T17:00:00.000Z',
        end: '2026-12-15T19:00:00.000Z',
        mode: null,
        building: school,
        unit: room,
      },
    ]);
    expect(at('Reinigung – nicht heizen')).toEqual([]);
    expect(at('Vorher')).toEqual([]);
    expect(at('Veraltet')).toEqual([]);
    expect(at('Betriebsruhe')).toEqual([
      expect.objectContaining({
        kind: 'closure',
        start: '2026-12-21T07:00:00.000Z',
        end: '2026-12-22T07:00:00.000Z',
        mode: 'standby',
        building: null,
        unit: null,
      }),
    ]);
    expect(at('Büro zu')).toHaveLength(1);
    // The recurring closure's occurrences in the window, each with its own id; Berlin wall-clock times.
    expect(at('Wochenende').map((l) => [l.id, l.start, l.end, l.building])).toEqual([
      [
        `closure:${weekly}:2026-12-18T17:00:00.000Z`,
        '2026-12-18T17:00:00.000Z',
        '2026-12-19T05:00:00.000Z',
        office,
      ],
      [
        `closure:${weekly}:2026-12-25T17:00:00.000Z`,
        '2026-12-25T17:00:00.000Z',
        '2026-12-26T05:00:00.000Z',
        office,
      ],
    ]);
    expect(at('Inventur')).toEqual([
      {
        id: `day:${school.id}:2026-12-23`,
        kind: 'company_day',
        name: 'Inventur',
        start: '2026-12-22T23:00:00.000Z',
        end: '2026-12-23T23:00:00.000Z',
        mode: 'economy',
        building: school,
        unit: null,
      },
    ]);
    expect(at('Weihnachtsferien (Bayern)')).toEqual([
      expect.objectContaining({
        kind: 'school_holiday',
        start: '2026-12-23T23:00:00.000Z',
        end: '2027-01-08T23:00:00.000Z',
        mode: 'economy',
        building: school,
      }),
    ]);
    const holidays = (building: { id: string }) =>
      all
        .filter((l) => l.kind === 'holiday' && l.building?.id === building.id)
        .map((l) => [DateTime.fromISO(l.start, { zone: 'Europe/Berlin' }).toISODate(), l.mode]);
    // Bavaria: Christmas, Boxing Day, New Year, Epiphany as closures in the school's holiday mode.
    expect(holidays(school)).toEqual([
      ['2026-12-25', 'economy'],
      ['2026-12-26', 'economy'],
      ['2027-01-01', 'economy'],
      ['2027-01-06', 'economy'],
    ]);
    expect(at('1. Weihnachtstag').map((l) => l.building?.name)).toEqual(['Grundschule', 'Verwaltung']);
    // North Rhine-Westphalia like Sundays: the days without a heating mode, the own day too.
    expect(holidays(office)).toEqual([
      ['2026-12-25', null],
      ['2026-12-26', null],
      ['2027-01-01', null],
    ]);
    expect(at('Brückentag')).toEqual([
      expect.objectContaining({ kind: 'company_day', mode: null, building: office }),
    ]);
    const starts = all.map((l) => l.start);
    expect(starts).toEqual([...starts].sort());
    expect(new Set(all.map((l) => l.id)).size).toBe(all.length);
  });

  it('names public and school holidays in the member’s language', async () => {
    await t.database.db.update(users).set({ lang: 'en' }).where(eq(users.id, 'alice'));
    try {
      const names = (await layers()).map((l) => l.name);
      expect(names).toContain('Christmas holidays (Bavaria)');
      expect(names).toContain('Christmas Day');
      expect(names).toContain('Inventur');
    } finally {
      await t.database.db.update(users).set({ lang: null }).where(eq(users.id, 'alice'));
    }
  });

  it('narrows to one building: its calendar, the closures covering its units, its rooms’ bookings', async () => {
    const some = await layers(`&buildingId=${school.id}`);
    expect(new Set(some.map((l) => l.name))).toEqual(
      new Set([
        'Elternabend',
        'Betriebsruhe',
        'Inventur',
        'Weihnachtsferien (Bayern)',
        '1. Weihnachtstag',
        '2. Weihnachtstag',
        'Neujahr',
        'Heilige Drei Könige',
      ]),
    );
    expect(some.every((l) => l.kind === 'closure' || l.building?.id === school.id)).toBe(true);
    const office_ = await layers(`&buildingId=${office.id}`);
    expect(office_.filter((l) => l.kind === 'closure').map((l) => l.name)).toEqual([
      'Wochenende',
      'Betriebsruhe',
      'Wochenende',
      'Büro zu',
    ]);
  });

  it('refuses a window that does not end after its start or is longer than 62 days', async () => {
    const empty = expectProblem(await call('GET', layersUrl(FROM, FROM)), 400) as unknown as {
      code: string;
      errors: { field: string; code: string }[];
    };
    expect(empty.code).toBe('calendar_range_end_not_after_start');
    expect(empty.errors).toEqual([
      expect.objectContaining({ field: 'to', code: 'calendar_range_end_not_after_start' }),
    ]);
    const long = expectProblem(
      await call('GET', layersUrl('2026-12-01T00:00:00Z', '2027-02-01T00:00:01Z')),
      400,
    ) as unknown as { code: string; params: unknown };
    expect(long).toMatchObject({ code: 'calendar_range_too_long', params: { days: 62 } });
    expect((await call('GET', layersUrl('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z'))).statusCode).toBe(
      200,
    );
    expectProblem(await call('GET', `${c}/calendar-layers?from=${encodeURIComponent(FROM)}`), 400);
  });

  it('answers strangers and another company’s building 404 and a member who only reads', async () => {
    expectProblem(await call('GET', layersUrl(FROM, TO), undefined, 'mallory'), 404);
    const foreign = expectProblem(
      await call('GET', layersUrl(FROM, TO, `&buildingId=${foreignBuilding}`)),
      404,
    );
    expect(foreign).toMatchObject({ code: 'unknown_building' });
    expect((await layers('', 'erin')).map((l) => l.name)).toContain('Elternabend');
  });
});
