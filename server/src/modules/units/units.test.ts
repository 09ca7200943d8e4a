import { UnitPageSchema } from '@heizplan/contracts/heating';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices, downlinks, memberships, setpointOutbox, units, users } from '../../db/schema.ts';
import { allYearPlan, seedCompanies } from './heating-test-fixtures.ts';

const OUT_OF_RANGE = 'Value exceeds temperature range set by your company.';

describe('units API', () => {
  let t: TestApp;
  let companyId: string;
  let otherCompanyId: string;
  let base: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db, {
      minTemperature: 5,
      maxTemperature: 26,
    }));
    base = `/api/companies/${companyId}/units`;
  });
  afterAll(() => t.close());

  it('creates a unit that starts at frost protection and records who created it', async () => {
    const res = await call('POST', base, { name: 'Büro 1', wallControlMin: 18, wallControlMax: 23 });
    expect(res.statusCode).toBe(201);
    // Without a plan the source says so, and the setpoint is not older than the unit.
    expect(res.json().setpointSince).toBe(res.json().createdAt);
    expect(res.json()).toMatchObject({
      name: 'Büro 1',
      groupId: null,
      setpoint: 8,
      setpointSource: 'no_plan',
      wallControlMin: 18,
      wallControlMax: 23,
      paused: false,
      createdBy: { id: 'alice', name: 'Alice' },
    });
  });

  it('creates 20 units from a pattern in one call, in a group', async () => {
    const group = await call('POST', `/api/companies/${companyId}/groups`, { name: 'Schule' });
    const res = await call('POST', `${base}/bulk`, {
      pattern: 'Raum {n}',
      count: 20,
      groupId: group.json().id,
    });
    expect(res.statusCode).toBe(201);
    const names = res.json().results.map((u: { name: string }) => u.name);
    expect(names).toHaveLength(20);
    expect(names[0]).toBe('Raum 1');
    expect(names[19]).toBe('Raum 20');
    expect(res.json().results.every((u: { groupName: string }) => u.groupName === 'Schule')).toBe(true);
  });

  it('refuses bulk requests that are too big, lack {n} or name an unknown group, creating nothing', async () => {
    const before = (await call('GET', `${base}?size=1`)).json().count;
    expect((await call('POST', `${base}/bulk`, { pattern: 'R {n}', count: 501 })).statusCode).toBe(400);
    const noN = await call('POST', `${base}/bulk`, { pattern: 'Raum', count: 3 });
    expect(noN.statusCode).toBe(400);
    expect(noN.json().errors[0].field).toBe('pattern');
    const foreignGroup = await call('POST', `${base}/bulk`, {
      pattern: 'X {n}',
      count: 2,
      groupId: '00000000-0000-4000-8000-000000000000',
    });
    expect(foreignGroup.statusCode).toBe(400);
    expect((await call('GET', `${base}?size=1`)).json().count).toBe(before);
  });

  it('lists with paging, search and sorting', async () => {
    const page2 = await call('GET', `${base}?q=raum&page=2&size=5&sort=name&order=asc`);
    expect(page2.statusCode).toBe(200);
    // The list is serialised without the per-answer schema check: it must match the contract.
    expect(UnitPageSchema.parse(page2.json())).toEqual(page2.json());
    expect(page2.json()).toMatchObject({ count: 20, page: 2, size: 5 });
    // Natural sort (decision 0040): "Raum 1", "Raum 2", … "Raum 10", …
    expect(page2.json().results.map((u: { name: string }) => u.name)).toEqual([
      'Raum 6',
      'Raum 7',
      'Raum 8',
      'Raum 9',
      'Raum 10',
    ]);
    const desc = await call('GET', `${base}?sort=name&order=desc&size=1`);
    expect(desc.json().results[0].name).toBe('Raum 20');
    const byGroup = await call('GET', `${base}?sort=group&order=asc&size=30`);
    // Units without group sort last.
    expect(byGroup.json().results.at(-1).name).toBe('Büro 1');
    const byGroupSearch = await call('GET', `${base}?q=schul`);
    expect(byGroupSearch.json().count).toBe(20);
    const literal = await call('GET', `${base}?q=%25`);
    expect(literal.json().count).toBe(0);
  });

  // Decision 0044: two rooms of one name are refused within a company, naming it.
  it('refuses a unit name the company already has, in any case and spacing, also in bulk and on rename', async () => {
    const first = await call('POST', base, { name: 'Hausmeister' });
    expect(first.statusCode).toBe(201);
    const again = await call('POST', base, { name: '  hausMEISTER ' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'unit_name_taken',
      params: { name: 'Hausmeister' },
      errors: [{ field: 'name', code: 'unit_name_taken' }],
    });
    const bulk = await call('POST', `${base}/bulk`, { pattern: 'Raum {n}', count: 3, start: 19 });
    expect(bulk.statusCode).toBe(409);
    expect(bulk.json()).toMatchObject({ code: 'unit_name_taken', params: { name: 'Raum 19' } });
    expect(bulk.json().errors[0].field).toBe('pattern');
    const other = (await call('POST', base, { name: 'Sekretariat' })).json();
    expect((await call('PATCH', `${base}/${other.id}`, { name: 'Hausmeister' })).statusCode).toBe(409);
    expect((await call('PATCH', `${base}/${other.id}`, { name: 'Sekretariat' })).statusCode).toBe(200);
    // Another company may use the name.
    const elsewhere = await call(
      'POST',
      `/api/companies/${otherCompanyId}/units`,
      { name: 'Hausmeister' },
      'mallory',
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('counts the units on a page past the last one, answers strangers 404 and lists what waits for the valves', async () => {
    const past = await call('GET', `${base}?q=raum&page=9&size=5`);
    expect(past.json()).toMatchObject({ count: 20, page: 9, results: [] });
    expect((await call('GET', base, undefined, 'mallory')).statusCode).toBe(404);
    expect((await call('GET', `/api/companies/not-a-uuid/units`)).statusCode).toBe(404);
    // The page reads the caller's user row itself: a never-seen user is a stranger, a
    // deactivated one is refused like everywhere else.
    expect((await call('GET', base, undefined, 'newcomer')).statusCode).toBe(404);
    await t.database.db.insert(memberships).values({ companyId, userId: 'mallory', role: 'ems' });
    expect((await call('GET', base, undefined, 'mallory')).statusCode).toBe(200);
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, 'mallory'));
    const refused = await call('GET', base, undefined, 'mallory');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ detail: 'This account has been deactivated.' });
    await t.database.db.update(users).set({ active: true }).where(eq(users.id, 'mallory'));
    await t.database.db
      .delete(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, 'mallory')));

    // Raum 1: one valve waiting for its newest setpoint (an older one superseded), one whose
    // newest failed; Raum 2: acknowledged. Only the newest non-superseded downlink per valve counts.
    const [r1, r2] = (await call('GET', `${base}?q=raum&size=2`)).json().results as { id: string }[];
    const valve = (id: string, unitId: string) => ({
      id,
      devEui: id,
      companyId,
      model: 'mclimate-vicki',
      unitId,
    });
    await t.database.db
      .insert(devices)
      .values([
        valve('70b3d52dd3f00001', r1?.id ?? ''),
        valve('70b3d52dd3f00002', r1?.id ?? ''),
        valve('70b3d52dd3f00003', r2?.id ?? ''),
      ]);
    const downlink = (deviceId: string, unitId: string, state: string, minute: number) => ({
      companyId,
      unitId,
      deviceId,
      devEui: deviceId,
      setpoint: 20 + minute,
      fPort: 1,
      payload: '51',
      state: state as 'queued',
      reason: 'regular_plan',
      appliedAt: new Date(Date.UTC(2026, 0, 1, 6, minute)),
      createdAt: new Date(Date.UTC(2026, 0, 1, 6, minute)),
    });
    await t.database.db
      .insert(downlinks)
      .values([
        downlink('70b3d52dd3f00001', r1?.id ?? '', 'acknowledged', 0),
        downlink('70b3d52dd3f00001', r1?.id ?? '', 'sent', 1),
        downlink('70b3d52dd3f00001', r1?.id ?? '', 'superseded', 2),
        downlink('70b3d52dd3f00002', r1?.id ?? '', 'failed', 1),
        downlink('70b3d52dd3f00003', r2?.id ?? '', 'queued', 0),
        downlink('70b3d52dd3f00003', r2?.id ?? '', 'acknowledged', 1),
      ]);
    const listed = (await call('GET', `${base}?q=raum&size=2`)).json().results;
    // Their downlinks carry older setpoints, nothing a device adjusted.
    expect(listed.map((u: { downlinks: object }) => u.downlinks)).toEqual([
      { pending: 1, failed: 1, delivered: [] },
      { pending: 0, failed: 0, delivered: [] },
    ]);
  });

  it('says which setpoint valves get where their model adjusts it (step or range), in list and detail', async () => {
    const unit = (await call('POST', base, { name: 'Ganzgrad' })).json();
    await call('POST', `${base}/${unit.id}/setpoint`, { setpoint: 23.5 });
    const hot = (await call('POST', base, { name: 'Tropenhaus' })).json();
    // A company range wider than the device's: WT101 takes 5–35 °C.
    await t.database.db.update(units).set({ setpoint: 36 }).where(eq(units.id, hot.id));
    const device = (id: string, model: string, unitId: string) => ({
      id,
      devEui: id,
      companyId,
      model,
      unitId,
    });
    await t.database.db
      .insert(devices)
      .values([
        device('24e124fffe000001', 'milesight-wt101', unit.id),
        device('24e124fffe000002', 'milesight-wt101', unit.id),
        device('70b3d52dd3f00011', 'mclimate-vicki', unit.id),
        device('24e124fffe000003', 'milesight-wt101', unit.id),
        device('24e124fffe000004', 'milesight-wt101', hot.id),
      ]);
    const downlink = (deviceId: string, unitId: string, setpoint: number, state: string, minute = 0) => ({
      companyId,
      unitId,
      deviceId,
      devEui: deviceId,
      setpoint,
      fPort: 85,
      payload: 'ff',
      state: state as 'queued',
      reason: 'web_change',
      appliedAt: new Date(Date.UTC(2026, 0, 1, 6, minute)),
      createdAt: new Date(Date.UTC(2026, 0, 1, 6, minute)),
    });
    await t.database.db.insert(downlinks).values([
      downlink('24e124fffe000001', unit.id, 24, 'acknowledged'),
      downlink('24e124fffe000002', unit.id, 24, 'queued'),
      // The Vicki takes tenths: its valve gets the unit's own value.
      downlink('70b3d52dd3f00011', unit.id, 23.5, 'acknowledged'),
      // Still the previous setpoint's downlink, and a failed one: neither is what the valve gets.
      downlink('24e124fffe000003', unit.id, 8, 'acknowledged'),
      downlink('24e124fffe000003', unit.id, 24, 'failed', 1),
      downlink('24e124fffe000004', hot.id, 35, 'sent'),
    ]);
    const step = { setpoint: 24, reason: 'step', step: 1, devices: 2 };
    const range = { setpoint: 35, reason: 'range', min: 5, max: 35, devices: 1 };

    const page = (await call('GET', `${base}?q=${encodeURIComponent('Ganzgrad')}`)).json();
    expect(UnitPageSchema.parse(page)).toEqual(page);
    expect(page.results[0].downlinks).toEqual({ pending: 1, failed: 1, delivered: [step] });
    expect((await call('GET', `${base}/${unit.id}`)).json().downlinks).toEqual({
      pending: 1,
      failed: 1,
      delivered: [step],
    });
    expect((await call('GET', `${base}?q=Tropenhaus`)).json().results[0].downlinks.delivered).toEqual([
      range,
    ]);
    expect((await call('GET', `${base}/${hot.id}`)).json().downlinks.delivered).toEqual([range]);
  });

  it('rejects an unknown sort key', async () => {
    expect((await call('GET', `${base}?sort=password`)).statusCode).toBe(400);
  });

  it('updates name and wall control limits inside the company range', async () => {
    const unit = (await call('POST', base, { name: 'Flur' })).json();
    const ok = await call('PATCH', `${base}/${unit.id}`, { name: 'Flur EG', wallControlMin: 16 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Flur EG', wallControlMin: 16, wallControlMax: null });
    const tooHot = await call('PATCH', `${base}/${unit.id}`, { wallControlMax: 30 });
    expect(tooHot.statusCode).toBe(400);
    expect(tooHot.json()).toMatchObject({ title: OUT_OF_RANGE, errors: [{ field: 'wallControlMax' }] });
    const crossed = await call('PATCH', `${base}/${unit.id}`, { wallControlMax: 15 });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().errors).toEqual([
      expect.objectContaining({ field: 'wallControlMin', code: 'wall_control_order' }),
      expect.objectContaining({ field: 'wallControlMax', code: 'wall_control_order' }),
    ]);
  });

  it('refuses a wall control minimum above the maximum on both fields, by the contract', async () => {
    const res = await call('POST', base, { name: 'Verkehrt', wallControlMin: 24, wallControlMax: 20 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'body.wallControlMin',
        message: 'The minimum must not be above the maximum.',
        code: 'wall_control_order',
      },
      {
        field: 'body.wallControlMax',
        message: 'The minimum must not be above the maximum.',
        code: 'wall_control_order',
      },
    ]);
  });

  it('queues the current setpoint again when wall control limits change, so devices get them', async () => {
    const unit = (await call('POST', base, { name: 'Lehrerzimmer' })).json();
    const queued = async () =>
      (
        await t.database.db
          .select({ n: count() })
          .from(setpointOutbox)
          .where(and(eq(setpointOutbox.unitId, unit.id), eq(setpointOutbox.wallControlMax, 22)))
      )[0]?.n;
    await call('PATCH', `${base}/${unit.id}`, { name: 'Lehrerzimmer 1' });
    expect(await queued()).toBe(0);
    await call('PATCH', `${base}/${unit.id}`, { wallControlMax: 22 });
    expect(await queued()).toBe(1);
    // No setpoint change, so no log entry beyond the initial one.
    expect((await call('GET', `${base}/${unit.id}/log`)).json().results).toHaveLength(1);
  });

  it('deletes a unit', async () => {
    const unit = (await call('POST', base, { name: 'Abstellraum' })).json();
    expect((await call('DELETE', `${base}/${unit.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${base}/${unit.id}`)).statusCode).toBe(404);
  });

  it('applies a manual setpoint at once, logged web_change with the member', async () => {
    const unit = (await call('POST', base, { name: 'Küche' })).json();
    await call('POST', `${base}/${unit.id}/plans`, allYearPlan(19));
    const res = await call('POST', `${base}/${unit.id}/setpoint`, { setpoint: 22.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      setpoint: 22.5,
      setpointSource: 'web_change',
      manualChange: { kind: 'web_change', setpoint: 22.5 },
    });
    const log = (await call('GET', `${base}/${unit.id}/log`)).json();
    expect(log.results[0]).toMatchObject({
      kind: 'web_change',
      oldSetpoint: 19,
      newSetpoint: 22.5,
      actor: { id: 'alice', name: 'Alice' },
    });
  });

  it('refuses a setpoint outside the company range with the spec message', async () => {
    const unit = (await call('POST', base, { name: 'Bad' })).json();
    const res = await call('POST', `${base}/${unit.id}/setpoint`, { setpoint: 26.5 });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      title: OUT_OF_RANGE,
      detail: OUT_OF_RANGE,
      errors: [{ field: 'setpoint' }],
    });
    expect((await call('GET', `${base}/${unit.id}`)).json().setpoint).toBe(8);
    const cold = await call('POST', `${base}/${unit.id}/setpoint`, { setpoint: 1 });
    expect(cold.json()).toMatchObject({
      code: 'below_range',
      errors: [{ field: 'setpoint', code: 'below_range', params: { min: expect.any(Number) } }],
    });
  });

  it('pauses to frost protection and resumes to the plan, each logged once', async () => {
    const unit = (await call('POST', base, { name: 'Saal' })).json();
    await call('POST', `${base}/${unit.id}/plans`, allYearPlan(20));
    const paused = await call('POST', `${base}/${unit.id}/pause`);
    expect(paused.json()).toMatchObject({ paused: true, setpoint: 8, setpointSource: 'paused' });
    expect((await call('POST', `${base}/${unit.id}/pause`)).json().paused).toBe(true);
    const blocked = await call('POST', `${base}/${unit.id}/setpoint`, { setpoint: 20 });
    expect(blocked.statusCode).toBe(409);
    const resumed = await call('POST', `${base}/${unit.id}/resume`);
    expect(resumed.json()).toMatchObject({ paused: false, setpoint: 20, setpointSource: 'resumed' });
    const kinds = (await call('GET', `${base}/${unit.id}/log`))
      .json()
      .results.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['resumed', 'paused', 'regular_plan', 'no_plan']);
  });

  it('answers 404 to a member of another company on every unit endpoint', async () => {
    const unit = (await call('POST', base, { name: 'Geheim' })).json();
    const u = `${base}/${unit.id}`;
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', base],
      ['POST', base, { name: 'x' }],
      ['POST', `${base}/bulk`, { pattern: 'x {n}', count: 2 }],
      ['GET', u],
      ['PATCH', u, { name: 'x' }],
      ['DELETE', u],
      ['POST', `${u}/setpoint`, { setpoint: 20 }],
      ['POST', `${u}/pause`],
      ['POST', `${u}/resume`],
      ['GET', `${u}/log`],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(method, url, body, 'mallory');
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Mallory's own company does not contain the unit either.
    const viaOwn = await call(
      'GET',
      `/api/companies/${otherCompanyId}/units/${unit.id}`,
      undefined,
      'mallory',
    );
    expect(viaOwn.statusCode).toBe(404);
    expect((await call('GET', u)).json().name).toBe('Geheim');
  });
});
