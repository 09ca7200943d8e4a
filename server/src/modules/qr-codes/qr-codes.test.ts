import { QR_ALLOWANCE_MESSAGE } from '@heizplan/contracts/qr-codes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices, qrCodeChanges } from '../../db/schema.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';

describe('QR codes API', () => {
  let t: TestApp;
  let f: RegistryFixture;
  let unitB: string;
  let unitC: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const code = (unitId: string) => `/api/companies/${f.companyId}/units/${unitId}/qr-code`;
  const publicView = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/public/heating-view/${token}` });

  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://heizplan.example' });
    f = await seedRegistry(t.database.db);
    const created = await call('POST', `/api/companies/${f.companyId}/units/bulk`, {
      pattern: 'Büro {n}',
      count: 2,
    });
    [unitB, unitC] = created.json().results.map((u: { id: string }) => u.id);
  });
  afterAll(() => t.close());

  it('refuses to enable a code while the company has no licence', async () => {
    const res = await call('POST', code(f.unitId));
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(QR_ALLOWANCE_MESSAGE);
    expect((await call('GET', code(f.unitId))).json()).toEqual({
      unlimited: false,
      allowance: 0,
      used: 0,
      remaining: 0,
      code: null,
    });
  });

  it('enables a code with a 128-bit token and a public link, once per unit', async () => {
    // One QR code per licence, however many devices are registered.
    await grantLicences(t.database.db, f.companyId, 2);
    await t.database.db.insert(devices).values({
      id: 'a000000000000001',
      devEui: 'a000000000000001',
      companyId: f.companyId,
      model: 'mclimate-vicki',
    });
    const res = await call('POST', code(f.unitId));
    expect(res.statusCode).toBe(200);
    const state = res.json();
    expect(state).toMatchObject({
      allowance: 2,
      used: 1,
      remaining: 1,
      code: { unitId: f.unitId, unitName: 'Raum 1' },
    });
    expect(Buffer.from(state.code.token, 'base64url')).toHaveLength(16);
    expect(state.code.url).toBe(`https://heizplan.example/heating-view/${state.code.token}`);
    expect((await publicView(state.code.token)).json().unitName).toBe('Raum 1');
    const again = await call('POST', code(f.unitId));
    expect(again.json().code.token).toBe(state.code.token);
    expect(again.json().used).toBe(1);
  });

  it('regenerating makes the old link answer 404 at once; the new one works', async () => {
    const old = (await call('GET', code(f.unitId))).json().code.token;
    const res = await call('POST', `${code(f.unitId)}/regenerate`);
    const fresh = res.json().code.token;
    expect(fresh).not.toBe(old);
    expect((await publicView(old)).statusCode).toBe(404);
    expect((await publicView(fresh)).statusCode).toBe(200);
  });

  it('refuses a code beyond the allowance and counts the remaining ones', async () => {
    expect((await call('POST', code(unitB))).json().remaining).toBe(0);
    const res = await call('POST', code(unitC));
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(QR_ALLOWANCE_MESSAGE);
    const list = (await call('GET', `/api/companies/${f.companyId}/qr-codes`)).json();
    expect(list).toMatchObject({ allowance: 2, used: 2, remaining: 0 });
    expect(list.results.map((r: { unitName: string }) => r.unitName)).toEqual(['Büro 1', 'Raum 1']);
  });

  it('disabling makes the link answer 404 at once and frees the code', async () => {
    const token = (await call('GET', code(unitB))).json().code.token;
    const res = await call('DELETE', code(unitB));
    expect(res.json()).toMatchObject({ code: null, used: 1, remaining: 1 });
    const gone = await publicView(token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe((await publicView('never-issued-token-xyz')).json().detail);
    expect((await call('POST', `${code(unitB)}/regenerate`)).statusCode).toBe(409);
  });

  it('records who enabled, regenerated and disabled each code', async () => {
    const rows = await t.database.db
      .select({ action: qrCodeChanges.action, actorId: qrCodeChanges.actorId })
      .from(qrCodeChanges)
      .where(eq(qrCodeChanges.unitId, unitB));
    expect(rows.map((r) => r.action).sort()).toEqual(['disabled', 'enabled']);
    expect(rows.every((r) => r.actorId === 'alice')).toBe(true);
  });

  it('answers 404 to a member of another company on every call', async () => {
    const calls = [
      call('GET', code(f.unitId), undefined, 'mallory'),
      call('POST', code(f.unitId), undefined, 'mallory'),
      call('POST', `${code(f.unitId)}/regenerate`, undefined, 'mallory'),
      call('DELETE', code(f.unitId), undefined, 'mallory'),
      call('GET', `/api/companies/${f.companyId}/qr-codes`, undefined, 'mallory'),
      call('POST', `/api/companies/${f.otherCompanyId}/units/${f.unitId}/qr-code`, undefined, 'mallory'),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(404);
    expect((await call('GET', code(f.unitId))).json().code).not.toBeNull();
  });
});
