/**
 * The company's own days per building (decision 0052): added one by one (one per date), listed
 * by year, imported from an ICS file (multi-day, timed and recurring events become local days;
 * dates the building has are skipped; a file that is no calendar is refused), deleted; each
 * change makes the building's units due; strangers get 404, a member who only reads 403.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildingDays, units } from '../../db/schema.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';
import { localDates } from './building-days.service.ts';

// The import's window (a year back, three ahead) is counted from this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
/** Next year: every event lies within the import's window. */
const Y = clock.now().getUTCFullYear() + 1;

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Heizplan test//DE',
  // Two whole days (DTEND is exclusive).
  'BEGIN:VEVENT',
  'UID:betriebsausflug@test',
  `DTSTART;VALUE=DATE:${Y}0514`,
  `DTEND;VALUE=DATE:${Y}0516`,
  'SUMMARY:Betriebsausflug',
  'END:VEVENT',
  // A timed event late in the evening, Berlin time: its local day counts.
  'BEGIN:VEVENT',
  'UID:inventur@test',
  `DTSTART;TZID=Europe/Berlin:${Y}0104T180000`,
  `DTEND;TZID=Europe/Berlin:${Y}0104T230000`,
  'SUMMARY:Inventur',
  'END:VEVENT',
  // Every year on 31 December, three times.
  'BEGIN:VEVENT',
  'UID:silvester@test',
  `DTSTART;VALUE=DATE:${Y - 1}1231`,
  `DTEND;VALUE=DATE:${Y}0101`,
  'RRULE:FREQ=YEARLY;COUNT=3',
  'SUMMARY:Silvester',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:abgesagt@test',
  `DTSTART;VALUE=DATE:${Y}0301`,
  `DTEND;VALUE=DATE:${Y}0302`,
  'STATUS:CANCELLED',
  'SUMMARY:Abgesagt',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

describe('own days of a building', () => {
  let t: TestApp;
  let c: string;
  let building: { id: string };
  let unitId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const days = (year: number, user?: string) =>
    call('GET', `${c}/buildings/${building.id}/days?year=${year}`, undefined, user);
  const dayCount = async () => (await t.database.db.select({ n: count() }).from(buildingDays))[0]?.n ?? 0;
  const due = async () =>
    (await t.database.db.select({ next: units.nextChangeAt }).from(units).where(eq(units.id, unitId)))[0]
      ?.next;

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const seeded = await seedCompanies(t.database.db);
    c = `/api/companies/${seeded.companyId}`;
    await addMember(t, seeded.companyId, 'erin', 'ems');
    building = (await call('POST', `${c}/buildings`, { name: 'Verwaltung', state: 'NW' })).json();
    unitId = (await call('POST', `${c}/units`, { name: 'Empfang', buildingId: building.id })).json().id;
  });
  afterAll(() => t.close());

  it('adds a day once per date, lists the year by date and makes the units due', async () => {
    await t.database.db.update(units).set({ nextChangeAt: null });
    const added = await call('POST', `${c}/buildings/${building.id}/days`, {
      date: `${Y}-05-07`,
      name: 'Brückentag',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      date: `${Y}-05-07`,
      name: 'Brückentag',
      createdBy: { id: 'alice' },
    });
    expect(await due()).not.toBeNull();
    const again = await call('POST', `${c}/buildings/${building.id}/days`, {
      date: `${Y}-05-07`,
      name: 'Doppelt',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'building_day_exists', params: { date: `${Y}-05-07` } });
    const invalid = await call('POST', `${c}/buildings/${building.id}/days`, {
      date: `${Y}-02-30`,
      name: 'x',
    });
    expect(invalid.statusCode).toBe(400);
    expect((await days(Y)).json().results.map((d: { date: string }) => d.date)).toEqual([`${Y}-05-07`]);
    expect((await days(Y - 1)).json().results).toEqual([]);
  });

  it('imports the local days of an ICS file, skipping dates it has and cancelled events', async () => {
    const res = await call('POST', `${c}/buildings/${building.id}/days/import`, { ics: ICS });
    expect(res.statusCode, res.body).toBe(200);
    // 14 + 15 May, 4 Jan, three New Year's Eves; the cancelled event is not there.
    expect(res.json()).toEqual({ imported: 6, skipped: 0 });
    const listed = (await days(Y))
      .json()
      .results.map((d: { date: string; name: string }) => [d.date, d.name]);
    expect(listed).toEqual([
      [`${Y}-01-04`, 'Inventur'],
      [`${Y}-05-07`, 'Brückentag'],
      [`${Y}-05-14`, 'Betriebsausflug'],
      [`${Y}-05-15`, 'Betriebsausflug'],
      [`${Y}-12-31`, 'Silvester'],
    ]);
    const twice = await call('POST', `${c}/buildings/${building.id}/days/import`, { ics: ICS });
    expect(twice.json()).toEqual({ imported: 0, skipped: 6 });
  });

  it('refuses a file that is no calendar, with a code, adding nothing', async () => {
    const before = await dayCount();
    const res = await call('POST', `${c}/buildings/${building.id}/days/import`, {
      ics: 'Name;Datum\nx;1.1.',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_ics' });
    expect(await dayCount()).toBe(before);
  });

  it('deletes a day; then it is unknown', async () => {
    const [day] = (await days(Y)).json().results;
    expect((await call('DELETE', `${c}/buildings/${building.id}/days/${day.id}`)).statusCode).toBe(204);
    const gone = await call('DELETE', `${c}/buildings/${building.id}/days/${day.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'unknown_building_day' });
  });

  it('answers a stranger 404 and a member who only reads 403 to writes, changing nothing', async () => {
    const before = await dayCount();
    const [day] = (await days(Y, 'erin')).json().results;
    const writes: [Parameters<typeof call>[0], string, object?][] = [
      ['POST', `${c}/buildings/${building.id}/days`, { date: `${Y}-06-01`, name: 'x' }],
      ['POST', `${c}/buildings/${building.id}/days/import`, { ics: ICS }],
      ['DELETE', `${c}/buildings/${building.id}/days/${day.id}`],
    ];
    for (const [method, url, body] of writes) {
      expect((await call(method, url, body, 'erin')).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await days(Y, 'mallory')).statusCode).toBe(404);
    expect(await dayCount()).toBe(before);
  });

  it('counts an evening event on its local day and a night across midnight on both', () => {
    const zone = 'Europe/Berlin';
    expect(localDates(new Date('2027-01-04T17:00:00Z'), new Date('2027-01-04T22:00:00Z'), zone)).toEqual([
      '2027-01-04',
    ]);
    expect(localDates(new Date('2027-01-04T22:00:00Z'), new Date('2027-01-05T02:00:00Z'), zone)).toEqual([
      '2027-01-04',
      '2027-01-05',
    ]);
  });
});
