/**
 * Occupants' feedback (decision 0070): "Zu warm" / "Zu kalt" from the public room page, recorded
 * with the room's temperature, setpoint and trend at the service clock's instant; 404 for a bad
 * token, 429 past the change limits; staff reading a room's feedback of a window (strangers 404).
 */

import { can } from '@heizplan/contracts/permissions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { PERMISSION_MATRIX } from '../../auth/permission-matrix.ts';
import { occupantFeedback, telemetry, unitQrCodes, units } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { addMember } from '../me/account.fixtures.ts';
import { PUBLIC_RATE_LIMITS } from '../public-heating-view/public-heating-view.routes.ts';
import { trendKPerHour } from './occupant-feedback.service.ts';

const DEV_EUI = 'b000000000000f01';
const MINUTE = 60_000;

describe('the trend of a room', () => {
  const at = (minutes: number, roomTemperature: number) => ({
    time: new Date(Date.UTC(2026, 11, 2, 10, minutes)),
    roomTemperature,
  });

  it('is the least-squares slope in K/h, null with fewer than two readings or no time between them', () => {
    expect(trendKPerHour([])).toBeNull();
    expect(trendKPerHour([at(0, 20)])).toBeNull();
    expect(trendKPerHour([at(5, 20), at(5, 21)])).toBeNull();
    expect(trendKPerHour([at(0, 20), at(30, 20.4)])).toBe(0.8);
    expect(trendKPerHour([at(0, 21), at(20, 20.5), at(40, 20), at(60, 19.5)])).toBe(-1.5);
  });
});

