import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PublicHeatingViewSchema } from '@heizplan/contracts/public-heating-view';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices, downlinks, telemetry, unitQrCodes, units } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { PUBLIC_RATE_LIMITS } from './public-heating-view.routes.ts';
import { occupantLimits } from './public-heating-view.service.ts';

const DEV_EUI = 'b000000000000001';

/** A company with one unit (wall control 18–23 °C) whose QR code is enabled; returns its token. */
async function seedUnitWithCode(t: TestApp, f: RegistryFixture, token: string) {
  const db = t.database.db;
  await db.insert(devices).values({
    id: DEV_EUI,
    devEui: DEV_EUI,
    companyId: f.companyId,
    model: 'mclimate-vicki',
    unitId: f.unitId,
  });
  await t.call('PATCH', `/api/companies/${f.companyId}/units/${f.unitId}`, {
    wallControlMin: 18,
    wallControlMax: 23,
  });
  await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/setpoint`, { setpoint: 20 });
  await db.insert(unitQrCodes).values({ unitId: f.unitId, companyId: f.companyId, token });
}

describe('occupant limits', () => {
  const company = { minTemperature: 5, maxTemperature: 28, occupantMaxTemperature: 24, occupantBand: 2 };
  const noWallLimits = { wallControlMin: null, wallControlMax: null };

  it("are a room's own wall-control limits inside the company range, rounded inwards to 0.5 °C", () => {
    expect(
      occupantLimits({ ...company, maxTemperature: 22 }, { wallControlMin: 18.2, wallControlMax: 24 }, 21),
    ).toEqual({ min: 18.5, max: 22 });
    // Staff chose them for this room: the default ceiling and band do not narrow them.
    expect(occupantLimits(company, { wallControlMin: 16, wallControlMax: 26 }, 21)).toEqual({
      min: 16,
      max: 26,
    });
  });

  it("are otherwise the plan's setpoint ± the band, never above the occupants' ceiling", () => {
    expect(occupantLimits(company, noWallLimits, 21)).toEqual({ min: 19, max: 23 });
    expect(occupantLimits(company, noWallLimits, 23)).toEqual({ min: 21, max: 24 });
    expect(occupantLimits(company, noWallLimits, 17.3)).toEqual({ min: 15.5, max: 19 });
    // Without a band: the company range up to the ceiling; a setpoint unknown: the same.
    expect(occupantLimits({ ...company, occupantBand: null }, noWallLimits, 21)).toEqual({ min: 5, max: 24 });
    expect(occupantLimits(company, noWallLimits, null)).toEqual({ min: 5, max: 24 });
    // A booking heats to 27 °C: the band lies above the ceiling, so only the ceiling is offered.
    expect(occupantLimits(company, noWallLimits, 27)).toEqual({ min: 24, max: 24 });
  });
});

describe("a new company's safe default for occupants", () => {
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  let t: TestApp;
  let f: RegistryFixture;
  const token = 'Ws8pL2nQ5rT7vX9zB1cD3f';
  const url = `/api/public/heating-view/${token}`;
  const post = (setpoint: number) =>
    t.app.inject({ method: 'POST', url: `${url}/setpoint`, payload: { setpoint } });

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    // A room without wall-control limits, which staff set to 20 °C.
    await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/setpoint`, { setpoint: 20 });
    await t.database.db.insert(unitQrCodes).values({ unitId: f.unitId, companyId: f.companyId, token });
  });
  afterAll(() => t.close());

  it('offers 2 K around the setpoint staff gave, measured from it after each occupant change', async () => {
    const company = await t.call('GET', `/api/companies/${f.companyId}/`);
    expect(company.json()).toMatchObject({ occupant_max_temperature: 24, occupant_band: 2 });
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      setpoint: 20,
      min: 18,
      max: 22,
    });
    expect((await post(22)).statusCode).toBe(200);
    // The band stays around the staff's 20 °C: a second occupant cannot climb on from 22 °C.
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      setpoint: 22,
      min: 18,
      max: 22,
    });
    const refused = await post(22.5);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'setpoint_outside_limits', params: { min: 18, max: 22 } });
  });

  it('follows the company setting: no band up to the ceiling, and a ceiling inside the range', async () => {
    const patched = await t.call('PATCH', `/api/companies/${f.companyId}/`, {
      occupant_band: null,
      occupant_max_temperature: 23,
    });
    expect(patched.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({ min: 5, max: 23 });
    const outside = await t.call('PATCH', `/api/companies/${f.companyId}/`, { occupant_max_temperature: 29 });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors[0]).toMatchObject({ field: 'body.occupant_max_temperature' });
    const band = await t.call('PATCH', `/api/companies/${f.companyId}/`, { occupant_band: 0.2 });
    expect(band.statusCode).toBe(400);
    expect(band.json().errors[0]).toMatchObject({ field: 'body.occupant_band' });
  });
});

