/**
 * Reading import files (decision 0063): CSV with `;`, `,` or tabs, with or without BOM, in UTF-8
 * or Windows-1252, rows numbered as in the file; XLSX's first sheet; mapping suggestions from
 * the spellings vendors use; the cell rules of the contracts.
 */
import { parseDecimal, readImportCell } from '@heizplan/contracts/imports';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { collectUpload, detectDelimiter, readImportFile } from './import-file.ts';
import { fitMapping, suggestMapping } from './import-mapping.ts';

const problemOf = async (file: Buffer) =>
  readImportFile(file).then(
    () => undefined,
    (error: { status: number; reason?: { code: string } }) => ({
      status: error.status,
      code: error.reason?.code,
    }),
  );

describe('readImportFile', () => {
  it('reads a German Excel CSV: BOM, semicolons, CRLF; rows keep their number in the file', async () => {
    const csv =
      '\uFEFFName;Gebäude;Min\r\nRaum 1;Haus A;"16,5"\r\n;;\r\n\r\n"Raum\r\n2";Haus A;17\r\nRaum 3;;\r\n';
    const table = await readImportFile(Buffer.from(csv));
    expect(table.format).toBe('csv');
    expect(table.columns).toEqual(['Name', 'Gebäude', 'Min']);
    expect(table.headerRow).toBe(1);
    // Line 3 (`;;`) and line 4 (empty) hold nothing; the quoted name of row 5 spans two lines.
    expect(table.rows).toEqual([
      { row: 2, cells: ['Raum 1', 'Haus A', '16,5'] },
      { row: 5, cells: ['Raum\n2', 'Haus A', '17'] },
      { row: 7, cells: ['Raum 3', '', ''] },
    ]);
  });

  it('reads commas and tabs, and Windows-1252 where the file is no UTF-8', async () => {
    const comma = await readImportFile(Buffer.from('dev_eui,model\n70b3d57ed005a1b2,vicki\n'));
    expect(comma.rows).toEqual([{ row: 2, cells: ['70b3d57ed005a1b2', 'vicki'] }]);
    const tabs = await readImportFile(Buffer.from('a\tb\n1\t2\n'));
    expect(tabs.columns).toEqual(['a', 'b']);
    const latin = await readImportFile(
      Buffer.from([...Buffer.from('Geb'), 0xe4, ...Buffer.from('ude;x\nA;1\n')]),
    );
    expect(latin.columns).toEqual(['Gebäude', 'x']);
    expect(detectDelimiter('a;b,c;d')).toBe(';');
    expect(detectDelimiter('name')).toBe(',');
  });

  it("reads an XLSX's first sheet, its first row with values as the header", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Geräte');
    sheet.addRow(['DevEUI', 'AppKey', 'Temperatur']);
    sheet.addRow(['70B3D57ED005A1B2', '2B7E151628AED2A6ABF7158809CF4F3C', 21.5]);
    sheet.addRow([]);
    sheet.addRow(['70B3D57ED005A1B3', null, 19]);
    book.addWorksheet('Notizen').addRow(['ignored']);
    const table = await readImportFile(Buffer.from(await book.xlsx.writeBuffer()));
    expect(table).toEqual({
      format: 'xlsx',
      columns: ['DevEUI', 'AppKey', 'Temperatur'],
      headerRow: 1,
      rows: [
        { row: 2, cells: ['70B3D57ED005A1B2', '2B7E151628AED2A6ABF7158809CF4F3C', '21.5'] },
        { row: 4, cells: ['70B3D57ED005A1B3', '', '19'] },
      ],
    });
  });

  it('refuses what it cannot read, a file without rows and one with too many', async () => {
    expect(await problemOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toEqual({
      status: 400,
      code: 'import_file_unreadable',
    });
    expect(await problemOf(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).toMatchObject({
      code: 'import_file_unreadable',
    });
    expect(await problemOf(Buffer.from('a;"b\n1;2'))).toMatchObject({ code: 'import_file_unreadable' });
    expect(await problemOf(Buffer.from('name;floor\n'))).toEqual({ status: 400, code: 'import_file_empty' });
    expect(await problemOf(Buffer.from(`name\n${'Raum\n'.repeat(20_001)}`))).toEqual({
      status: 400,
      code: 'import_too_many_rows',
    });
  });

  it('stops reading an upload past the size limit', async () => {
    async function* chunks() {
      for (let i = 0; i < 11; i++) yield Buffer.alloc(1024 * 1024);
    }
    await expect(collectUpload(chunks())).rejects.toMatchObject({
      status: 413,
      reason: { code: 'import_file_too_large', params: { maxMb: 10 } },
    });
    await expect(collectUpload(chunks(), String(50 * 1024 * 1024))).rejects.toMatchObject({ status: 413 });
  });
});

describe('mapping suggestions', () => {
  it('recognises the spellings of The Things Stack, spreadsheets and German lists', () => {
    const tts = ['id', 'dev_eui', 'join_eui', 'name', 'frequency_plan_id', 'model_id', 'app_key'];
    expect(suggestMapping('devices', tts)).toEqual({
      devEui: 'dev_eui',
      joinEui: 'join_eui',
      appKey: 'app_key',
      model: 'model_id',
    });
    expect(suggestMapping('devices', ['DevEUI', 'AppEUI', 'AppKey', 'Typ', 'Raum'])).toEqual({
      devEui: 'DevEUI',
      joinEui: 'AppEUI',
      appKey: 'AppKey',
      model: 'Typ',
      unit: 'Raum',
    });
    expect(suggestMapping('devices', ['Dev EUI', 'deveui'])).toEqual({ devEui: 'Dev EUI' });
    expect(
      suggestMapping('units', ['Raum', 'Gebäude', 'Stockwerk', 'Gruppe', 'Min (°C)', 'Max (°C)']),
    ).toEqual({
      name: 'Raum',
      building: 'Gebäude',
      floor: 'Stockwerk',
      group: 'Gruppe',
      wallControlMin: 'Min (°C)',
      wallControlMax: 'Max (°C)',
    });
  });

  it('fits a remembered mapping to a file: missing columns take a suggestion', () => {
    const remembered = { devEui: 'EUI', appKey: 'Schlüssel', model: 'Modell' };
    expect(fitMapping('devices', remembered, ['EUI', 'app_key', 'Modell'])).toEqual({
      devEui: 'EUI',
      appKey: 'app_key',
      model: 'Modell',
    });
  });
});

describe('cells', () => {
  it('reads numbers as people write them', () => {
    expect([parseDecimal('21,5'), parseDecimal('21.5'), parseDecimal(' 18 °C'), parseDecimal('-2')]).toEqual([
      21.5, 21.5, 18, -2,
    ]);
    expect(parseDecimal('1.234,5')).toBe(1234.5);
    expect(parseDecimal('warm')).toBeNaN();
    expect(parseDecimal('1,2,3')).toBeNaN();
  });

  it('normalises EUIs, AppKeys and model names, and names what is wrong', () => {
    expect(readImportCell('devEui', ' 70-B3-D5-7E-D0-05-A1-B2 ')).toEqual({
      ok: true,
      value: '70b3d57ed005a1b2',
    });
    expect(readImportCell('joinEui', '0x70B3D57ED005A1B2')).toEqual({ ok: true, value: '70b3d57ed005a1b2' });
    expect(readImportCell('devEui', '70b3')).toEqual({
      ok: false,
      code: 'import_eui_invalid',
      params: { value: '70b3' },
    });
    expect(readImportCell('appKey', 'ab'.repeat(15))).toEqual({ ok: false, code: 'import_app_key_invalid' });
    expect(readImportCell('model', 'MClimate Vicki')).toEqual({ ok: true, value: 'mclimate-vicki' });
    expect(readImportCell('model', 'WT101')).toEqual({ ok: true, value: 'milesight-wt101' });
    expect(readImportCell('model', 'acme')).toMatchObject({ ok: false, code: 'import_model_unknown' });
    expect(readImportCell('name', '   ')).toEqual({ ok: true, value: null });
    expect(readImportCell('name', 'a\u0000b')).toEqual({ ok: false, code: 'import_text_invalid' });
    expect(readImportCell('floor', 'x'.repeat(41))).toMatchObject({
      code: 'import_text_too_long',
      params: { max: 40 },
    });
  });
});
