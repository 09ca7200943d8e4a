import { APP_KEY_MESSAGE, DEV_EUI_MESSAGE } from '@heizplan/contracts/devices';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { createAppKeyCipher } from './app-key-cipher.ts';
import { type RegistryFixture, seedRegistry } from './registry-test-fixtures.ts';

const SECRET = 'a1'.repeat(32);
const APP_KEY = '2B7E151628AED2A6ABF7158809CF4F3C';

describe('devices API', () => {
  let t: TestApp;
  let f: RegistryFixture;
  let base: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const register = (id: string, extra: object = {}) =>
    call('POST', base, { id, model: 'mclimate-vicki', ...extra });

  beforeAll(async () => {
    t = await buildTestApp({ DEVICE_KEY_SECRET: SECRET });
    f = await seedRegistry(t.database.db);
    await grantLicences(t.database.db, f.companyId, 20);
    base = `/api/companies/${f.companyId}/devices`;
  });
  afterAll(() => t.close());

  it('registers a LoRaWAN device under its lowercase DevEUI and never returns the AppKey', async () => {
    const res = await register('70B3D57ED005A1B2', { appKey: APP_KEY, joinEui: 'A000000000000100' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      id: '70b3d57ed005a1b2',
      devEui: '70b3d57ed005a1b2',
      joinEui: 'a000000000000100',
      protocol: 'lorawan',
      model: 'mclimate-vicki',
      appKeySet: true,
      appKeyLast4: '4f3c',
      unitId: null,
      createdBy: { id: 'alice', name: 'Alice' },
      lastSeen: null,
      battery: null,
    });
    expect(JSON.stringify(body).toLowerCase()).not.toContain(APP_KEY.toLowerCase());
    const [row] = await t.database.db.select().from(devices).where(eq(devices.id, '70b3d57ed005a1b2'));
    expect(row?.appKeyEncrypted).not.toContain(APP_KEY.toLowerCase());
    const cipher = createAppKeyCipher(Buffer.from(SECRET, 'hex'));
    expect(cipher.decrypt(row?.appKeyEncrypted ?? '', '70b3d57ed005a1b2')).toBe(APP_KEY.toLowerCase());
  });

  it.each([
    [{ id: '70b3d57ed005a1b2ff', model: 'elsys-ers' }, 'body.id', 'A device id has at most 16 characters.'],
    [{ id: '70b3d57ed005a1b', model: 'elsys-ers' }, 'body.id', DEV_EUI_MESSAGE],
    [{ id: '70b3d57ed005a1zz', model: 'elsys-ers' }, 'body.id', DEV_EUI_MESSAGE],
    [{ id: '70b3d57ed005a1b9', model: 'elsys-ers', appKey: 'ab'.repeat(15) }, 'body.appKey', APP_KEY_MESSAGE],
    [{ id: '70b3d57ed005a1b9', model: 'acme' }, 'body.model', undefined],
  ])('rejects %j with a 400 naming the field', async (payload, field, message) => {
    const res = await call('POST', base, payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const error = res.json().errors.find((e: { field: string }) => e.field === field);
    expect(error).toBeDefined();
    if (message) expect(error.message).toBe(message);
  });

  it('lets a DevEUI belong to one company only', async () => {
    await register('70b3d57ed0000001');
    const res = await call(
      'POST',
      `/api/companies/${f.otherCompanyId}/devices`,
      { id: '70B3D57ED0000001', model: 'elsys-ers' },
      'mallory',
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain('a DevEUI can belong to one company only');
  });

  it('assigns a device to a unit, refuses unknown or foreign units, and unassigns', async () => {
    const url = `${base}/70b3d57ed0000001`;
    const assigned = await call('PATCH', url, { unitId: f.unitId });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toMatchObject({ unitId: f.unitId, unitName: 'Raum 1' });
    for (const unitId of [f.otherUnitId, '00000000-0000-4000-8000-000000000000']) {
      const res = await call('PATCH', url, { unitId });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Unknown unit');
    }
    expect((await call('PATCH', url, { unitId: null })).json()).toMatchObject({
      unitId: null,
      unitName: null,
    });
  });

  it('has the setpoint sent to a device the moment it gets a unit, not when it loses one', async () => {
    const told: string[][] = [];
    t.ports.devicesAssigned = (ids) => told.push(ids);
    try {
      await register('70b3d57ed0000004');
      await register('70b3d57ed0000005', { unitId: f.unitId });
      await call('PATCH', `${base}/70b3d57ed0000004`, { unitId: f.unitId });
      await call('PATCH', `${base}/70b3d57ed0000004`, { unitId: null });
      await call('PATCH', `${base}/70b3d57ed0000004`, { unitId: f.otherUnitId });
      expect(told).toEqual([['70b3d57ed0000005'], ['70b3d57ed0000004']]);
    } finally {
      t.ports.devicesAssigned = undefined;
      await call('DELETE', `${base}/70b3d57ed0000004`);
      await call('DELETE', `${base}/70b3d57ed0000005`);
    }
  });

  it('forgets the firmware and frost protection a device reported once its model changes', async () => {
    const id = '70b3d57ed0000006';
    await register(id);
    const reported = { firmware: '4.3', antiFreeze: { activation: 7, deactivation: 10, target: 8 } };
    await t.database.db.update(devices).set(reported).where(eq(devices.id, id));
    const same = await call('PATCH', `${base}/${id}`, { model: 'mclimate-vicki' });
    expect(same.json()).toMatchObject({ ...reported, antiFreezeSupport: 'supported' });
    const other = await call('PATCH', `${base}/${id}`, { model: 'milesight-wt101' });
    expect(other.json()).toMatchObject({ firmware: null, antiFreeze: null, antiFreezeSupport: 'none' });
    await call('DELETE', `${base}/${id}`);
  });

  it('replaces the AppKey on update and keeps only its last 4 digits visible', async () => {
    const res = await call('PATCH', `${base}/70b3d57ed0000001`, { appKey: `${'ff'.repeat(14)}1234` });
    expect(res.json()).toMatchObject({ appKeySet: true, appKeyLast4: '1234' });
  });

  it('finds a device by DevEUI in any spelling for /assign, else "Device not found."', async () => {
    const found = await call('GET', `${base}/by-eui/70B3D57ED005A1B2`);
    expect(found.statusCode).toBe(200);
    expect(found.json().id).toBe('70b3d57ed005a1b2');
    const missing = await call('GET', `${base}/by-eui/0011223344556677`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Device not found.');
  });

  it('lists with paging, sorting and filters', async () => {
    await register('70b3d57ed0000003', { model: 'elsys-ers', unitId: f.unitId });
    await register('70b3d57ed0000002', { model: 'milesight-wt101' });
    const page = (await call('GET', `${base}?size=2&page=2&sort=id&order=asc`)).json();
    expect(page).toMatchObject({ count: 4, page: 2, size: 2 });
    expect(page.results.map((d: { id: string }) => d.id)).toEqual(['70b3d57ed0000003', '70b3d57ed005a1b2']);
    const byModel = (await call('GET', `${base}?model=elsys-ers`)).json();
    expect(byModel.results.map((d: { id: string }) => d.id)).toEqual(['70b3d57ed0000003']);
    const byUnitName = (await call('GET', `${base}?q=raum`)).json();
    expect(byUnitName.results.map((d: { id: string }) => d.id)).toEqual(['70b3d57ed0000003']);
    const unassigned = (await call('GET', `${base}?unassigned=true&sort=id&order=desc`)).json();
    expect(unassigned.results.map((d: { id: string }) => d.id)).toEqual([
      '70b3d57ed005a1b2',
      '70b3d57ed0000002',
      '70b3d57ed0000001',
    ]);
    expect((await call('GET', `${base}?sort=colour`)).statusCode).toBe(400);
  });

  it('answers 404 to a member of another company on every device endpoint', async () => {
    const device = `${base}/70b3d57ed0000001`;
    const attempts = [
      ['GET', base, undefined],
      ['POST', base, { id: '70b3d57ed00000ff', model: 'elsys-ers' }],
      ['GET', device, undefined],
      ['GET', `${base}/by-eui/70b3d57ed0000001`, undefined],
      ['PATCH', device, { unitId: null }],
      ['DELETE', device, undefined],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, payload, 'mallory');
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('GET', device)).statusCode).toBe(200);
  });

  it('deletes devices but keeps the last one while the subscription is active', async () => {
    const own = await call('GET', `${base}?size=100`);
    const ids: string[] = own.json().results.map((d: { id: string }) => d.id);
    for (const id of ids.slice(1)) expect((await call('DELETE', `${base}/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `${base}/${ids[1]}`)).statusCode).toBe(404);
    const last = await call('DELETE', `${base}/${ids[0]}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toBe(
      'The last device cannot be deleted while the subscription is active. Cancel the subscription first.',
    );
    expect((await call('DELETE', `${base}/0011223344556677`)).statusCode).toBe(404);
  });

  it('deletes the last device once the subscription is cancelled at the end of its period', async () => {
    const cancel = await call('PATCH', `/api/companies/${f.companyId}/billing/subscription`, {
      cancelAtPeriodEnd: true,
    });
    expect(cancel.statusCode).toBe(200);
    const [last] = (await call('GET', base)).json().results;
    expect((await call('DELETE', `${base}/${last.id}`)).statusCode).toBe(204);
    expect((await call('GET', base)).json().count).toBe(0);
  });

  it('documents the device endpoints in the OpenAPI description', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/companies/{companyId}/devices/by-eui/{devEui}');
  });
});
