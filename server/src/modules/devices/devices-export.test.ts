/**
 * Devices as CSV (decision 0060): German Excel (semicolon, BOM, decimal comma, local times),
 * machine format (comma, ISO times) and the network servers' import files (The Things Stack,
 * ChirpStack v4), the list's filters applied, never the AppKey; any member may export, a
 * stranger gets 404.
 */
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const APP_KEY = '00112233445566778899aabbccddeeff';

describe('devices export', () => {
  let t: TestApp;
  let c: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    await grantLicences(t.database.db, companyId, 5);
    await addMember(t, companyId, 'erin', 'ems');
    const building = (
      await call('POST', `${c}/buildings`, { name: 'Schule Süd', state: 'BY', floors: ['EG'] })
    ).json();
    const unit = (
      await call('POST', `${c}/units`, { name: 'Klasse 5ä', buildingId: building.id, floor: 'EG' })
    ).json();
    const valve = { id: '70b3d52dd3000001', model: 'mclimate-vicki', appKey: APP_KEY, unitId: unit.id };
    expect((await call('POST', `${c}/devices`, valve)).statusCode).toBe(201);
    expect(
      (await call('POST', `${c}/devices`, { id: '70b3d52dd3000002', model: 'elsys-ers' })).statusCode,
    ).toBe(201);
    await t.database.db
      .update(devices)
      .set({
        lastSeen: new Date('2026-11-26T05:55:00Z'),
        battery: 3.45,
        batteryUnit: 'V',
        lastRssi: -81,
        lastSnr: 7.5,
      })
      .where(eq(devices.id, '70b3d52dd3000001'));
  });
  afterAll(() => t.close());

  it('writes German Excel: BOM, semicolons, decimal comma, Berlin time, German headers, no AppKey', async () => {
    const res = await call('GET', `${c}/devices/export?sort=id&order=asc`, undefined, 'erin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('devices.csv');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'DevEUI;JoinEUI;Modell;Raum;Gebäude;Geschoss;Zuletzt gesehen;Batterie;Batterie-Einheit;RSSI (dBm);SNR (dB);Firmware;Angelegt',
    );
    expect(lines[1]).toMatch(
      /^70b3d52dd3000001;;mclimate-vicki;Klasse 5ä;Schule Süd;EG;26\.11\.2026 06:55;3,45;V;-81;7,5;;\d\d\.\d\d\.\d{4} \d\d:\d\d$/,
    );
    expect(lines[2]).toMatch(/^70b3d52dd3000002;;elsys-ers;;;;;;;;;;/);
    expect(res.body).not.toContain(APP_KEY);
  });

  it('writes the machine format with the filters applied', async () => {
    const res = await call('GET', `${c}/devices/export?format=csv&lang=en&model=mclimate-vicki`);
    const lines = res.body.trim().split('\n');
    expect(res.rawPayload.subarray(0, 3)).not.toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(lines[0]).toBe(
      'dev_eui,join_eui,model,unit,building,floor,last_seen,battery,battery_unit,rssi_dbm,snr_db,firmware,created_at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',2026-11-26T05:55:00.000Z,3.45,V,-81,7.5,');
  });

  it('writes a workbook: numbers as numbers, the last signal as a Berlin date, the header bold', async () => {
    const res = await call('GET', `${c}/devices/export?format=xlsx&sort=id&order=asc`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toContain('devices.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(1).value).toBe('DevEUI');
    expect(sheet.getRow(1).font?.bold).toBe(true);
    const valve = sheet.getRow(2);
    expect(valve.getCell(1).value).toBe('70b3d52dd3000001');
    expect(valve.getCell(8).value).toBeCloseTo(3.45, 5);
    expect(valve.getCell(10).value).toBe(-81);
    // 05:55 UTC is 06:55 in Berlin; Excel shows a date cell's fields as they are.
    expect(valve.getCell(7).value).toEqual(new Date('2026-11-26T06:55:00.000Z'));
    expect(valve.getCell(7).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(JSON.stringify(sheet.getSheetValues())).not.toContain(APP_KEY);
  });

  it("writes The Things Stack's device CSV: its columns, eui-<deveui> ids, unit names, defaults, no AppKey", async () => {
    const res = await call('GET', `${c}/devices/export?format=tts&sort=id&order=asc`, undefined, 'erin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('devices-tts.csv');
    // TTS reads its header by name, so no byte-order mark before `id`.
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('id');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'id;dev_eui;join_eui;name;description;frequency_plan_id;lorawan_version;lorawan_phy_version',
    );
    expect(lines[1]).toBe(
      'eui-70b3d52dd3000001;70b3d52dd3000001;0000000000000000;Klasse 5ä;mclimate-vicki;EU_863_870_TTN;MAC_V1_0_3;PHY_V1_0_3_REV_A',
    );
    // Without a unit the name is the DevEUI (TTS's ids allow lowercase and hyphens only).
    expect(lines[2]).toMatch(
      /^eui-70b3d52dd3000002;70b3d52dd3000002;0000000000000000;70b3d52dd3000002;elsys-ers;/,
    );
    expect(res.body).not.toContain(APP_KEY);
    expect(res.body.toLowerCase()).not.toContain('app_key');
  });

  it("writes ChirpStack v4's API device fields as CSV, the filters applied, no AppKey", async () => {
    const res = await call('GET', `${c}/devices/export?format=chirpstack&model=mclimate-vicki`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('devices-chirpstack.csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'dev_eui,name,description,application_id,device_profile_id,join_eui,skip_fcnt_check,is_disabled',
    );
    expect(lines).toEqual([lines[0], '70b3d52dd3000001,Klasse 5ä,mclimate-vicki,,,,false,false']);
    expect(res.body).not.toContain(APP_KEY);
  });

  it('answers a stranger 404 and refuses an unknown format', async () => {
    expect((await call('GET', `${c}/devices/export`, undefined, 'mallory')).statusCode).toBe(404);
    const res = await call('GET', `${c}/devices/export?format=xls`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('querystring.format');
  });
});
