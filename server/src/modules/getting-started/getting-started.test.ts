/**
 * The getting-started checklist: a new company starts with nothing done; each step ticks when
 * what it asks for appears (made through the API, the licence seeded as billing does, the
 * uplink stored by the ingest's own store); the newest uplink's time; another company's things
 * never count; a stranger gets 404 and a member who only reads 403. Without billing the licence
 * step is left out.
 */
import type { GettingStarted } from '@heizplan/contracts/getting-started';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import type { DecodedUplink } from '../../lorawan/ingest.ts';
import { telemetryStore } from '../../lorawan/telemetry.repository.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { addMember, createCompany } from '../me/account.fixtures.ts';
import { winterPlan } from '../units/heating-test-fixtures.ts';

const clock = testClock(testInstant('2026-12-02T14:05:00+01:00'));
const minutesAgo = (minutes: number) => new Date(clock.now().getTime() - minutes * 60_000);

/** An uplink of `devEui` received at `time`, without a payload (the device is marked as seen). */
function uplink(devEui: string, companyId: string, fCnt: number, time: Date): DecodedUplink {
  return {
    event: {
      kind: 'uplink',
      devEui,
      fCnt,
      fPort: 1,
      bytes: new Uint8Array(),
      time,
      radio: { gatewayIds: [] },
    },
    device: { id: devEui, devEui, companyId, unitId: null, model: 'micropelt-mlr003' },
  };
}

/** Stores uplinks as the LoRaWAN ingest stores them. */
const ingest = (t: TestApp, uplinks: DecodedUplink[]) =>
  telemetryStore(t.database.db).commit({ uplinks, statuses: [], downlinks: [], gateways: [] });

describe('getting-started checklist', () => {
  let t: TestApp;
  let companyId: string;
  let strangerCompanyId: string;
  const url = () => `/api/companies/${companyId}/getting-started`;
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object, user = 'gs-admin') =>
    t.call(method, `/api/companies/${companyId}${path}`, payload, user);
  const checklist = async (user = 'gs-admin'): Promise<GettingStarted> => {
    const res = await t.call('GET', url(), undefined, user);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const done = async () => Object.fromEntries((await checklist()).steps.map((step) => [step.id, step.done]));
  const created = async (res: Promise<{ statusCode: number; json(): unknown; body: string }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBeLessThan(300);
    return r.json() as { id: string };
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    companyId = (await createCompany(t, 'gs-admin', 'Neue Schule')).id;
    await addMember(t, companyId, 'gs-heating', 'heating');
    await addMember(t, companyId, 'gs-ems', 'ems');
    // A company with everything the checklist asks for: none of it may count for the new one.
    strangerCompanyId = (await createCompany(t, 'gs-stranger', 'Fremdfirma')).id;
    const other = (path: string, payload: object) =>
      created(t.call('POST', `/api/companies/${strangerCompanyId}${path}`, payload, 'gs-stranger'));
    await other('/buildings', { name: 'Fremdes Haus', state: 'BY' });
    const room = await other('/units', { name: 'Fremder Raum' });
    await other(`/units/${room.id}/plans`, winterPlan());
    await grantLicences(t.database.db, strangerCompanyId, 3, clock.now());
    await other('/devices', { id: 'b000000000000001', model: 'micropelt-mlr003', unitId: room.id });
    await ingest(t, [uplink('b000000000000001', strangerCompanyId, 1, minutesAgo(1))]);
    await created(
      t.call('POST', `/api/companies/${strangerCompanyId}/units/${room.id}/qr-code`, {}, 'gs-stranger'),
    );
  });
  afterAll(() => t.close());

  it('starts with every step open, in order, and no uplink', async () => {
    expect(await checklist()).toEqual({
      steps: [
        { id: 'building', done: false },
        { id: 'units', done: false },
        { id: 'plan', done: false },
        { id: 'licences', done: false },
        { id: 'uplinks', done: false },
        { id: 'devices', done: false },
        { id: 'qr_codes', done: false },
      ],
      lastUplinkAt: null,
    });
  });

  it('ticks each step when what it asks for appears', async () => {
    await created(call('POST', '/buildings', { name: 'Hauptgebäude', state: 'BE' }));
    expect(await done()).toMatchObject({ building: true, units: false });

    const room = await created(call('POST', '/units', { name: 'Raum 1' }));
    expect(await done()).toMatchObject({ units: true, plan: false });

    // A group's plan counts as much as a room's own.
    const group = await created(call('POST', '/groups', { name: 'Nordflügel' }));
    await created(call('POST', `/groups/${group.id}/plans`, winterPlan()));
    expect(await done()).toMatchObject({ plan: true, licences: false });

    await grantLicences(t.database.db, companyId, 2, clock.now());
    expect(await done()).toMatchObject({ licences: true, uplinks: false });

    // A registered device that has sent nothing yet does not show the network server works.
    const devEui = 'a000000000000001';
    await created(call('POST', '/devices', { id: devEui, model: 'micropelt-mlr003' }));
    expect(await done()).toMatchObject({ uplinks: false, devices: false });

    await ingest(t, [uplink(devEui, companyId, 1, minutesAgo(10))]);
    expect(await done()).toMatchObject({ uplinks: true, devices: false });

    // Heard from but in no room: not paired until it is assigned to one.
    const assigned = await call('PATCH', `/devices/${devEui}`, { unitId: room.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await done()).toMatchObject({ devices: true, qr_codes: false });

    await created(call('POST', `/units/${room.id}/qr-code`));
    expect((await checklist()).steps.every((step) => step.done)).toBe(true);
  });

  it("gives the newest uplink of the company's devices, never another company's", async () => {
    const second = 'a000000000000002';
    await created(call('POST', '/devices', { id: second, model: 'micropelt-mlr003' }));
    await ingest(t, [uplink(second, companyId, 1, minutesAgo(3))]);
    // An older uplink arriving late leaves the newest where it is.
    await ingest(t, [uplink('a000000000000001', companyId, 2, minutesAgo(30))]);
    // The stranger's device sent a minute ago; the new company's newest stays three minutes old.
    expect((await checklist()).lastUplinkAt).toBe(minutesAgo(3).toISOString());
  });

  it('answers a heating member, refuses a member who only reads and hides the company from strangers', async () => {
    expect((await checklist('gs-heating')).steps).toHaveLength(7);
    expect((await t.call('GET', url(), undefined, 'gs-ems')).statusCode).toBe(403);
    expect((await t.call('GET', url(), undefined, 'gs-stranger')).statusCode).toBe(404);
    const other = await t.call(
      'GET',
      `/api/companies/${strangerCompanyId}/getting-started`,
      undefined,
      'gs-admin',
    );
    expect(other.statusCode).toBe(404);
  });
});

describe('getting-started checklist without billing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ BILLING_PROVIDER: 'none' }, { clock: clock.now });
  });
  afterAll(() => t.close());

  it('leaves the licence step out: licences are unlimited, there is nothing to buy', async () => {
    const company = await createCompany(t, 'gs-free', 'Ohne Abrechnung');
    const res = await t.call('GET', `/api/companies/${company.id}/getting-started`, undefined, 'gs-free');
    expect(res.statusCode).toBe(200);
    expect(res.json().steps.map((step: { id: string }) => step.id)).toEqual([
      'building',
      'units',
      'plan',
      'uplinks',
      'devices',
      'qr_codes',
    ]);
  });
});
