/**
 * Bulk import of units (decision 0063): a comma CSV with decimal commas, buildings, floors and
 * groups by name, defaults; an XLSX; every problem of a row (names taken or repeated, unknown
 * names, limits outside the company range or in the wrong order); the remembered mapping and its
 * checks; units due for the scheduler at once.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { dataFingerprint } from '../../http/api-walk.test-kit.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

// A Wednesday noon: imported units are due at this instant.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('unit import', () => {
  let t: TestApp;
  let base: string;
  let woken = 0;
  const upload = async (path: string, body: string | Buffer, type = 'text/csv', query = '') =>
    t.app.inject({
      method: 'POST',
      url: `${base}/imports${path}${query}`,
      payload: body,
      headers: { ...(await t.as('alice')), 'content-type': type },
    });

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const { companyId } = await seedCompanies(t.database.db, { minTemperature: 10, maxTemperature: 26 });
    base = `/api/companies/${companyId}`;
    await t.call('POST', `${base}/buildings`, {
      name: 'Grundschule Nord',
      state: 'BY',
      floors: ['EG', '1. OG'],
    });
    await t.call('POST', `${base}/buildings`, { name: 'Turnhalle', state: 'BY' });
    await t.call('POST', `${base}/groups`, { name: 'Klassenräume' });
    await t.call('POST', `${base}/units`, { name: 'Lehrerzimmer' });
    t.ports.wake = () => woken++;
  });
  afterAll(() => t.close());

  it('imports a comma CSV with decimal commas, names matched ignoring case, defaults where cells are empty', async () => {
    const csv = [
      'Raum,Gebäude,Etage,Gruppe,Min,Max',
      'Klasse 1a,grundschule nord,eg,Klassenräume,"16,5",22',
      'Klasse 1b,,1. OG,,,',
      'Halle,Turnhalle,,,12,"18,5"',
    ].join('\n');
    const query = `?defaults=${encodeURIComponent(JSON.stringify({ building: 'Grundschule Nord' }))}`;
    const check = (await upload('/units/dry-run', csv, 'text/csv', query)).json();
    expect(check).toMatchObject({ rowCount: 3, problemCount: 0, licences: null });
    expect(check.mapping).toEqual({
      name: 'Raum',
      building: 'Gebäude',
      floor: 'Etage',
      group: 'Gruppe',
      wallControlMin: 'Min',
      wallControlMax: 'Max',
    });
    const before = woken;
    const res = await upload('/units/commit', csv, 'text/csv', query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ kind: 'units', created: 3, assigned: 0 });
    expect(woken).toBeGreaterThan(before);
    const units = (await t.call('GET', `${base}/units?size=50&q=a`)).json().results;
    const byName = Object.fromEntries(units.map((u: { name: string }) => [u.name, u]));
    expect(byName['Klasse 1a']).toMatchObject({
      buildingName: 'Grundschule Nord',
      floor: 'EG',
      groupName: 'Klassenräume',
      wallControlMin: 16.5,
      wallControlMax: 22,
      createdBy: { id: 'alice' },
    });
    expect(byName['Klasse 1b']).toMatchObject({
      buildingName: 'Grundschule Nord',
      floor: '1. OG',
      groupName: null,
    });
    expect(byName.Halle).toMatchObject({ buildingName: 'Turnhalle', floor: null, wallControlMax: 18.5 });
    // Due now: the scheduler evaluates them on its next tick.
    expect(byName.Halle.nextChangeAt).toBe(clock.now().toISOString());
  });

  it("lists each row's problems and writes nothing", async () => {
    const csv = [
      'name;building;floor;group;min;max',
      'Lehrerzimmer;;;;;',
      'Raum 7;Nirgendwo;;;;',
      'Raum 8;Turnhalle;EG;;;',
      'Raum 9;;EG;Unbekannt;;',
      'raum 7 ;;;;9;27',
      'Raum 10;;;;20;18',
      'Raum 11;;;;warm;',
      ';;;;;',
      ';Turnhalle;;;;',
      `${'x'.repeat(121)};;;;;`,
    ].join('\n');
    const before = await dataFingerprint(t);
    // No defaults: not the building the company's last import remembered.
    const noDefaults = `?defaults=${encodeURIComponent('{}')}`;
    const check = (await upload('/units/dry-run', csv, 'text/csv', noDefaults)).json();
    expect(check.rowCount).toBe(9);
    expect(
      check.problems.map(
        (p: { row: number; field: string; code: string }) => `${p.row} ${p.field} ${p.code}`,
      ),
    ).toEqual([
      '2 name unit_name_taken',
      '3 building import_building_unknown',
      '4 floor import_floor_unknown',
      '5 floor import_floor_without_building',
      '5 group import_group_unknown',
      '6 name import_duplicate',
      '6 wallControlMin below_range',
      '6 wallControlMax out_of_range',
      '7 wallControlMax wall_control_order',
      '8 wallControlMin import_number_invalid',
      '10 name import_value_required',
      '11 name import_text_too_long',
    ]);
    const params = Object.fromEntries(
      check.problems.map((p: { row: number; field: string; params?: object }) => [
        `${p.row} ${p.field}`,
        p.params,
      ]),
    );
    expect(params['4 floor']).toEqual({ floor: 'EG', building: 'Turnhalle' });
    expect(params['6 name']).toEqual({ value: 'raum 7', row: 3 });
    expect(params['6 wallControlMin']).toEqual({ min: 10, max: 26 });
    expect((await upload('/units/commit', csv, 'text/csv', noDefaults)).statusCode).toBe(400);
    expect(await dataFingerprint(t)).toEqual(before);
  });

  it('names a mapped column the file lacks, and a required field without column, once on the header row', async () => {
    const csv = 'Ort;Min\nA;12\nB;13\n';
    const mapping = { building: 'Haus', wallControlMin: 'Min' };
    const query = `?mapping=${encodeURIComponent(JSON.stringify(mapping))}&defaults=${encodeURIComponent('{}')}`;
    const check = (await upload('/units/dry-run', csv, 'text/csv', query)).json();
    expect(check.problems).toEqual([
      { row: 1, field: 'name', column: null, code: 'import_field_unmapped' },
      {
        row: 1,
        field: 'building',
        column: 'Haus',
        code: 'import_column_missing',
        params: { column: 'Haus' },
      },
    ]);
  });

  it('imports the first sheet of an XLSX, numbering rows as the sheet does', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Räume');
    sheet.addRow(['Bezeichnung', 'Haus']);
    sheet.addRow(['Werkraum', 'Turnhalle']);
    sheet.addRow([]);
    sheet.addRow(['Werkraum', 'Turnhalle']);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const preview = (await upload('/preview', file, XLSX)).json();
    expect(preview).toEqual({
      format: 'xlsx',
      columns: ['Bezeichnung', 'Haus'],
      rows: [
        ['Werkraum', 'Turnhalle'],
        ['Werkraum', 'Turnhalle'],
      ],
      rowCount: 2,
    });
    const query = `?mapping=${encodeURIComponent(JSON.stringify({ name: 'Bezeichnung', building: 'Haus' }))}`;
    const check = (await upload('/units/dry-run', file, XLSX, query)).json();
    expect(check.problems).toEqual([
      {
        row: 4,
        field: 'name',
        column: 'Bezeichnung',
        code: 'import_duplicate',
        params: { value: 'Werkraum', row: 2 },
      },
    ]);
    sheet.spliceRows(4, 1);
    const fixed = Buffer.from(await book.xlsx.writeBuffer());
    const res = await upload('/units/commit', fixed, XLSX, query);
    expect(res.json()).toEqual({ kind: 'units', created: 1, assigned: 0 });
  });

  it('remembers a mapping and refuses one that lacks a required field or has a default its field does not take', async () => {
    const put = (body: object) => t.call('PUT', `${base}/imports/units/mapping`, body);
    const unmapped = await put({ mapping: { building: 'Haus' } });
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().errors).toEqual([
      expect.objectContaining({ field: 'body.mapping.name', code: 'import_field_unmapped' }),
    ]);
    const badDefault = await put({ mapping: { name: 'Raum' }, defaults: { wallControlMin: 'kalt' } });
    expect(badDefault.json().errors).toEqual([
      expect.objectContaining({
        field: 'body.defaults.wallControlMin',
        code: 'import_number_invalid',
        params: { value: 'kalt' },
      }),
    ]);
    const otherKind = await put({ mapping: { name: 'Raum', devEui: 'EUI' } });
    expect(otherKind.statusCode).toBe(400);
    expect(otherKind.json().errors[0].field).toBe('body.mapping');
    const saved = await put({
      mapping: { name: 'Raum', floor: 'Ebene', group: '' },
      defaults: { building: 'Turnhalle' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      mapping: { name: 'Raum', floor: 'Ebene' },
      defaults: { building: 'Turnhalle' },
      remembered: true,
    });
    // A file without the remembered floor column: the floor falls back to what its headers suggest.
    const columns = encodeURIComponent(JSON.stringify(['Raum', 'Stockwerk']));
    const fitted = (await t.call('GET', `${base}/imports/units/mapping?columns=${columns}`)).json();
    expect(fitted).toMatchObject({ mapping: { name: 'Raum', floor: 'Stockwerk' }, remembered: true });
  });
});
