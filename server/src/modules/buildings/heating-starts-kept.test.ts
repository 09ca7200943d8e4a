/**
 * Tomorrow's heating start kept per building (decision 0069): the buildings list answers it
 * right, computes it again only for the buildings whose rooms' inputs changed — a plan edit, an
 * event, a closure and its deletion, an own day of the building, a room moved out or in, a room
 * deleted — and for all of them when the local day turns; where optimum start runs `on`, once a
 * quarter of an hour; and never keeps a value computed while a change came in. What is computed
 * is observed through the service's computing function, counted here.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import type { Db } from '../../db/client.ts';
import { publicHolidays } from '../../heating/holidays.ts';
import { heatingStartsChanged } from '../../heating/starts.repository.ts';
import { heatingStartsTomorrow } from '../../heating/starts.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';
import { BuildingsService } from './buildings.service.ts';

// A Wednesday mid-morning in Berlin; every expectation is relative to it.
const START = testInstant('2026-12-02T10:00:00+01:00');
const clock = testClock(START);
const ZONE = 'Europe/Berlin';
const MINUTE = 60_000;

/** `hour:minute` local on the day `days` after the clock's, as the API answers it (UTC). */
const at = (hour: number, minute = 0, days = 1) =>
  DateTime.fromJSDate(clock.now(), { zone: ZONE })
    .plus({ days })
    .set({ hour, minute, second: 0, millisecond: 0 })
    .toUTC()
    .toISO();

/** Every day 21 °C from `hour:minute`, 17 °C from 20:00, all year. */
const daily = (hour: number, minute = 0) => ({
  name: 'Alltag',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
    { day, hour, minute, temperature: 21, ignoreWallControl: false },
    { day, hour: 20, minute: 0, temperature: 17, ignoreWallControl: false },
  ]),
});

