/**
 * Units as CSV (decision 0060): German Excel and machine format, the list's filters and order,
 * any member; a stranger gets 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from './heating-test-fixtures.ts';

describe('units export', () => {
  let t: TestApp;
  let c: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db, { minTemperature: 5, maxTemperature: 28 });
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'erin', 'ems');
    const building = (
      await call('POST', `${c}/buildings`, { name: 'Schule Süd', state: 'BY', floors: ['EG'] })
    ).json();
    await call('POST', `${c}/units`, {
      name: 'Klasse 5ä',
      buildingId: building.id,
      floor: 'EG',
      wallControlMin: 18.5,
      wallControlMax: 23,
    });
    await call('POST', `${c}/units`, { name: 'Aula' });
  });
  afterAll(() => t.close());

  it('writes German Excel in name order with the unit placement and limits', async () => {
    const res = await call('GET', `${c}/units/export`, undefined, 'erin');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'Name;Gruppe;Gebäude;Geschoss;Solltemperatur (°C);Quelle;Raumtemperatur (°C);Ventilöffnung (%);Pausiert;Wandthermostat min. (°C);Wandthermostat max. (°C);Optimierter Start;Angelegt',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^Aula;;;;/);
    expect(lines[2]).toMatch(
      /^Klasse 5ä;;Schule Süd;EG;[^;]*;[^;]*;;;nein;18,5;23;ja;\d\d\.\d\d\.\d{4} \d\d:\d\d$/,
    );
  });

  it('writes the machine format with a search applied, and answers a stranger 404', async () => {
    const res = await call('GET', `${c}/units/export?format=csv&lang=en&q=klasse`);
    const lines = res.body.trim().split('\n');
    expect(lines[0]?.startsWith('name,group,building,floor,setpoint_c,')).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Klasse 5ä,,Schule Süd,EG,.*,no,18\.5,23,yes,\d{4}-\d\d-\d\dT/);
    expect((await call('GET', `${c}/units/export`, undefined, 'mallory')).statusCode).toBe(404);
  });
});
