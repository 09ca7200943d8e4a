/**
 * Public holidays through the real scheduler with a simulated clock and the preview (decision
 * 0052): a unit in a Bavarian building that treats holidays as closures in economy mode keeps
 * the economy setpoint (source `closure`) over Christmas Day and Boxing Day, 00:00 to 00:00
 * Berlin time, and its preview names "1. Weihnachtstag" as a holiday; a unit in a building that
 * ignores holidays keeps its plan; an entered closure outranks a holiday it overlaps. A school that
 * uses school holidays keeps frost protection over the Christmas break, named "Weihnachtsferien
 * (Bayern)"; a building treating holidays like Sundays heats Christmas Day by the Sunday points; an
 * own day closes a building all day under the name it was entered with.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { databaseDeviceDirectory } from '../../heating/device-directory.ts';
import { HeatingScheduler } from '../../heating/scheduler.ts';
import type { SetpointCommand } from '../../heating/setpoint-sink.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

/** Year-round group plan: 21 °C from 07:00, 17 °C from 20:00, every day. */
const groupPlan = {
  name: 'Ganzjährig',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
    { day, hour: 7, minute: 0, temperature: 21, ignoreWallControl: false },
    { day, hour: 20, minute: 0, temperature: 17, ignoreWallControl: false },
  ]),
};

// Early December, before the Christmas break; every test starts here (the scheduler test moves on).
const START = testInstant('2026-12-02T09:00:00+01:00');
const clock = testClock(START);

/**
 * The next Christmas after the clock's start (2026 by default): the preview's `from` must stay
 * within two years of the clock. Berlin is UTC+1 in December.
 */
const Y = (() => {
  const year = START.getUTCFullYear();
  return START.getTime() < Date.parse(`${year}-12-20T00:00:00Z`) ? year : year + 1;
})();
const CHRISTMAS_EVE_NOON = `${Y}-12-24T12:00:00+01:00`;
const CHRISTMAS_START = new Date(`${Y}-12-24T23:00:00Z`);
const BOXING_DAY_START = new Date(`${Y}-12-25T23:00:00Z`);
const HOLIDAYS_END = new Date(`${Y}-12-26T23:00:00Z`);

interface Step {
  at: string;
  setpoint: number;
  source: string;
  closureId: string | null;
}

