import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { setpointOutbox } from '../../db/schema.ts';
import { seedCompanies } from './heating-test-fixtures.ts';

const OUT_OF_RANGE = 'Value exceeds temperature range set by your company.';
const allYear = (temperature: number) => ({
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: [1, 2, 3, 4, 5, 6, 7].map((day) => ({
    day,
    hour: 0,
    minute: 0,
    temperature,
    ignoreWallControl: false,
  })),
});

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
    expect(res.json()).toMatchObject({
      name: 'Büro 1',
      groupId: null,
      setpoint: 8,
      setpointSource: 'regular_plan',
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
    expect(page2.json()).toMatchObject({ count: 20, page: 2, size: 5 });
    // Plain text sort: "Raum 1", "Raum 10" … "Raum 19", "Raum 2", …
    expect(page2.json().results.map((u: { name: string }) => u.name)).toEqual([
      'Raum 14',
      'Raum 15',
      'Raum 16',
      'Raum 17',
      'Raum 18',
    ]);
    const desc = await call('GET', `${base}?sort=name&order=desc&size=1`);
    expect(desc.json().results[0].name).toBe('Raum 9');
    const byGroup = await call('GET', `${base}?sort=group&order=asc&size=30`);
    // Units without group sort last.
    expect(byGroup.json().results.at(-1).name).toBe('Büro 1');
    const byGroupSearch = await call('GET', `${base}?q=schul`);
    expect(byGroupSearch.json().count).toBe(20);
    const literal = await call('GET', `${base}?q=%25`);
    expect(literal.json().count).toBe(0);
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
    await call('POST', `${base}/${unit.id}/plans`, allYear(19));
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
  });

  it('pauses to frost protection and resumes to the plan, each logged once', async () => {
    const unit = (await call('POST', base, { name: 'Saal' })).json();
    await call('POST', `${base}/${unit.id}/plans`, allYear(20));
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
    expect(kinds).toEqual(['resumed', 'paused', 'regular_plan', 'regular_plan']);
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
