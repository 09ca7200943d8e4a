import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

// A Wednesday noon: previews without `from` and the preview's two-year range count from here.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const OUT_OF_RANGE = 'Value exceeds temperature range set by your company.';
const days = [1, 2, 3, 4, 5, 6, 7];
/** Year-round plan: 21 °C from 06:00 and 17 °C from 22:00 (or a single constant point). */
const dayNight = (day = 21, night = 17) => ({
  name: 'Alltag',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: days.flatMap((d) => [
    { day: d, hour: 6, minute: 0, temperature: day, ignoreWallControl: false },
    { day: d, hour: 22, minute: 0, temperature: night, ignoreWallControl: false },
  ]),
});
const constant = (temperature: number) => ({
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: days.map((d) => ({ day: d, hour: 0, minute: 0, temperature, ignoreWallControl: false })),
});

describe('heating plans API', () => {
  let t: TestApp;
  let companyId: string;
  let c: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const newUnit = async (name: string) => (await call('POST', `${c}/units`, { name })).json();

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId } = await seedCompanies(t.database.db, { minTemperature: 5, maxTemperature: 25 }));
    c = `/api/companies/${companyId}`;
  });
  afterAll(() => t.close());

  it('saves a unit plan and applies it at once', async () => {
    const unit = await newUnit('Büro');
    const res = await call('POST', `${c}/units/${unit.id}/plans`, constant(19));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      unitId: unit.id,
      groupId: null,
      kind: 'seasonal',
      active: true,
      validFrom: '01-01',
    });
    expect((await call('GET', `${c}/units/${unit.id}`)).json()).toMatchObject({
      setpoint: 19,
      setpointSource: 'regular_plan',
      hasOwnActivePlan: true,
    });
    expect((await call('GET', `${c}/units/${unit.id}/plans`)).json().results).toHaveLength(1);
  });

  it('refuses invalid plans with the spec messages and field errors, saving nothing', async () => {
    const unit = await newUnit('Labor');
    const url = `${c}/units/${unit.id}/plans`;
    const badTime = constant(19);
    badTime.switchPoints[2] = {
      ...badTime.switchPoints[2],
      hour: 24,
    } as (typeof badTime.switchPoints)[number];
    const time = await call('POST', url, badTime);
    expect(time.statusCode).toBe(400);
    expect(time.json()).toMatchObject({
      title: 'Invalid time!',
      detail: 'The time is not valid.',
      errors: [{ field: 'switchPoints.2.hour', message: 'Invalid time!' }],
    });
    const twice = constant(19);
    twice.switchPoints.push({
      ...twice.switchPoints[0],
      temperature: 20,
    } as (typeof twice.switchPoints)[number]);
    const schedule = await call('POST', url, twice);
    expect(schedule.json()).toMatchObject({
      title: 'Invalid schedule!',
      detail: 'There is an error in the schedule.',
    });
    const hot = await call('POST', url, constant(26));
    expect(hot.statusCode).toBe(400);
    expect(hot.json()).toMatchObject({ title: OUT_OF_RANGE, detail: OUT_OF_RANGE });
    // Each message can name the limit broken: the range travels along.
    expect(hot.json()).toMatchObject({
      code: 'out_of_range',
      params: { min: 5, max: 25 },
    });
    expect(hot.json().errors[0]).toMatchObject({
      field: 'switchPoints.0.temperature',
      code: 'out_of_range',
      params: { min: 5, max: 25 },
    });
    // Below the range is not "exceeds": it has a message of its own.
    const cold = await call('POST', url, constant(4));
    expect(cold.statusCode).toBe(400);
    expect(cold.json()).toMatchObject({
      title: 'Value is below the temperature range set by your company.',
      code: 'below_range',
      params: { min: 5, max: 25 },
    });
    expect(cold.json().errors[0]).toMatchObject({
      field: 'switchPoints.0.temperature',
      code: 'below_range',
      params: { min: 5, max: 25 },
    });
    const noDates = await call('POST', url, {
      kind: 'specific_days',
      switchPoints: constant(19).switchPoints.slice(0, 1),
    });
    expect(noDates.json().title).toBe('Invalid schedule!');
    expect((await call('GET', url)).json().results).toEqual([]);
  });

  it('updates and deletes a plan, re-evaluating the unit each time', async () => {
    const unit = await newUnit('Werkstatt');
    const plan = (await call('POST', `${c}/units/${unit.id}/plans`, constant(19))).json();
    const changed = await call('PATCH', `${c}/plans/${plan.id}`, { switchPoints: constant(20).switchPoints });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', `${c}/units/${unit.id}`)).json().setpoint).toBe(20);
    expect((await call('PATCH', `${c}/plans/${plan.id}`, { validTo: '02-30' })).json().title).toBe(
      'Invalid time!',
    );
    expect((await call('DELETE', `${c}/plans/${plan.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${c}/plans/${plan.id}`)).statusCode).toBe(404);
    expect((await call('GET', `${c}/units/${unit.id}`)).json()).toMatchObject({
      setpoint: 8,
      hasOwnActivePlan: false,
    });
  });

  it('applies group plans to the units and refuses them while a unit has its own active plan', async () => {
    const group = (await call('POST', `${c}/groups`, { name: 'Turnhalle' })).json();
    const a = await newUnit('Halle A');
    const b = await newUnit('Halle B');
    await call('POST', `${c}/groups/${group.id}/units`, { unitIds: [a.id, b.id] });
    const gp = await call('POST', `${c}/groups/${group.id}/plans`, constant(18));
    expect(gp.statusCode).toBe(201);
    expect(gp.json().groupId).toBe(group.id);
    for (const u of [a, b]) {
      expect((await call('GET', `${c}/units/${u.id}`)).json()).toMatchObject({
        setpoint: 18,
        setpointSource: 'group_plan',
      });
    }
    const own = (await call('POST', `${c}/units/${a.id}/plans`, constant(22))).json();
    expect((await call('GET', `${c}/units/${a.id}`)).json()).toMatchObject({
      setpoint: 22,
      setpointSource: 'regular_plan',
    });
    expect((await call('GET', `${c}/groups/${group.id}`)).json()).toMatchObject({
      groupPlansAvailable: false,
      blockingUnits: [{ id: a.id, name: 'Halle A' }],
    });
    const refused = await call('POST', `${c}/groups/${group.id}/plans`, constant(19));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('Halle A');
    expect((await call('PATCH', `${c}/plans/${gp.json().id}`, { name: 'Neu' })).statusCode).toBe(409);
    // Switching the group plan off stays possible, and on again is refused.
    expect((await call('PATCH', `${c}/plans/${gp.json().id}`, { active: false })).statusCode).toBe(200);
    expect((await call('PATCH', `${c}/plans/${gp.json().id}`, { active: true })).statusCode).toBe(409);
    await call('PATCH', `${c}/plans/${own.id}`, { active: false });
    expect((await call('GET', `${c}/groups/${group.id}`)).json().groupPlansAvailable).toBe(true);
    expect((await call('PATCH', `${c}/plans/${gp.json().id}`, { active: true })).statusCode).toBe(200);
    expect((await call('GET', `${c}/units/${a.id}`)).json().setpointSource).toBe('group_plan');
    expect((await call('GET', `${c}/groups/${group.id}/plans`)).json().results).toHaveLength(1);
  });

  // Decision 0042: of two active plans of one kind covering the same day only the
  // first ever applied; the second was silently dead. Overlaps are refused, naming the other plan.
  describe('overlapping active plans', () => {
    const season = (name: string, validFrom: string, validTo: string, active = true) => ({
      ...constant(19),
      name,
      validFrom,
      validTo,
      active,
    });
    const holidays = (name: string, dates: string[]) => ({
      name,
      kind: 'specific_days',
      dates,
      switchPoints: [{ day: 1, hour: 0, minute: 0, temperature: 16, ignoreWallControl: false }],
    });

    it('refuses a second seasonal plan covering days of another, across New Year too', async () => {
      const unit = await newUnit('Turnhalle');
      const url = `${c}/units/${unit.id}/plans`;
      const winter = (await call('POST', url, season('Winter', '10-01', '04-30'))).json();
      const spring = await call('POST', url, season('Frühling', '03-01', '05-31'));
      expect(spring.statusCode).toBe(409);
      expect(spring.json()).toMatchObject({
        code: 'plan_overlap_seasonal',
        params: { plan: 'Winter', planId: winter.id, from: '10-01', to: '04-30' },
      });
      expect(spring.json().detail).toContain('"Winter"');
      const newYear = await call('POST', url, season('Jahreswechsel', '12-20', '01-10'));
      expect(newYear.statusCode).toBe(409);
      // Not overlapping: the summer half of the year; and an inactive plan may overlap.
      expect((await call('POST', url, season('Sommer', '05-01', '09-30'))).statusCode).toBe(201);
      const spare = await call('POST', url, season('Reserve', '03-01', '05-31', false));
      expect(spare.statusCode).toBe(201);
      // Switching the overlapping plan on is refused; editing a plan never clashes with itself.
      expect((await call('PATCH', `${c}/plans/${spare.json().id}`, { active: true })).statusCode).toBe(409);
      expect((await call('PATCH', `${c}/plans/${winter.id}`, { validTo: '04-15' })).statusCode).toBe(200);
      expect((await call('GET', url)).json().results).toHaveLength(3);
    });

    it('refuses two specific-days plans sharing a date, naming the date, and lets them beat a season', async () => {
      const unit = await newUnit('Werkraum');
      const url = `${c}/units/${unit.id}/plans`;
      expect((await call('POST', url, season('Ganzjahr', '01-01', '12-31'))).statusCode).toBe(201);
      const christmas = await call('POST', url, holidays('Weihnachten', ['2026-12-24', '2026-12-25']));
      expect(christmas.statusCode).toBe(201);
      const clash = await call('POST', url, holidays('Betriebsferien', ['2026-12-23', '2026-12-24']));
      expect(clash.statusCode).toBe(409);
      expect(clash.json()).toMatchObject({
        code: 'plan_overlap_dates',
        params: { plan: 'Weihnachten', planId: christmas.json().id, dates: '2026-12-24' },
      });
      expect((await call('POST', url, holidays('Silvester', ['2026-12-31']))).statusCode).toBe(201);
    });

    it('applies the same rule to group plans and to a draft in the preview', async () => {
      const group = (await call('POST', `${c}/groups`, { name: 'Trakt C' })).json();
      const member = await newUnit('C 1');
      await call('POST', `${c}/groups/${group.id}/units`, { unitIds: [member.id] });
      const url = `${c}/groups/${group.id}/plans`;
      expect((await call('POST', url, season('Winter', '10-01', '04-30'))).statusCode).toBe(201);
      expect((await call('POST', url, season('Herbst', '09-01', '10-15'))).statusCode).toBe(409);
      const preview = await call('POST', `${c}/units/${member.id}/preview`, {
        scope: 'group',
        plan: season('Herbst', '09-01', '10-15'),
      });
      expect(preview.statusCode).toBe(409);
      expect(preview.json().code).toBe('plan_overlap_seasonal');
    });
  });

  it('previews the next 7 days of the stored plans with each step labelled', async () => {
    const unit = await newUnit('Aula');
    const plan = (await call('POST', `${c}/units/${unit.id}/plans`, dayNight())).json();
    const res = await call('GET', `${c}/units/${unit.id}/preview?days=7`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timeZone).toBe('Europe/Berlin');
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(7 * 86_400_000);
    expect(body.changes).toHaveLength(14);
    for (const step of body.changes) {
      expect(step).toMatchObject({ source: 'regular_plan', planId: plan.id });
      expect([21, 17]).toContain(step.setpoint);
    }
    expect([21, 17]).toContain(body.initial.setpoint);
  });

  // A planner looks at a chosen week (here the one with the DST change of March 2027).
  it('previews from a chosen instant within two years, and refuses unknown query parameters', async () => {
    const unit = await newUnit('Foyer');
    const plan = (await call('POST', `${c}/units/${unit.id}/plans`, dayNight())).json();
    const from = '2027-03-22T00:00:00+01:00';
    const res = await call('GET', `${c}/units/${unit.id}/preview?days=7&from=${encodeURIComponent(from)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().from).toBe('2027-03-21T23:00:00.000Z');
    const mornings = res
      .json()
      .changes.filter((s: { setpoint: number }) => s.setpoint === 21)
      .map((s: { at: string }) => s.at.slice(11, 16));
    // 06:00 Berlin: CET (05:00 UTC) until Sunday 28 March, CEST (04:00 UTC) from Monday.
    expect(mornings).toEqual(['05:00', '05:00', '05:00', '05:00', '05:00', '05:00', '04:00']);

    const draft = await call('POST', `${c}/units/${unit.id}/preview`, {
      plan: dayNight(22, 16),
      planId: plan.id,
      from,
      days: 1,
    });
    expect(draft.json().from).toBe('2027-03-21T23:00:00.000Z');

    const farAway = new Date(clock.now().getTime() + 3 * 365 * 86_400_000).toISOString();
    const tooFar = await call('GET', `${c}/units/${unit.id}/preview?from=${farAway}`);
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json()).toMatchObject({
      code: 'preview_from_out_of_range',
      params: { years: 2 },
      errors: [{ field: 'querystring.from', code: 'preview_from_out_of_range' }],
    });
    expect((await call('GET', `${c}/units/${unit.id}/preview?from=next-winter`)).statusCode).toBe(400);
    const unknown = await call('GET', `${c}/units/${unit.id}/preview?start=2027-01-01T00:00:00Z`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('querystring.start');
  });

  it('previews a draft plan without saving it', async () => {
    const unit = await newUnit('Mensa');
    const res = await call('POST', `${c}/units/${unit.id}/preview`, { plan: dayNight(23, 16), days: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json().changes).toHaveLength(4);
    expect(
      res
        .json()
        .changes.map((s: { setpoint: number }) => s.setpoint)
        .sort(),
    ).toEqual([16, 16, 23, 23]);
    expect((await call('GET', `${c}/units/${unit.id}/plans`)).json().results).toEqual([]);
    expect((await call('GET', `${c}/units/${unit.id}`)).json().setpoint).toBe(8);
    const invalid = await call('POST', `${c}/units/${unit.id}/preview`, { plan: constant(30) });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().title).toBe(OUT_OF_RANGE);
    const noGroup = await call('POST', `${c}/units/${unit.id}/preview`, {
      plan: constant(19),
      scope: 'group',
    });
    expect(noGroup.statusCode).toBe(400);
  });

  it('previews a draft that replaces a stored plan', async () => {
    const unit = await newUnit('Bibliothek');
    const plan = (await call('POST', `${c}/units/${unit.id}/plans`, constant(19))).json();
    const res = await call('POST', `${c}/units/${unit.id}/preview`, { plan: constant(21), planId: plan.id });
    expect(res.json().initial).toMatchObject({ setpoint: 21, planId: plan.id });
  });

  it('answers 404 to a member of another company on every plan endpoint', async () => {
    const unit = await newUnit('Geheim');
    const group = (await call('POST', `${c}/groups`, { name: 'Geheim' })).json();
    const plan = (await call('POST', `${c}/units/${unit.id}/plans`, constant(19))).json();
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${c}/units/${unit.id}/plans`],
      ['POST', `${c}/units/${unit.id}/plans`, constant(19)],
      ['GET', `${c}/groups/${group.id}/plans`],
      ['POST', `${c}/groups/${group.id}/plans`, constant(19)],
      ['GET', `${c}/plans/${plan.id}`],
      ['PATCH', `${c}/plans/${plan.id}`, { active: false }],
      ['DELETE', `${c}/plans/${plan.id}`],
      ['GET', `${c}/units/${unit.id}/preview`],
      ['POST', `${c}/units/${unit.id}/preview`, { plan: constant(19) }],
    ];
    for (const [method, url, body] of requests) {
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('GET', `${c}/plans/${plan.id}`)).json().active).toBe(true);
  });
});