describe('occupant feedback API', () => {
  // A Wednesday morning; the presses and the readings of the hour before are timed from here.
  const clock = testClock(testInstant('2026-12-02T09:15:00+01:00'));
  let t: TestApp;
  let f: RegistryFixture;
  const token = 'Fb7kP2qR9sT4vW6xY8zA1c';
  const url = `/api/public/heating-view/${token}/feedback`;
  const press = (feeling: string, headers: Record<string, string> = {}, to = url) =>
    t.app.inject({ method: 'POST', url: to, payload: { feeling }, headers });
  const read = (from: Date, to: Date, user = 'alice', unitId = f.unitId, companyId = f.companyId) =>
    t.call(
      'GET',
      `/api/companies/${companyId}/units/${unitId}/feedback?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
      undefined,
      user,
    );
  const ago = (ms: number) => new Date(clock.now().getTime() - ms);

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    await t.call('POST', `/api/companies/${f.companyId}/units/${f.unitId}/setpoint`, { setpoint: 21 });
    await t.database.db.insert(unitQrCodes).values({ unitId: f.unitId, companyId: f.companyId, token });
    await addMember(t, f.companyId, 'erika', 'ems');
    await addMember(t, f.companyId, 'hans', 'heating');
  });
  afterAll(() => t.close());

  it('records "too cold" with the room temperature, the setpoint and the trend of the last hour', async () => {
    // Readings of the last hour: 20.4 °C falling by 0.8 K/h; one from before the hour is left out.
    const reading = (fCnt: number, time: Date, roomTemperature: number) => ({
      devEui: DEV_EUI,
      deviceId: DEV_EUI,
      companyId: f.companyId,
      unitId: f.unitId,
      time,
      fCnt,
      fPort: 1,
      roomTemperature,
    });
    await t.database.db
      .insert(telemetry)
      .values([
        reading(1, ago(90 * MINUTE), 25),
        reading(2, ago(45 * MINUTE), 20.8),
        reading(3, ago(15 * MINUTE), 20.4),
      ]);
    await t.database.db.update(units).set({ roomTemperature: 20.4 }).where(eq(units.id, f.unitId));

    const res = await press('too_cold');
    expect(res.statusCode, res.body).toBe(204);
    const [row] = await t.database.db.select().from(occupantFeedback);
    expect(row).toMatchObject({
      companyId: f.companyId,
      unitId: f.unitId,
      feeling: 'too_cold',
      roomTemperature: 20.4,
      setpoint: 21,
      trend: -0.8,
    });
    expect(row?.at.toISOString()).toBe(clock.now().toISOString());
  });

  it('records a trend of null when the last hour has fewer than two readings', async () => {
    clock.advance(50 * MINUTE);
    expect((await press('too_warm')).statusCode).toBe(204);
    const rows = await t.database.db
      .select()
      .from(occupantFeedback)
      .where(eq(occupantFeedback.feeling, 'too_warm'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trend: null, roomTemperature: 20.4, setpoint: 21 });
  });

  it('answers 404 for an unknown or disabled token and 400 for another feeling', async () => {
    const unknown = await press('too_cold', {}, '/api/public/heating-view/AAAAAAAAAAAAAAAAAAAAAA/feedback');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect((await press('just_right')).statusCode).toBe(400);
  });

  it('shows staff the presses of a window with counts, newest first, to every role that reads rooms', async () => {
    const from = ago(24 * 3_600_000);
    const to = new Date(clock.now().getTime() + 1);
    for (const user of ['alice', 'erika', 'hans']) {
      const res = await read(from, to, user);
      expect(res.statusCode, `${user} ${res.body}`).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ timeZone: 'Europe/Berlin', counts: { tooWarm: 1, tooCold: 1 } });
      expect(body.results.map((r: { feeling: string }) => r.feeling)).toEqual(['too_warm', 'too_cold']);
      expect(body.results[1]).toMatchObject({ roomTemperature: 20.4, setpoint: 21, trend: -0.8 });
    }
    // The window is half-open: a press at `to` belongs to the next one.
    const before = (await read(from, ago(50 * MINUTE))).json();
    expect(before.counts).toEqual({ tooWarm: 0, tooCold: 0 });
  });

  it('answers a stranger 404, every role that may read rooms is let in, and refuses windows that are none', async () => {
    const from = ago(3_600_000);
    const to = clock.now();
    // Mallory is an admin of another company: this company's room does not exist for her.
    expect((await read(from, to, 'mallory')).statusCode).toBe(404);
    // Nor does her own company's room exist in this one.
    expect((await read(from, to, 'alice', f.otherUnitId)).statusCode).toBe(404);
    // The matrix gives it to whoever may read; no role lacks that, so no role gets a 403.
    expect(PERMISSION_MATRIX['GET /api/companies/{companyId}/units/{unitId}/feedback']).toBe('read');
    for (const role of ['admin', 'heating', 'ems'] as const) expect(can(role, 'read')).toBe(true);
    const backwards = await read(to, from);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ code: 'feedback_range_end_not_after_start' });
    const tooLong = await read(new Date(to.getTime() - 367 * 86_400_000), to);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'feedback_range_too_long', params: { days: 366 } });
  });

  it('is deleted with its room', async () => {
    const [other] = await t.database.db
      .insert(units)
      .values({ companyId: f.companyId, name: 'Raum 2' })
      .returning({ id: units.id });
    await t.database.db.insert(occupantFeedback).values({
      companyId: f.companyId,
      unitId: other!.id,
      at: clock.now(),
      feeling: 'too_warm',
    });
    await t.database.db.delete(units).where(eq(units.id, other!.id));
    expect(
      await t.database.db.select().from(occupantFeedback).where(eq(occupantFeedback.unitId, other!.id)),
    ).toEqual([]);
  });
});

describe('occupant feedback rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
    const f = await seedRegistry(t.database.db);
    await t.database.db
      .insert(unitQrCodes)
      .values({ unitId: f.unitId, companyId: f.companyId, token: 'feedbackLimitTokenAAAAA' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a client exceeds the change limits, as a setpoint change does', async () => {
    const press = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/heating-view/feedbackLimitTokenAAAAA/feedback',
        payload: { feeling: 'too_cold' },
      });
    for (let i = 0; i < PUBLIC_RATE_LIMITS.change.perIp; i++) expect((await press()).statusCode).toBe(204);
    const limited = await press();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toContain('application/problem+json');
  });
});
