/**
 * Names sort the way people count: "Raum 2" before "Raum 10", on PGlite and on
 * PostgreSQL, in every list a screen pages through on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { grantLicences } from '../modules/billing/billing.fixtures.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';

const shuffled = ['Raum 10', 'Raum 2', 'raum 11', 'Raum 1', 'Büro', 'Raum 20'];
const natural = ['Büro', 'Raum 1', 'Raum 2', 'Raum 10', 'raum 11', 'Raum 20'];

describe('natural name order', () => {
  let t: TestApp;
  let c: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const names = async (url: string, key = 'name') =>
    (await call('GET', url)).json().results.map((row: Record<string, string>) => row[key]);

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db);
    await grantLicences(t.database.db, companyId, 40);
    c = `/api/companies/${companyId}`;
  });
  afterAll(() => t.close());

  it('orders units by name naturally, both ways', async () => {
    for (const name of shuffled) expect((await call('POST', `${c}/units`, { name })).statusCode).toBe(201);
    expect(await names(`${c}/units?sort=name&order=asc&size=40`)).toEqual(natural);
    expect(await names(`${c}/units?sort=name&order=desc&size=40`)).toEqual([...natural].reverse());
  });

  it('orders groups by name, and units by their group name, naturally', async () => {
    const ids: Record<string, string> = {};
    for (const name of shuffled) {
      const res = await call('POST', `${c}/groups`, { name: `Etage ${name}` });
      ids[name] = res.json().id;
    }
    expect(await names(`${c}/groups?size=40`)).toEqual(natural.map((n) => `Etage ${n}`));
    const units = (await call('GET', `${c}/units?size=40`)).json().results as { id: string; name: string }[];
    for (const unit of units) {
      await call('POST', `${c}/groups/${ids[unit.name]}/units`, { unitIds: [unit.id] });
    }
    expect(await names(`${c}/units?sort=group&order=asc&size=40`, 'groupName')).toEqual(
      natural.map((n) => `Etage ${n}`),
    );
  });

  it('orders gateways by name and devices by their unit name naturally', async () => {
    const units = (await call('GET', `${c}/units?size=40`)).json().results as { id: string; name: string }[];
    for (const [i, unit] of units.entries()) {
      const id = `70b3d57ed00000${String(i).padStart(2, '0')}`;
      expect(
        (await call('POST', `${c}/devices`, { id, model: 'elsys-ers', unitId: unit.id })).statusCode,
      ).toBe(201);
      const gatewayEui = `b827ebfffe0000${String(i).padStart(2, '0')}`;
      expect((await call('POST', `${c}/gateways`, { gatewayEui, name: unit.name })).statusCode).toBe(201);
    }
    expect(await names(`${c}/gateways?sort=name&order=asc&size=40`)).toEqual(natural);
    expect(await names(`${c}/devices?sort=unit&order=asc&size=40`, 'unitName')).toEqual(natural);
  });
});
