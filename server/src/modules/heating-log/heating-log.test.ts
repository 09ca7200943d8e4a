import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices, downlinks, heatingLog } from '../../db/schema.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

describe('heating log API', () => {
  let t: TestApp;
  let companyId: string;
  let unitUrl: string;
  let unitId: string;
  const get = async (url: string, user = 'alice') =>
    t.app.inject({ method: 'GET', url, headers: await t.as(user) });

  beforeAll(async () => {
    t = await buildTestApp();
    ({ companyId } = await seedCompanies(t.database.db));
    const headers = await t.as('alice');
    const unit = (
      await t.app.inject({
        method: 'POST',
        url: `/api/companies/${companyId}/units`,
        payload: { name: 'Flur' },
        headers,
      })
    ).json();
    unitId = unit.id;
    unitUrl = `/api/companies/${companyId}/units/${unit.id}`;
    // Entries with the same instant must still page in a stable order (tie broken by id).
    const at = new Date('2026-01-05T08:00:00Z');
    await t.database.db.insert(heatingLog).values(
      Array.from({ length: 24 }, (_, i) => ({
        companyId,
        unitId,
        kind: i % 2 === 0 ? ('regular_plan' as const) : ('web_change' as const),
        oldSetpoint: 18 + (i % 3),
        newSetpoint: 19 + (i % 3),
        at: new Date(at.getTime() + Math.floor(i / 3) * 60_000),
        actorId: i % 2 === 0 ? null : 'alice',
      })),
    );
  });
  afterAll(() => t.close());

  it('pages newest first with a cursor until the end, without gaps or repeats', async () => {
    const seen: { id: string; at: string }[] = [];
    let url = `${unitUrl}/log?limit=10`;
    const sizes: number[] = [];
    for (;;) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      sizes.push(body.results.length);
      seen.push(...body.results);
      if (!body.nextCursor) break;
      url = `${unitUrl}/log?limit=10&cursor=${body.nextCursor}`;
    }
    // 24 inserted + the entry written when the unit was created.
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(25);
    const times = seen.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('names the member who made a change and leaves scheduler changes anonymous', async () => {
    const results = (await get(`${unitUrl}/log?limit=50`)).json().results;
    const web = results.find((e: { kind: string }) => e.kind === 'web_change');
    expect(web.actor).toEqual({ id: 'alice', name: 'Alice' });
    const plan = results.find((e: { kind: string }) => e.kind === 'regular_plan');
    expect(plan.actor).toBeNull();
    expect(web).toEqual({
      id: expect.any(String),
      kind: 'web_change',
      oldSetpoint: expect.any(Number),
      newSetpoint: expect.any(Number),
      at: expect.any(String),
      actor: { id: 'alice', name: 'Alice' },
    });
  });

  it('says which setpoint the valves got where their model adjusted the change', async () => {
    const headers = await t.as('alice');
    const unit = (
      await t.app.inject({
        method: 'POST',
        url: `/api/companies/${companyId}/units`,
        payload: { name: 'Werkstatt' },
        headers,
      })
    ).json();
    const at = new Date('2026-01-06T06:30:00Z');
    const later = new Date('2026-01-06T07:00:00Z');
    await t.database.db.insert(heatingLog).values([
      { companyId, unitId: unit.id, kind: 'regular_plan', oldSetpoint: 17, newSetpoint: 23.5, at },
      { companyId, unitId: unit.id, kind: 'web_change', oldSetpoint: 23.5, newSetpoint: 21.5, at: later },
    ]);
    await t.database.db.insert(devices).values(
      ['24e124fffe100001', '24e124fffe100002'].map((id) => ({
        id,
        devEui: id,
        companyId,
        model: 'milesight-wt101',
        unitId: unit.id,
      })),
    );
    const downlink = (deviceId: string, setpoint: number, appliedAt: Date, state: string) => ({
      companyId,
      unitId: unit.id,
      deviceId,
      devEui: deviceId,
      setpoint,
      fPort: 85,
      payload: 'ff',
      state: state as 'queued',
      reason: 'regular_plan',
      appliedAt,
    });
    await t.database.db.insert(downlinks).values([
      downlink('24e124fffe100001', 24, at, 'acknowledged'),
      // Superseded before it was sent: that valve never got 22 °C for the later change.
      downlink('24e124fffe100002', 22, later, 'superseded'),
    ]);
    const results = (await get(`/api/companies/${companyId}/units/${unit.id}/log`)).json().results;
    const byKind = (kind: string) => results.find((e: { kind: string }) => e.kind === kind);
    const planChange = byKind('regular_plan');
    const webChange = byKind('web_change');
    expect(planChange).toMatchObject({
      newSetpoint: 23.5,
      delivered: [{ setpoint: 24, reason: 'step', step: 1, devices: 1 }],
    });
    expect(webChange.newSetpoint).toBe(21.5);
    expect(webChange).not.toHaveProperty('delivered');
  });

  it('refuses a forged cursor with 400', async () => {
    const res = await get(`${unitUrl}/log?cursor=bm90LWEtY3Vyc29y`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'cursor', message: 'Invalid cursor.' }]);
  });

  it('answers 404 to a member of another company and for an unknown unit', async () => {
    expect((await get(`${unitUrl}/log`, 'mallory')).statusCode).toBe(404);
    expect(
      (await get(`/api/companies/${companyId}/units/00000000-0000-4000-8000-000000000000/log`)).statusCode,
    ).toBe(404);
  });
});
