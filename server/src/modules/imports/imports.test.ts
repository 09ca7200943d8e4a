/**
 * Bulk import of devices (decision 0063) through the API: a TTS-style CSV with BOM, mapping
 * suggested and remembered, defaults, a dry run that lists every problem and writes nothing, a
 * commit that writes all rows or none (also when data changes between check and write), with
 * NDJSON progress, encrypted AppKeys, an audit entry and setpoints queued for assigned devices;
 * licences; strangers 404, roles without `operate` 403; files too large, unreadable or empty.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { dataFingerprint } from '../../http/api-walk.test-kit.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { createAppKeyCipher } from '../devices/app-key-cipher.ts';
import { seedRegistry } from '../devices/registry-test-fixtures.ts';
import { addMember, createCompany } from '../me/account.fixtures.ts';
import { commitError } from './import-refusal.ts';

const SECRET = 'b2'.repeat(32);
const KEY = '2B7E151628AED2A6ABF7158809CF4F3C';
const eui = (n: number) => `70b3d57ed0${n.toString(16).padStart(6, '0')}`;

describe('device import', () => {
  let t: TestApp;
  let companyId: string;
  let base: string;
  let otherCompanyId: string;

  /** POSTs `body` to `…/imports<path>` as `user`, the query's objects as JSON. */
  const upload = async (
    path: string,
    body: string | Buffer,
    options: { user?: string; type?: string; accept?: string; query?: Record<string, object> } = {},
  ) => {
    const query = new URLSearchParams(
      Object.entries(options.query ?? {}).map(([key, value]): [string, string] => [
        key,
        JSON.stringify(value),
      ]),
    ).toString();
    return t.app.inject({
      method: 'POST',
      url: `${base}/imports${path}${query ? `?${query}` : ''}`,
      payload: body,
      headers: {
        ...(await t.as(options.user ?? 'alice')),
        'content-type': options.type ?? 'text/csv',
        ...(options.accept ? { accept: options.accept } : {}),
      },
    });
  };

  beforeAll(async () => {
    t = await buildTestApp({ DEVICE_KEY_SECRET: SECRET });
    const f = await seedRegistry(t.database.db);
    companyId = f.companyId;
    otherCompanyId = f.otherCompanyId;
    base = `/api/companies/${companyId}`;
    await grantLicences(t.database.db, companyId, 10);
    await grantLicences(t.database.db, otherCompanyId, 10);
    await addMember(t, companyId, 'erin', 'ems');
    await addMember(t, companyId, 'hannah', 'heating');
  });
  afterAll(() => t.close());

  it("reads The Things Stack's semicolon CSV with BOM, suggests the mapping, applies defaults and writes nothing in a dry run", async () => {
    const csv = `\uFEFFid;dev_eui;join_eui;name;app_key;Raum\r\nvicki-1;70B3D57ED005A1B2;A000000000000100;Vicki 1;${KEY};Raum 1\r\nvicki-2;70-B3-D5-7E-D0-05-A1-B3;;Vicki 2;;\r\n`;
    const columns = ['id', 'dev_eui', 'join_eui', 'name', 'app_key', 'Raum'];
    const suggested = await t.call(
      'GET',
      `${base}/imports/devices/mapping?columns=${encodeURIComponent(JSON.stringify(columns))}`,
    );
    expect(suggested.statusCode, suggested.body).toBe(200);
    expect(suggested.json()).toEqual({
      kind: 'devices',
      mapping: { devEui: 'dev_eui', joinEui: 'join_eui', appKey: 'app_key', unit: 'Raum' },
      defaults: {},
      remembered: false,
      updatedAt: null,
    });
    const before = await dataFingerprint(t);
    const res = await upload('/devices/dry-run', csv, {
      query: { defaults: { model: 'MClimate Vicki', joinEui: 'a000000000000200' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      kind: 'devices',
      rowCount: 2,
      problemCount: 0,
      problems: [],
      licences: { free: 10, needed: 2 },
      mapping: { devEui: 'dev_eui', joinEui: 'join_eui', appKey: 'app_key', unit: 'Raum' },
      defaults: { joinEui: 'a000000000000200', model: 'MClimate Vicki' },
    });
    expect(await dataFingerprint(t)).toEqual(before);
  });

  it('lists every problem of every row with the row as in the file, and writes nothing', async () => {
    await t.call('POST', `${base}/devices`, { id: eui(1), model: 'elsys-ers' });
    await t.call(
      'POST',
      `/api/companies/${otherCompanyId}/devices`,
      { id: eui(2), model: 'elsys-ers' },
      'mallory',
    );
    const csv = [
      'dev_eui,app_key,model,unit',
      `${eui(10)},${KEY},vicki,raum 1`,
      `70b3d57ed005a1zz,,mclimate-vicki,`,
      `${eui(11)},abcd,acme,Raum 99`,
      '',
      `${eui(10)},,elsys-ers,`,
      `${eui(1)},,elsys-ers,`,
      `${eui(2)},,elsys-ers,`,
      ',,elsys-ers,',
    ].join('\n');
    const before = await dataFingerprint(t);
    const res = await upload('/devices/dry-run', csv);
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json();
    expect(check.rowCount).toBe(7);
    expect(check.problemCount).toBe(8);
    expect(
      check.problems.map(
        (p: { row: number; field: string; code: string }) => `${p.row} ${p.field} ${p.code}`,
      ),
    ).toEqual([
      '3 devEui import_eui_invalid',
      '4 appKey import_app_key_invalid',
      '4 model import_model_unknown',
      '4 unit import_unit_unknown',
      '6 devEui import_duplicate',
      '7 devEui import_device_exists',
      '8 devEui import_device_taken',
      '9 devEui import_value_required',
    ]);
    expect(check.problems[0]).toEqual({
      row: 3,
      field: 'devEui',
      column: 'dev_eui',
      code: 'import_eui_invalid',
      params: { value: '70b3d57ed005a1zz' },
    });
    expect(check.problems[4].params).toEqual({ value: eui(10), row: 2 });
    // Whose the DevEUI is, is not said.
    expect(JSON.stringify(check.problems[6])).not.toContain(otherCompanyId);
    expect(await dataFingerprint(t)).toEqual(before);
  });

  it('commits all rows or none: one bad row refuses the file with every problem named', async () => {
    const csv = `DevEUI;Modell\n${eui(20)};vicki\n${eui(21)};vicki\n${eui(22)};kaputt\n`;
    const before = await dataFingerprint(t);
    const res = await upload('/devices/commit', csv);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      code: 'import_has_problems',
      params: { count: 1 },
      errors: [
        {
          field: 'rows.4.model',
          message: 'Unknown device model "kaputt".',
          code: 'import_model_unknown',
          params: { value: 'kaputt', row: 4 },
        },
      ],
    });
    expect(await dataFingerprint(t)).toEqual(before);
  });

  it('writes nothing when a DevEUI is registered between the check and the write', async () => {
    const file = Buffer.from(`dev_eui\n${eui(30)}\n${eui(31)}\n`);
    const prepared = await t.services.imports.prepareCommit('alice', companyId, 'devices', file, {
      defaults: { model: 'elsys-ers' },
    });
    expect((await t.call('POST', `${base}/devices`, { id: eui(31), model: 'elsys-ers' })).statusCode).toBe(
      201,
    );
    let started = false;
    await expect(
      prepared.run(
        () => (started = true),
        () => {},
      ),
    ).rejects.toMatchObject({
      status: 409,
      reason: { code: 'import_conflict' },
    });
    expect(started).toBe(false);
    expect(
      await t.database.db
        .select()
        .from(devices)
        .where(eq(devices.id, eui(30))),
    ).toEqual([]);
    // Another company's registration racing the insert itself: the unique index refuses it.
    expect(commitError(Object.assign(new Error('dup'), { cause: { code: '23505' } }))).toMatchObject({
      status: 409,
      reason: { code: 'import_conflict' },
    });
  });

  it('names free and needed licences when the devices do not fit', async () => {
    const csv = ['dev_eui;model', ...Array.from({ length: 12 }, (_, i) => `${eui(40 + i)};elsys-ers`)].join(
      '\n',
    );
    const check = (await upload('/devices/dry-run', csv)).json();
    // 10 licences, 2 devices registered above.
    expect(check.licences).toEqual({ free: 8, needed: 12 });
    expect(check.problems).toEqual([
      {
        row: null,
        field: null,
        column: null,
        code: 'import_licences_short',
        params: { free: 8, needed: 12 },
      },
    ]);
    const res = await upload('/devices/commit', csv);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'import_licences_short',
      params: { free: 8, needed: 12 },
      detail: 'The file holds 12 devices but only 8 licences are free.',
    });
  });

  it('streams progress while it writes 2,500 devices in one transaction, then remembers the mapping', async () => {
    const carol = await createCompany(t, 'carol', 'Schulamt');
    const c = `/api/companies/${carol.id}`;
    await grantLicences(t.database.db, carol.id, 3000);
    const unit = (await t.call('POST', `${c}/units`, { name: 'Aula' }, 'carol')).json();
    const assigned: string[] = [];
    t.ports.devicesAssigned = (ids) => assigned.push(...ids);
    const rows = Array.from({ length: 2500 }, (_, i) => `${eui(1000 + i)};${KEY};${i % 2 ? 'Aula' : ''}`);
    const saved = base;
    base = c;
    const res = await upload('/devices/commit', ['EUI;Schlüssel;Ort', ...rows].join('\n'), {
      user: 'carol',
      accept: 'application/x-ndjson',
      query: {
        mapping: { devEui: 'EUI', appKey: 'Schlüssel', unit: 'Ort' },
        defaults: { model: 'micropelt-mlr003' },
      },
    });
    base = saved;
    t.ports.devicesAssigned = undefined;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { done: 0, total: 2500 },
      { done: 1000, total: 2500 },
      { done: 2000, total: 2500 },
      { done: 2500, total: 2500 },
      { result: { kind: 'devices', created: 2500, assigned: 1250 } },
    ]);
    expect(assigned).toHaveLength(1250);
    const [row] = await t.database.db
      .select()
      .from(devices)
      .where(eq(devices.id, eui(1001)));
    expect(row).toMatchObject({
      companyId: carol.id,
      model: 'micropelt-mlr003',
      unitId: unit.id,
      createdBy: 'carol',
    });
    const cipher = createAppKeyCipher(Buffer.from(SECRET, 'hex'));
    expect(cipher.decrypt(row?.appKeyEncrypted ?? '', eui(1001))).toBe(KEY.toLowerCase());
    expect(row?.appKeyLast4).toBe('4f3c');
    const mapping = (await t.call('GET', `${c}/imports/devices/mapping`, undefined, 'carol')).json();
    expect(mapping).toMatchObject({
      remembered: true,
      mapping: { devEui: 'EUI', appKey: 'Schlüssel', unit: 'Ort' },
      defaults: { model: 'micropelt-mlr003' },
    });
    const audit = (await t.call('GET', `${c}/audit-log?resource=imports`, undefined, 'carol')).json();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({
      actor: { id: 'carol', kind: 'member' },
      route: '/api/companies/{companyId}/imports/{kind}/commit',
      resourceId: 'devices',
      fields: { kind: 'devices', created: 2500, assigned: 1250, rows: 2500, format: 'csv' },
    });
    expect(JSON.stringify(audit.results[0])).not.toContain(KEY.toLowerCase());
  });

  it('answers strangers 404 and members who may not create devices 403, changing nothing', async () => {
    const csv = `dev_eui;model\n${eui(90)};elsys-ers\n`;
    const before = await dataFingerprint(t);
    for (const [user, status] of [
      ['mallory', 404],
      ['erin', 403],
    ] as const) {
      const calls = [
        await t.call('GET', `${base}/imports/devices/mapping`, undefined, user),
        await t.call('PUT', `${base}/imports/devices/mapping`, { mapping: { devEui: 'dev_eui' } }, user),
        await upload('/preview', csv, { user }),
        await upload('/devices/dry-run', csv, { user }),
        await upload('/devices/commit', csv, { user }),
      ];
      for (const res of calls) {
        expect(res.statusCode, `${user} ${res.body}`).toBe(status);
        expect(res.headers['content-type']).toContain('application/problem+json');
      }
    }
    expect(await dataFingerprint(t)).toEqual(before);
    expect((await upload('/devices/dry-run', csv, { user: 'hannah' })).statusCode).toBe(200);
  });

  it('refuses a file too large, unreadable, empty or of another content type with problem+json', async () => {
    const tooLarge = await upload('/devices/dry-run', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'import_file_too_large', params: { maxMb: 10 } });
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const broken = await upload('/devices/dry-run', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), {
      type: xlsx,
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'import_file_unreadable' });
    const empty = await t.app.inject({
      method: 'POST',
      url: `${base}/imports/devices/dry-run`,
      headers: await t.as('alice'),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'import_file_empty' });
    const pdf = await upload('/devices/dry-run', 'x', { type: 'application/pdf' });
    expect(pdf.statusCode).toBe(415);
    expect(pdf.headers['content-type']).toContain('application/problem+json');
    const badQuery = await t.app.inject({
      method: 'POST',
      url: `${base}/imports/devices/dry-run?mapping=not-json`,
      payload: 'dev_eui\n1\n',
      headers: { ...(await t.as('alice')), 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().errors[0].field).toBe('querystring.mapping');
  });
});
