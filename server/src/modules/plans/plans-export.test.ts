/**
 * Heating plans as CSV and XLSX (decision 0060): unit and group plans, one row per switch point,
 * German Excel (semicolon, BOM, decimal comma, "01.10.", German weekdays) and machine format
 * (comma, point, ISO), a workbook with numbers as numbers; any member reads, a stranger gets 404.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies, winterPlan } from '../units/heating-test-fixtures.ts';

const CHRISTMAS = {
  name: 'Weihnachtsfeier',
  kind: 'specific_days',
  active: false,
  dates: ['2026-12-18', '2026-12-24'],
  switchPoints: [
    { day: 1, hour: 18, minute: 0, temperature: 17, ignoreWallControl: false },
    { day: 1, hour: 6, minute: 30, temperature: 20.5, ignoreWallControl: true },
  ],
};

describe('plans export', () => {
  let t: TestApp;
  let c: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'erin', 'ems');
    const group = (await call('POST', `${c}/groups`, { name: 'Nordflügel' })).json();
    const unit = (await call('POST', `${c}/units`, { name: 'Aula' })).json();
    expect((await call('POST', `${c}/groups/${group.id}/plans`, winterPlan())).statusCode).toBe(201);
    expect((await call('POST', `${c}/units/${unit.id}/plans`, CHRISTMAS)).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const lines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');

  it('writes German Excel: group plans first, a row per switch point in weekday and time order', async () => {
    const res = await call('GET', `${c}/plans/export`, undefined, 'erin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('plans.csv');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = lines(res.body);
    expect(rows[0]).toBe(
      'Zuordnung;Raum/Gruppe;Plan;Planart;Aktiv;Gültig von;Gültig bis;Tage;Wochentag;Uhrzeit;Temperatur (°C);Wandthermostat ignoriert;Geändert',
    );
    // 14 switch points of the winter plan, then the unit plan's two.
    expect(rows).toHaveLength(1 + 14 + 2);
    expect(rows[1]).toMatch(
      /^Gruppe;Nordflügel;Winter;Saisonplan;ja;01\.10\.;30\.04\.;;Montag;06:00;21;nein;\d\d\.\d\d\.\d{4} \d\d:\d\d$/,
    );
    expect(rows[2]).toMatch(
      /^Gruppe;Nordflügel;Winter;Saisonplan;ja;01\.10\.;30\.04\.;;Montag;22:00;17;nein;/,
    );
    expect(rows[14]).toMatch(/;Sonntag;22:00;17;nein;/);
    // Specific days name their dates, not a weekday; a half degree keeps its decimal comma.
    expect(rows[15]).toMatch(
      /^Raum;Aula;Weihnachtsfeier;Bestimmte Tage;nein;;;18\.12\.2026, 24\.12\.2026;;06:30;20,5;ja;/,
    );
    expect(rows[16]).toMatch(
      /^Raum;Aula;Weihnachtsfeier;Bestimmte Tage;nein;;;18\.12\.2026, 24\.12\.2026;;18:00;17;nein;/,
    );
  });

  it('writes the machine format with ISO dates and decimal points', async () => {
    const res = await call('GET', `${c}/plans/export?format=csv&lang=en`);
    const rows = lines(res.body);
    expect(rows[0]).toBe(
      'owner_kind,owner,plan,kind,active,valid_from,valid_to,dates,weekday,time,temperature_c,ignore_wall_control,updated_at',
    );
    expect(rows[1]).toMatch(
      /^group,Nordflügel,Winter,seasonal,yes,10-01,04-30,,Monday,06:00,21,no,\d{4}-\d\d-\d\dT/,
    );
    expect(rows[15]).toMatch(
      /^unit,Aula,Weihnachtsfeier,specific_days,no,,,"2026-12-18, 2026-12-24",,06:30,20\.5,yes,/,
    );
  });

  it('writes a workbook with temperatures as numbers, and answers a stranger 404', async () => {
    const res = await call('GET', `${c}/plans/export?format=xlsx`);
    expect(res.headers['content-disposition']).toContain('plans.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(17);
    expect(sheet.getRow(16).getCell(11).value).toBe(20.5);
    expect(sheet.getRow(16).getCell(10).value).toBe('06:30');
    expect((await call('GET', `${c}/plans/export`, undefined, 'mallory')).statusCode).toBe(404);
  });
});