describe('public holidays through the scheduler and the preview', () => {
  let t: TestApp;
  let scheduler: HeatingScheduler;
  const sent: SetpointCommand[] = [];
  let c: string;
  let holidayUnit: string;
  let plainUnit: string;
  let bavaria: { id: string };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.call(method, url, payload);
  const tickAt = async (at: Date) => {
    clock.set(at);
    return scheduler.tick();
  };
  const preview = async (unitId: string) =>
    (
      await call('GET', `${c}/units/${unitId}/preview?days=4&from=${encodeURIComponent(CHRISTMAS_EVE_NOON)}`)
    ).json();

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    scheduler = new HeatingScheduler({
      db: t.database.db,
      sink: { send: async (batch) => void sent.push(...batch) },
      devices: databaseDeviceDirectory(t.database.db),
      logger: { error: () => {} },
      now: clock.now,
    });
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    bavaria = (
      await call('POST', `${c}/buildings`, {
        name: 'Schule München',
        state: 'BY',
        publicHolidays: 'closure',
        holidayMode: 'economy',
      })
    ).json();
    const ignoring = (await call('POST', `${c}/buildings`, { name: 'Werkstatt', state: 'BY' })).json();
    const group = (await call('POST', `${c}/groups`, { name: 'Alle' })).json();
    expect((await call('POST', `${c}/groups/${group.id}/plans`, groupPlan)).statusCode).toBe(201);
    const unit = async (name: string, buildingId: string) =>
      (await call('POST', `${c}/units`, { name, groupId: group.id, buildingId })).json().id as string;
    holidayUnit = await unit('Klassenzimmer', bavaria.id);
    plainUnit = await unit('Werkraum', ignoring.id);
    await t.database.db.insert(devices).values(
      [holidayUnit, plainUnit].map((unitId, i) => {
        const id = `70b3d52dd5ff000${i}`;
        return { id, devEui: id, companyId, model: 'test', unitId };
      }),
    );
  });
  afterAll(() => t.close());
  beforeEach(() => clock.set(START));

  it('previews Christmas as economy closures named after the holidays, only in the building that wants them', async () => {
    const christmas = `holiday:${bavaria.id}:${Y}-12-25`;
    const boxingDay = `holiday:${bavaria.id}:${Y}-12-26`;
    const shown = await preview(holidayUnit);
    const steps = (shown.changes as Step[]).map((s) => [s.at, s.setpoint, s.source, s.closureId]);
    expect(steps).toContainEqual([CHRISTMAS_START.toISOString(), 16, 'closure', christmas]);
    expect(steps).toContainEqual([BOXING_DAY_START.toISOString(), 16, 'closure', boxingDay]);
    expect(steps).toContainEqual([HOLIDAYS_END.toISOString(), 17, 'group_plan', null]);
    // No plan step on the holidays: 07:00 and 20:00 of both days are inside them.
    expect(
      (shown.changes as Step[]).filter(
        (s) => new Date(s.at) > CHRISTMAS_START && new Date(s.at) < HOLIDAYS_END && s.source !== 'closure',
      ),
    ).toEqual([]);
    expect(shown.closures).toEqual([
      { id: christmas, name: '1. Weihnachtstag', mode: 'economy', kind: 'holiday' },
      { id: boxingDay, name: '2. Weihnachtstag', mode: 'economy', kind: 'holiday' },
    ]);

    const plain = await preview(plainUnit);
    expect((plain.changes as Step[]).some((s) => s.source === 'closure')).toBe(false);
    expect(plain.changes).toContainEqual(
      expect.objectContaining({ at: `${Y}-12-25T06:00:00.000Z`, setpoint: 21, source: 'group_plan' }),
    );
    expect(plain.closures).toEqual([]);
  });

  it('names the holidays in the language the member chose', async () => {
    expect((await call('POST', '/api/me/language?lang=en')).statusCode).toBeLessThan(300);
    const shown = await preview(holidayUnit);
    expect(shown.closures.map((x: { name: string }) => x.name)).toEqual(['Christmas Day', 'Boxing Day']);
    await call('POST', '/api/me/language?lang=de');
  });

  it('the scheduler holds economy over both holidays and returns to the plan at midnight', async () => {
    await tickAt(new Date(CHRISTMAS_START.getTime() - 60_000)); // catch-up before Christmas
    sent.length = 0;
    await tickAt(CHRISTMAS_START);
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([[holidayUnit, 'closure', 16]]);
    const held = (await call('GET', `${c}/units/${holidayUnit}`)).json();
    expect(held).toMatchObject({ setpoint: 16, setpointSource: 'closure' });
    // The scheduler wakes at the next holiday edge, not at the plan's 07:00.
    expect(held.nextChangeAt).toBe(BOXING_DAY_START.toISOString());
    // A manual change could not hold against the holiday: refused like in a closure.
    const manual = await call('POST', `${c}/units/${holidayUnit}/setpoint`, { setpoint: 22 });
    expect(manual.json()).toMatchObject({ code: 'unit_closed' });

    sent.length = 0;
    await tickAt(new Date(`${Y}-12-25T06:00:00Z`));
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([
      [plainUnit, 'group_plan', 21],
    ]);
    await tickAt(BOXING_DAY_START);
    await tickAt(new Date(`${Y}-12-26T06:00:00Z`));
    expect((await call('GET', `${c}/units/${holidayUnit}`)).json()).toMatchObject({
      setpoint: 16,
      setpointSource: 'closure',
    });
    await tickAt(new Date(`${Y}-12-26T19:00:00Z`));
    sent.length = 0;
    await tickAt(HOLIDAYS_END);
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([
      [holidayUnit, 'group_plan', 17],
    ]);
    const log = (await call('GET', `${c}/units/${holidayUnit}/log?limit=10`)).json().results;
    expect(log[0]).toMatchObject({ kind: 'group_plan', at: HOLIDAYS_END.toISOString(), newSetpoint: 17 });
    expect(log).toContainEqual(
      expect.objectContaining({
        kind: 'closure',
        at: CHRISTMAS_START.toISOString(),
        newSetpoint: 16,
        closure: {
          id: `holiday:${bavaria.id}:${Y}-12-25`,
          name: '1. Weihnachtstag',
          mode: 'economy',
          kind: 'holiday',
        },
      }),
    );
  });

  it('an entered closure outranks a holiday it overlaps; the holiday holds where the closure does not', async () => {
    // Frost from Boxing Day 12:00 into the 28th: Christmas Day and Boxing Day morning stay economy.
    const closure = await call('POST', `${c}/closures`, {
      name: 'Betriebsruhe',
      start: `${Y}-12-26T12:00:00+01:00`,
      end: `${Y}-12-28T00:00:00+01:00`,
      mode: 'frost',
      scope: 'units',
      units: [holidayUnit],
    });
    expect(closure.statusCode).toBe(201);
    const shown = await preview(holidayUnit);
    const steps = (shown.changes as Step[]).map((s) => [s.at, s.setpoint, s.source, s.closureId]);
    expect(steps).toContainEqual([
      CHRISTMAS_START.toISOString(),
      16,
      'closure',
      `holiday:${bavaria.id}:${Y}-12-25`,
    ]);
    expect(steps).toContainEqual([
      BOXING_DAY_START.toISOString(),
      16,
      'closure',
      `holiday:${bavaria.id}:${Y}-12-26`,
    ]);
    expect(steps).toContainEqual([`${Y}-12-26T11:00:00.000Z`, 8, 'closure', closure.json().id]);
    expect(steps).toContainEqual([`${Y}-12-27T23:00:00.000Z`, 17, 'group_plan', null]);
    expect(shown.closures.map((x: { name: string; kind: string }) => [x.name, x.kind])).toEqual([
      ['Betriebsruhe', 'closure'],
      ['1. Weihnachtstag', 'holiday'],
      ['2. Weihnachtstag', 'holiday'],
    ]);
  });

  it('a school holds its holiday mode over the state\'s Christmas break; a "like a Sunday" building heats holidays by the Sunday points', async () => {
    const school = (
      await call('POST', `${c}/buildings`, { name: 'Gymnasium', state: 'BY', schoolHolidays: true })
    ).json();
    expect(school).toMatchObject({ schoolHolidays: true, publicHolidays: 'ignore', holidayMode: 'frost' });
    const office = (
      await call('POST', `${c}/buildings`, { name: 'Verwaltung', state: 'BY', publicHolidays: 'sunday' })
    ).json();
    const group = (await call('POST', `${c}/groups`, { name: 'Büros' })).json();
    const weekdays = [1, 2, 3, 4, 5, 6].flatMap((day) => [
      { day, hour: 7, minute: 0, temperature: 21, ignoreWallControl: false },
      { day, hour: 20, minute: 0, temperature: 17, ignoreWallControl: false },
    ]);
    const sunday = [
      { day: 7, hour: 10, minute: 0, temperature: 19, ignoreWallControl: false },
      { day: 7, hour: 20, minute: 0, temperature: 17, ignoreWallControl: false },
    ];
    const plan = { ...groupPlan, switchPoints: [...weekdays, ...sunday] };
    expect((await call('POST', `${c}/groups/${group.id}/plans`, plan)).statusCode).toBe(201);
    const classroom = (
      await call('POST', `${c}/units`, { name: 'Physiksaal', groupId: group.id, buildingId: school.id })
    ).json().id;
    const desk = (
      await call('POST', `${c}/units`, { name: 'Büro 1', groupId: group.id, buildingId: office.id })
    ).json().id;

    const inBreak = await preview(classroom);
    expect(inBreak.initial).toMatchObject({ setpoint: 8, source: 'closure' });
    expect(inBreak.initial.closureId).toMatch(new RegExp(`^school:${school.id}:${Y}-12-2[0-4]$`));
    expect(inBreak.closures).toEqual([
      {
        id: inBreak.initial.closureId,
        name: 'Weihnachtsferien (Bayern)',
        mode: 'frost',
        kind: 'school_holiday',
      },
    ]);
    expect((inBreak.changes as Step[]).filter((step) => step.source !== 'closure')).toEqual([]);

    const holidayLikeSunday = await preview(desk);
    const onChristmas = (holidayLikeSunday.changes as Step[])
      .filter((step) => step.at >= CHRISTMAS_START.toISOString() && step.at < BOXING_DAY_START.toISOString())
      .map((step) => [step.at, step.setpoint, step.source]);
    expect(onChristmas).toEqual([
      [`${Y}-12-25T09:00:00.000Z`, 19, 'group_plan'],
      [`${Y}-12-25T19:00:00.000Z`, 17, 'group_plan'],
    ]);
    expect(holidayLikeSunday.closures).toEqual([]);
  });

  it('an own day closes a building that ignores public holidays, named as entered', async () => {
    const { buildingId } = (await call('GET', `${c}/units/${plainUnit}`)).json();
    const day = await call('POST', `${c}/buildings/${buildingId}/days`, {
      date: `${Y}-12-27`,
      name: 'Inventurtag',
    });
    expect(day.statusCode, day.body).toBe(201);
    const shown = await preview(plainUnit);
    const id = `day:${buildingId}:${Y}-12-27`;
    expect(shown.changes).toContainEqual(
      expect.objectContaining({
        at: `${Y}-12-26T23:00:00.000Z`,
        setpoint: 8,
        source: 'closure',
        closureId: id,
      }),
    );
    expect(shown.closures).toEqual([{ id, name: 'Inventurtag', mode: 'frost', kind: 'company_day' }]);
  });
});