describe('heating starts kept per building', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let service: BuildingsService;
  /** The buildings (by name) of each computation since the last `list()`. */
  const computed: string[][] = [];
  /** Runs inside the computation, after it: a change made while a list computes. */
  let whileComputing: ((db: Db) => Promise<void>) | null = null;
  const names = new Map<string, string>();
  const b: Record<'nord' | 'sued' | 'leer', string> = { nord: '', sued: '', leer: '' };
  const u: Record<'a1' | 'b1' | 'b2' | 'b3', string> = { a1: '', b1: '', b2: '', b3: '' };
  const plans: Record<string, string> = {};

  const call = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => {
    const res = await t.call(method, url, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  };
  /** The list as the API answers it (start per building name); `computed` says what it computed. */
  const list = async () => {
    computed.length = 0;
    const { results } = await service.list('alice', companyId, { page: 1, size: 200 });
    return Object.fromEntries(results.map((r) => [r.name, r.heatingStartTomorrow]));
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId } = await seedCompanies(t.database.db, { timeZone: ZONE, optimumStart: 'off' }));
    c = `/api/companies/${companyId}`;
    service = new BuildingsService({
      db: t.database.db,
      now: clock.now,
      wake: () => {},
      computeHeatingStarts: async (db, buildingIds, zone, now) => {
        computed.push(buildingIds.map((id) => names.get(id) ?? id).sort());
        const starts = await heatingStartsTomorrow(db, buildingIds, zone, now);
        await whileComputing?.(db);
        return starts;
      },
    });
    for (const [key, name] of [
      ['nord', 'Nord'],
      ['sued', 'Süd'],
      ['leer', 'Leer'],
    ] as const) {
      b[key] = (await call('POST', `${c}/buildings`, { name, state: 'BE' })).id;
      names.set(b[key], name);
    }
    const rooms = [
      ['a1', 'nord', 7, 0],
      ['b1', 'sued', 8, 0],
      ['b2', 'sued', 9, 0],
      ['b3', 'sued', 9, 30],
    ] as const;
    for (const [key, building, hour, minute] of rooms) {
      u[key] = (await call('POST', `${c}/units`, { name: key, buildingId: b[building] })).id;
      plans[key] = (await call('POST', `${c}/units/${u[key]}/plans`, daily(hour, minute))).id;
    }
  });
  afterAll(() => t.close());
  beforeEach(() => {
    whileComputing = null;
  });

  it('follows every change of a building’s rooms, computing that building only', async () => {
    expect(await list()).toEqual({ Leer: null, Nord: at(7), Süd: at(8) });
    // A building without rooms has nothing to compute.
    expect(computed).toEqual([['Nord', 'Süd']]);
    expect(await list()).toEqual({ Leer: null, Nord: at(7), Süd: at(8) });
    expect(computed).toEqual([]);

    // A plan edit.
    await call('PATCH', `${c}/plans/${plans.a1}`, { switchPoints: daily(6, 30).switchPoints });
    expect(await list()).toEqual({ Leer: null, Nord: at(6, 30), Süd: at(8) });
    expect(computed).toEqual([['Nord']]);

    // An event tomorrow from 05:00.
    const event = await call('POST', `${c}/events`, {
      title: 'Elternabend',
      start: at(5),
      end: at(6),
      temperature: 23,
      units: [u.b2],
    });
    expect(await list()).toMatchObject({ Nord: at(6, 30), Süd: at(5) });
    expect(computed).toEqual([['Süd']]);
    await call('DELETE', `${c}/events/${event.id}`);
    expect(await list()).toMatchObject({ Nord: at(6, 30), Süd: at(8) });
    expect(computed).toEqual([['Süd']]);

    // A closure of the building over tomorrow, then its deletion.
    const closure = await call('POST', `${c}/closures`, {
      name: 'Wasserschaden',
      start: at(0),
      // Its end at midnight is the next day's heating start, not tomorrow's.
      end: at(0, 0, 2),
      scope: 'buildings',
      buildings: [{ buildingId: b.nord }],
    });
    expect(await list()).toMatchObject({ Nord: null, Süd: at(8) });
    expect(computed).toEqual([['Nord']]);
    await call('DELETE', `${c}/closures/${closure.id}`);
    expect(await list()).toMatchObject({ Nord: at(6, 30) });
    expect(computed).toEqual([['Nord']]);

    // An own day of the building, counted as a closure.
    // The building's own answer computes and keeps it: the list has nothing left to compute.
    // When tomorrow is a public holiday in Berlin (HEIZPLAN_TEST_NOW may make it Easter Monday),
    // holidays as closures already close it.
    const tomorrow = DateTime.fromJSDate(clock.now(), { zone: ZONE }).plus({ days: 1 });
    const holiday = publicHolidays('BE', null, tomorrow.year, 'de').some(
      (h) => h.date === tomorrow.toISODate(),
    );
    const süd = holiday ? null : at(8);
    const patched = await call('PATCH', `${c}/buildings/${b.sued}`, { publicHolidays: 'closure' });
    expect(patched.heatingStartTomorrow).toBe(süd);
    expect(await list()).toMatchObject({ Süd: süd });
    expect(computed).toEqual([]);
    const day = await call('POST', `${c}/buildings/${b.sued}/days`, {
      date: tomorrow.toISODate(),
      name: 'Brückentag',
    });
    expect(await list()).toMatchObject({ Nord: at(6, 30), Süd: null });
    expect(computed).toEqual([['Süd']]);
    await call('DELETE', `${c}/buildings/${b.sued}/days/${day.id}`);
    expect(await list()).toMatchObject({ Süd: süd });
    // Holidays count for nothing again, so the rest does not depend on tomorrow's date.
    await call('PATCH', `${c}/buildings/${b.sued}`, { publicHolidays: 'ignore' });
    expect(await list()).toMatchObject({ Süd: at(8) });

    // Süd's earliest room moves to Nord: both change.
    await call('PATCH', `${c}/units/${u.b1}`, { buildingId: b.nord });
    expect(await list()).toEqual({ Leer: null, Nord: at(6, 30), Süd: at(9) });
    expect(computed).toEqual([['Nord', 'Süd']]);
    await call('PATCH', `${c}/plans/${plans.b1}`, { switchPoints: daily(6).switchPoints });
    expect(await list()).toMatchObject({ Nord: at(6), Süd: at(9) });
    expect(computed).toEqual([['Nord']]);

    // Süd's earliest room goes.
    await call('DELETE', `${c}/units/${u.b2}`);
    expect(await list()).toMatchObject({ Nord: at(6), Süd: at(9, 30) });
    expect(computed).toEqual([['Süd']]);
    expect(await list()).toMatchObject({ Nord: at(6), Süd: at(9, 30) });
    expect(computed).toEqual([]);
  });

  it('computes every building again when the local day turns, then keeps the new day’s', async () => {
    await list();
    clock.advance(24 * 60 * MINUTE);
    try {
      expect(await list()).toEqual({ Leer: null, Nord: at(6), Süd: at(9, 30) });
      expect(computed).toEqual([['Nord', 'Süd']]);
      await list();
      expect(computed).toEqual([]);
    } finally {
      clock.set(START);
    }
  });

  it('never keeps a value computed while a change came in', async () => {
    // Today's values again (the test before kept tomorrow's day after).
    await list();
    await call('PATCH', `${c}/plans/${plans.a1}`, { switchPoints: daily(5).switchPoints });
    // A plan edit committed between reading Nord's inputs and storing what they gave.
    whileComputing = (db) => heatingStartsChanged(db, { buildingIds: [b.nord] });
    expect(await list()).toMatchObject({ Nord: at(5) });
    expect(computed).toEqual([['Nord']]);
    whileComputing = null;
    await list();
    expect(computed).toEqual([['Nord']]);
    await list();
    expect(computed).toEqual([]);
  });

  it('where optimum start runs on, computes again after a quarter of an hour', async () => {
    // The quarter of an hour must not cross local midnight, where the day's turn computes every
    // building anyway: HEIZPLAN_TEST_NOW may start the file at 23:59.
    const local = DateTime.fromJSDate(clock.now(), { zone: ZONE });
    if (local.endOf('day').diff(local, 'minutes').minutes < 30) {
      clock.set(local.plus({ days: 1 }).set({ hour: 1, minute: 0 }).toJSDate());
    }
    await call('PATCH', `${c}/`, { optimum_start: 'on' });
    try {
      const listed = await list();
      // The company's settings changed: every building.
      expect(computed).toEqual([['Nord', 'Süd']]);
      const direct = await heatingStartsTomorrow(t.database.db, [b.nord, b.sued], ZONE, clock.now());
      expect(listed).toEqual({
        Leer: null,
        Nord: direct.get(b.nord)?.toISOString(),
        Süd: direct.get(b.sued)?.toISOString(),
      });
      // The pre-heat moved the start earlier than the plan's 05:00.
      expect(Date.parse(listed.Nord as string)).toBeLessThan(Date.parse(at(5) as string));
      clock.advance(14 * MINUTE);
      await list();
      expect(computed).toEqual([]);
      clock.advance(2 * MINUTE);
      await list();
      expect(computed).toEqual([['Nord', 'Süd']]);
      // A clock set back does not trust a value computed after it.
      clock.set(START);
      await list();
      expect(computed).toEqual([['Nord', 'Süd']]);
    } finally {
      clock.set(START);
      await call('PATCH', `${c}/`, { optimum_start: 'off' });
    }
  });

  it('follows a bulk delete of a building’s rooms as it follows a single one', async () => {
    expect(await list()).toMatchObject({ Nord: at(5) });
    // Nord's earliest room goes; its other room starts at 06:00.
    const deleted = await call('POST', `${c}/units/bulk-delete`, { unitIds: [u.a1] });
    expect(deleted).toEqual({ count: 1 });
    expect(await list()).toMatchObject({ Nord: at(6) });
    expect(computed).toEqual([['Nord']]);
  });
});
