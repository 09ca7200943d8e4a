/**
 * The heating log of a window as CSV and XLSX (decision 0060): German Excel (BOM, semicolons,
 * Berlin times, decimal comma) and machine format, unit by unit in name order, each oldest first
 * across the keyset batches of 1,000, what decided an entry by name, the unit, group and
 * building filters, the window's limits as problems naming `to`; a stranger gets 404.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { heatingEvents, heatingLog } from '../../db/schema.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

// A window a year before the entries the API writes while the fixture is built.
const FROM = '2025-11-01T00:00:00Z';
const TO = '2025-12-01T00:00:00Z';
const window = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;
/** Scheduler entries of the third unit: more than one keyset batch. */
const MANY = 1005;

describe('heating log export', () => {
  let t: TestApp;
  let c: string;
  const ids = { aula: '', klasse: '', building: '', group: '' };
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'erin', 'ems');
    const building = (
      await call('POST', `${c}/buildings`, { name: 'Schule Süd', state: 'BY', floors: ['EG'] })
    ).json();
    const group = (await call('POST', `${c}/groups`, { name: 'Nordflügel' })).json();
    const aula = (
      await call('POST', `${c}/units`, {
        name: 'Aula',
        buildingId: building.id,
        floor: 'EG',
        groupId: group.id,
      })
    ).json();
    const klasse = (await call('POST', `${c}/units`, { name: 'Klasse 10' })).json();
    const other = (await call('POST', `${c}/units`, { name: 'Klasse 2' })).json();
    Object.assign(ids, { aula: aula.id, klasse: klasse.id, building: building.id, group: group.id });
    const [event] = await t.database.db
      .insert(heatingEvents)
      .values({ companyId, title: 'Elternabend', start: new Date('2025-11-26T17:00:00Z'), temperature: 21 })
      .returning({ id: heatingEvents.id });
    const entry = { companyId, kind: 'regular_plan' as const, oldSetpoint: 17, newSetpoint: 21 };
    await t.database.db.insert(heatingLog).values([
      {
        ...entry,
        unitId: aula.id,
        at: new Date('2025-11-26T07:00:00Z'),
        kind: 'web_change',
        newSetpoint: 21.5,
        actorId: 'alice',
      },
      { ...entry, unitId: aula.id, at: new Date('2025-11-26T05:55:00Z') },
      { ...entry, unitId: aula.id, at: new Date(TO), newSetpoint: 30 },
      {
        ...entry,
        unitId: klasse.id,
        at: new Date('2025-11-26T17:00:00Z'),
        kind: 'one_time_start',
        details: { eventId: event?.id },
      },
      ...Array.from({ length: MANY }, (_, i) => ({
        ...entry,
        unitId: other.id,
        at: new Date(Date.parse(FROM) + i * 60_000),
      })),
    ]);
  });
  afterAll(() => t.close());

  const lines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');

  it('writes German Excel: units by name, entries oldest first, Berlin time, decimal comma, sources named', async () => {
    const res = await call('GET', `${c}/heating-log/export?${window}`, undefined, 'erin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('heating-log.csv');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = lines(res.body);
    expect(rows[0]).toBe(
      'Zeitpunkt;Raum;Gruppe;Gebäude;Geschoss;Art;Anlass;Vorher (°C);Nachher (°C);Ausgelöst von',
    );
    // The entry at `to` is outside [from, to).
    expect(rows).toHaveLength(1 + 2 + MANY + 1);
    expect(rows[1]).toBe('26.11.2025 06:55;Aula;Nordflügel;Schule Süd;EG;regular_plan;;17;21;');
    expect(rows[2]).toBe('26.11.2025 08:00;Aula;Nordflügel;Schule Süd;EG;web_change;;17;21,5;Alice');
    // "Klasse 2" before "Klasse 10" (natural order), its minutes in order across both batches.
    expect(rows[3]).toBe('01.11.2025 01:00;Klasse 2;;;;regular_plan;;17;21;');
    const times = rows.slice(3, 3 + MANY).map((row) => row.split(';')[0]);
    expect(new Set(times).size).toBe(MANY);
    expect(rows[3 + MANY - 1]).toMatch(/^01\.11\.2025 17:44;Klasse 2;/);
    expect(rows.at(-1)).toBe('26.11.2025 18:00;Klasse 10;;;;one_time_start;Elternabend;17;21;');
  });

  it('narrows to a unit, a group or a building, in the machine format', async () => {
    const only = async (filter: string) =>
      lines((await call('GET', `${c}/heating-log/export?${window}&format=csv&lang=en&${filter}`)).body);
    const unit = await only(`unitId=${ids.klasse}`);
    expect(unit).toEqual([
      'at,unit,group,building,floor,kind,source,old_setpoint_c,new_setpoint_c,actor',
      '2025-11-26T17:00:00.000Z,Klasse 10,,,,one_time_start,Elternabend,17,21,',
    ]);
    expect(await only(`groupId=${ids.group}`)).toHaveLength(3);
    const building = await only(`buildingId=${ids.building}`);
    expect(building[2]).toBe(
      '2025-11-26T07:00:00.000Z,Aula,Nordflügel,Schule Süd,EG,web_change,,17,21.5,Alice',
    );
  });

  it('writes a workbook: the time as a Berlin date, setpoints as numbers', async () => {
    const res = await call('GET', `${c}/heating-log/export?${window}&format=xlsx&unitId=${ids.aula}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(3).getCell(1).value).toEqual(new Date('2025-11-26T08:00:00.000Z'));
    expect(sheet.getRow(3).getCell(9).value).toBe(21.5);
  });

  it('refuses a window over 366 days or ending before it starts, naming `to` and the limit', async () => {
    const long = await call(
      'GET',
      `${c}/heating-log/export?from=2025-01-01T00:00:00Z&to=${encodeURIComponent('2026-01-02T00:00:01Z')}`,
    );
    expect(long.statusCode).toBe(400);
    expect(long.headers['content-type']).toContain('application/problem+json');
    expect(long.json()).toMatchObject({ code: 'export_range_too_long', params: { days: 366 } });
    expect(long.json().errors).toEqual([
      expect.objectContaining({ field: 'to', code: 'export_range_too_long' }),
    ]);
    // A leap year's 366 days are allowed.
    const year = await call(
      'GET',
      `${c}/heating-log/export?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z`,
    );
    expect(year.statusCode).toBe(200);
    const backwards = await call(
      'GET',
      `${c}/heating-log/export?from=${encodeURIComponent(TO)}&to=${encodeURIComponent(FROM)}`,
    );
    expect(backwards.json()).toMatchObject({ status: 400, code: 'export_range_end_not_after_start' });
    const missing = await call('GET', `${c}/heating-log/export?from=${encodeURIComponent(FROM)}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('querystring.to');
  });

  it('answers a stranger 404, also before checking the window', async () => {
    expect((await call('GET', `${c}/heating-log/export?${window}`, undefined, 'mallory')).statusCode).toBe(
      404,
    );
    const long = `from=2020-01-01T00:00:00Z&to=2025-01-01T00:00:00Z`;
    expect((await call('GET', `${c}/heating-log/export?${long}`, undefined, 'mallory')).statusCode).toBe(404);
  });
});
