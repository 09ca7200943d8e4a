import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { allYearPlan, seedCompanies } from '../units/heating-test-fixtures.ts';

describe('groups API', () => {
  let t: TestApp;
  let c: string;
  let otherCompanyId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    const seeded = await seedCompanies(t.database.db);
    c = `/api/companies/${seeded.companyId}`;
    otherCompanyId = seeded.otherCompanyId;
  });
  afterAll(() => t.close());

  it('creates, lists, renames and refuses duplicate names per company', async () => {
    const created = await call('POST', `${c}/groups`, { name: 'Nordflügel' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Nordflügel',
      unitCount: 0,
      groupPlansAvailable: true,
      blockingUnits: [],
    });
    expect((await call('POST', `${c}/groups`, { name: 'Nordflügel' })).statusCode).toBe(409);
    // Another company may use the same name.
    const elsewhere = await call(
      'POST',
      `/api/companies/${otherCompanyId}/groups`,
      { name: 'Nordflügel' },
      'mallory',
    );
    expect(elsewhere.statusCode).toBe(201);
    await call('POST', `${c}/groups`, { name: 'Südflügel' });
    expect((await call('PATCH', `${c}/groups/${created.json().id}`, { name: 'Südflügel' })).statusCode).toBe(
      409,
    );
    const renamed = await call('PATCH', `${c}/groups/${created.json().id}`, { name: 'Nord' });
    expect(renamed.json().name).toBe('Nord');
    const list = await call('GET', `${c}/groups?q=nord`);
    expect(list.json()).toMatchObject({ count: 1, results: [{ name: 'Nord' }] });
  });

  it('moves units in and out; a unit belongs to at most one group', async () => {
    const g1 = (await call('POST', `${c}/groups`, { name: 'G1' })).json();
    const g2 = (await call('POST', `${c}/groups`, { name: 'G2' })).json();
    const units = (await call('POST', `${c}/units/bulk`, { pattern: 'Zimmer {n}', count: 3 })).json().results;
    const ids = units.map((u: { id: string }) => u.id);
    expect((await call('POST', `${c}/groups/${g1.id}/units`, { unitIds: ids })).json().unitCount).toBe(3);
    expect((await call('POST', `${c}/groups/${g2.id}/units`, { unitIds: [ids[0]] })).json().unitCount).toBe(
      1,
    );
    expect((await call('GET', `${c}/groups/${g1.id}`)).json().unitCount).toBe(2);
    expect((await call('GET', `${c}/units/${ids[0]}`)).json().groupName).toBe('G2');
    const out = await call('DELETE', `${c}/groups/${g1.id}/units/${ids[1]}`);
    expect(out.json().unitCount).toBe(1);
    expect((await call('GET', `${c}/units/${ids[1]}`)).json().groupId).toBeNull();
    expect((await call('DELETE', `${c}/groups/${g1.id}/units/${ids[0]}`)).statusCode).toBe(404);
  });

  it('refuses to move units of another company', async () => {
    const g = (await call('POST', `${c}/groups`, { name: 'Fremd' })).json();
    const foreign = (
      await call('POST', `/api/companies/${otherCompanyId}/units`, { name: 'Fremdraum' }, 'mallory')
    ).json();
    const res = await call('POST', `${c}/groups/${g.id}/units`, { unitIds: [foreign.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('unitIds.0');
    expect(
      (await call('GET', `/api/companies/${otherCompanyId}/units/${foreign.id}`, undefined, 'mallory')).json()
        .groupId,
    ).toBeNull();
  });

  it('deleting a group keeps its units and drops its plans', async () => {
    const g = (await call('POST', `${c}/groups`, { name: 'Weg' })).json();
    const unit = (await call('POST', `${c}/units`, { name: 'Bleibt', groupId: g.id })).json();
    await call('POST', `${c}/groups/${g.id}/plans`, allYearPlan(20));
    expect((await call('GET', `${c}/units/${unit.id}`)).json().setpoint).toBe(20);
    expect((await call('DELETE', `${c}/groups/${g.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${c}/groups/${g.id}`)).statusCode).toBe(404);
    expect((await call('GET', `${c}/units/${unit.id}`)).json()).toMatchObject({ groupId: null, setpoint: 8 });
  });

  it('answers 404 to a member of another company on every group endpoint', async () => {
    const g = (await call('POST', `${c}/groups`, { name: 'Geheim' })).json();
    const unit = (await call('POST', `${c}/units`, { name: 'Geheimraum', groupId: g.id })).json();
    const requests: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${c}/groups`],
      ['POST', `${c}/groups`, { name: 'x' }],
      ['GET', `${c}/groups/${g.id}`],
      ['PATCH', `${c}/groups/${g.id}`, { name: 'x' }],
      ['DELETE', `${c}/groups/${g.id}`],
      ['POST', `${c}/groups/${g.id}/units`, { unitIds: [unit.id] }],
      ['DELETE', `${c}/groups/${g.id}/units/${unit.id}`],
    ];
    for (const [method, url, body] of requests) {
      expect((await call(method, url, body, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    // Mallory's company cannot reach Alice's group by id either.
    const viaOwn = await call('GET', `/api/companies/${otherCompanyId}/groups/${g.id}`, undefined, 'mallory');
    expect(viaOwn.statusCode).toBe(404);
    expect((await call('GET', `${c}/groups/${g.id}`)).json().unitCount).toBe(1);
  });
});