describe("occupant limits of a room's building and group", () => {
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  let t: TestApp;
  let f: RegistryFixture;
  const token = 'Hs8pL2nQ5rT7vX9zB1cD3g';
  const url = `/api/public/heating-view/${token}`;
  const limits = async () => {
    const { min, max } = (await t.app.inject({ method: 'GET', url })).json();
    return { min, max };
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    // A room without wall-control limits at 21 °C; the company keeps its defaults (24 °C, 2 K).
    await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/setpoint`, { setpoint: 21 });
    await t.database.db.insert(unitQrCodes).values({ unitId: f.unitId, companyId: f.companyId, token });
  });
  afterAll(() => t.close());

  it("take the group's limit before the building's and the building's before the company's", async () => {
    expect(await limits()).toEqual({ min: 19, max: 23 });
    const building = await t.call('POST', `/api/companies/${f.companyId}/buildings`, {
      name: 'Gymnasium',
      state: 'BY',
      occupantMaxTemperature: 22,
      occupantBand: 1,
    });
    expect(building.json()).toMatchObject({ occupantMaxTemperature: 22, occupantBand: 1 });
    await t.call('PATCH', `/api/companies/${f.companyId}/units/${f.unitId}`, {
      buildingId: building.json().id,
    });
    expect(await limits()).toEqual({ min: 20, max: 22 });

    const group = await t.call('POST', `/api/companies/${f.companyId}/groups`, {
      name: 'Lehrerzimmer',
      occupantBand: 3,
    });
    expect(group.json()).toMatchObject({ occupantMaxTemperature: null, occupantBand: 3 });
    await t.call('POST', `/api/companies/${f.companyId}/groups/${group.json().id}/units`, {
      unitIds: [f.unitId],
    });
    // The group's leeway, the building's ceiling.
    expect(await limits()).toEqual({ min: 18, max: 22 });

    const raised = await t.call('PATCH', `/api/companies/${f.companyId}/groups/${group.json().id}`, {
      occupantMaxTemperature: 23.5,
    });
    expect(raised.json()).toMatchObject({
      name: 'Lehrerzimmer',
      occupantMaxTemperature: 23.5,
      occupantBand: 3,
    });
    expect(await limits()).toEqual({ min: 18, max: 23.5 });

    // Back to the next level's: the building's ceiling and leeway.
    await t.call('PATCH', `/api/companies/${f.companyId}/groups/${group.json().id}`, {
      occupantMaxTemperature: null,
      occupantBand: null,
    });
    expect(await limits()).toEqual({ min: 20, max: 22 });
    await t.call('PATCH', `/api/companies/${f.companyId}/buildings/${building.json().id}`, {
      occupantMaxTemperature: null,
    });
    expect(await limits()).toEqual({ min: 20, max: 22 });
    await t.call('PATCH', `/api/companies/${f.companyId}/buildings/${building.json().id}`, {
      occupantBand: null,
    });
    expect(await limits()).toEqual({ min: 19, max: 23 });
  });

  it('refuse a ceiling outside the company range and a leeway outside 0,5–10 K, naming the field', async () => {
    const building = await t.call('POST', `/api/companies/${f.companyId}/buildings`, {
      name: 'Turnhalle',
      state: 'BY',
      occupantMaxTemperature: 29,
    });
    expect(building.statusCode).toBe(400);
    expect(building.json().errors[0]).toMatchObject({
      field: 'body.occupantMaxTemperature',
      params: { min: 5, max: 28 },
    });
    const group = await t.call('POST', `/api/companies/${f.companyId}/groups`, {
      name: 'Flur',
      occupantBand: 12,
    });
    expect(group.statusCode).toBe(400);
    expect(JSON.stringify(group.json().errors)).toContain('occupantBand');
  });
});

describe('public heating view API', () => {
  // A Wednesday noon: reports, deliveries and an occupant's change are timed from this clock.
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  let t: TestApp;
  let f: RegistryFixture;
  const token = 'Tq3bU0mJ1c2Vx8sY4kLw7A';
  const url = `/api/public/heating-view/${token}`;
  const post = (setpoint: number) =>
    t.app.inject({ method: 'POST', url: `${url}/setpoint`, payload: { setpoint } });

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    await seedUnitWithCode(t, f, token);
  });
  afterAll(() => t.close());

  it('shows the room without login and exposes nothing beyond the page', async () => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(Object.keys(view).sort()).toEqual(Object.keys(PublicHeatingViewSchema.shape).sort());
    expect(view).toMatchObject({
      unitName: 'Raum 1',
      setpoint: 20,
      min: 18,
      max: 23,
      step: 0.5,
      paused: false,
      timeZone: 'Europe/Berlin',
    });
    expect(JSON.stringify(view)).not.toContain(f.unitId);
    expect(JSON.stringify(view)).not.toContain(f.companyId);
  });

  it("tells when a wall thermostat overrides the setpoint, from the devices' reported setpoint", async () => {
    // With no reported setpoint the page cannot state either way.
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      wallControlOverride: false,
      wallControlReported: false,
    });
    await t.database.db.insert(telemetry).values({
      devEui: DEV_EUI,
      deviceId: DEV_EUI,
      companyId: f.companyId,
      unitId: f.unitId,
      time: clock.now(),
      fCnt: 1,
      fPort: 1,
      roomTemperature: 19.5,
      setpointReported: 23,
    });
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      wallControlOverride: true,
      wallControlReported: true,
    });
  });

  it('says a new setpoint is on its way instead of calling the old reported value an override', async () => {
    const reportedAt = (ago: number) => new Date(clock.now().getTime() - ago);
    const report = (fCnt: number, at: Date, setpointReported: number) =>
      t.database.db.insert(telemetry).values({
        devEui: DEV_EUI,
        deviceId: DEV_EUI,
        companyId: f.companyId,
        unitId: f.unitId,
        time: at,
        fCnt,
        fPort: 1,
        setpointReported,
      });
    await t.database.db.delete(telemetry).where(eq(telemetry.devEui, DEV_EUI));
    await report(10, reportedAt(60_000), 18);
    const [downlink] = await t.database.db
      .insert(downlinks)
      .values({
        companyId: f.companyId,
        unitId: f.unitId,
        deviceId: DEV_EUI,
        devEui: DEV_EUI,
        setpoint: 20,
        fPort: 1,
        payload: '00',
        reason: 'qr_change',
        appliedAt: clock.now(),
      })
      .returning();
    // Queued: the valve still regulates to its old 18 °C, which is no override.
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      deliveryPending: true,
      wallControlOverride: false,
      setpointSource: expect.any(String),
    });
    // Delivered; the last report is from before the delivery: nothing to say about an override.
    await t.database.db
      .update(downlinks)
      .set({ state: 'acknowledged', updatedAt: reportedAt(30_000) })
      .where(eq(downlinks.id, downlink!.id));
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      deliveryPending: false,
      wallControlOverride: false,
    });
    // A report after the delivery with the value sent: no override; with another one: override.
    await report(11, reportedAt(10_000), 20);
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({
      wallControlOverride: false,
      wallControlReported: true,
    });
    await report(12, reportedAt(5_000), 23);
    expect((await t.app.inject({ method: 'GET', url })).json()).toMatchObject({ wallControlOverride: true });
    await t.database.db.delete(downlinks).where(eq(downlinks.id, downlink!.id));
    await t.database.db.delete(telemetry).where(eq(telemetry.devEui, DEV_EUI));
  });

  it('takes a change in 0.5 °C steps, logs it as qr_change by nobody, and says until when it holds', async () => {
    const res = await post(21.5);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ setpoint: 21.5, occupantChange: { setpoint: 21.5 } });
    const log = (await t.call('GET', `/api/companies/${f.companyId}/units/${f.unitId}/log`)).json();
    expect(log.results[0]).toMatchObject({
      kind: 'qr_change',
      oldSetpoint: 20,
      newSetpoint: 21.5,
      actor: null,
    });
  });

  it('refuses steps off the grid, values outside the limits, and changes while paused', async () => {
    const offGrid = await post(21.3);
    expect(offGrid.statusCode).toBe(400);
    expect(offGrid.json().detail).toBe('The temperature can only be changed in steps of 0.5 °C.');
    // The page translates by code, so every refusal carries one with its numbers.
    expect(offGrid.json()).toMatchObject({ code: 'setpoint_step', params: { step: 0.5 } });
    const tooWarm = await post(23.5);
    expect(tooWarm.statusCode).toBe(400);
    expect(tooWarm.json().detail).toBe('Choose a temperature between 18 °C and 23 °C.');
    expect(tooWarm.json()).toMatchObject({ code: 'setpoint_outside_limits', params: { min: 18, max: 23 } });
    await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/pause`);
    const paused = await post(21);
    expect(paused.statusCode).toBe(409);
    expect(paused.json().code).toBe('unit_paused');
    await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/resume`);
  });

  it('refuses a change while a closure holds the room, which could not take effect', async () => {
    // As the scheduler leaves a unit when a closure starts (decision 0051).
    await t.database.db.update(units).set({ setpointSource: 'closure' }).where(eq(units.id, f.unitId));
    const closed = await post(21);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('unit_closed');
    await t.database.db.update(units).set({ setpointSource: 'group_plan' }).where(eq(units.id, f.unitId));
    expect((await post(21)).statusCode).toBe(200);
  });

  it("ends an occupant's change after the company's limit in hours", async () => {
    const patch = await t.call('PATCH', `/api/companies/${f.companyId}/`, { occupant_change_max_hours: 2 });
    expect(patch.json().occupant_change_max_hours).toBe(2);
    const until = new Date((await post(22)).json().occupantChange.until).getTime();
    expect(until).toBe(clock.now().getTime() + 2 * 3_600_000);
  });

  it('answers 404 alike for tokens that never existed and for malformed ones', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/public/heating-view/AAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/public/heating-view/AAAAAAAAAAAAAAAAAAAAAA/setpoint',
          payload: { setpoint: 20 },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('public heating view rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
    const f = await seedRegistry(t.database.db);
    await seedUnitWithCode(t, f, 'rateLimitTokenAAAAAAAA');
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a client exceeds its changes per minute, forged X-Forwarded-For or not', async () => {
    // A forged X-Forwarded-For does not make a new client: no proxy is trusted by default.
    const change = (i = 0) =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/heating-view/rateLimitTokenAAAAAAAA/setpoint',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: { setpoint: 21 },
      });
    for (let i = 0; i < PUBLIC_RATE_LIMITS.change.perIp; i++) expect((await change(i)).statusCode).toBe(200);
    const limited = await change();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toContain('application/problem+json');
  });
});

describe('public heating view page', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'heizplan-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<title>SPA</title>');
    await writeFile(path.join(webDist, 'heating-view.html'), '<title>Heating view</title>');
    t = await buildTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('is served from its own entry, not the operator app', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/heating-view/Tq3bU0mJ1c2Vx8sY4kLw7A' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Heating view</title>');
    expect((await t.app.inject({ method: 'GET', url: '/units' })).body).toContain('<title>SPA</title>');
  });
});
