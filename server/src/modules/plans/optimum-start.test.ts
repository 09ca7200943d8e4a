import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstants } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { bookingFeeds, bookings, heatingLog, telemetry, unitWarmUpModels } from '../../db/schema.ts';
import { learnWarmUpModels } from '../../heating/warm-up-learning.ts';
import { saveOutdoorHours } from '../../weather/outdoor-store.repository.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

// A Wednesday mid-morning, after the day's pre-heat; history, learning and previews read this clock.
// The suite runs the file again at other instants (vitest.config.ts, `server@instants`).
const instants = testInstants('2026-12-02T10:00:00+01:00');
const clock = testClock(instants[0] as string);
const HOUR = 3_600_000;
const MINUTE = 60_000;
const days = [1, 2, 3, 4, 5, 6, 7];
/** Every day 21 °C from 07:00 and 16 °C from 16:00 (Europe/Berlin). */
const schoolDay = {
  name: 'Unterricht',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: days.flatMap((day) => [
    { day, hour: 7, minute: 0, temperature: 21, ignoreWallControl: false },
    { day, hour: 16, minute: 0, temperature: 16, ignoreWallControl: false },
  ]),
};

/**
 * Six days of a room that heats like clockwork: set back to 16 °C at 15:00 UTC, cooling 1 K/h
 * down to it; comfort 21 °C at 06:00 UTC, then 20 minutes of dead time and 2 K/h up to 21 °C.
 */
async function seedHistory(
  t: TestApp,
  companyId: string,
  unitId: string,
  now: number,
  devEui = '70b3d52dd3000001',
) {
  const first = Math.floor(now / (24 * HOUR)) * 24 * HOUR - 6 * 24 * HOUR;
  const log: (typeof heatingLog.$inferInsert)[] = [];
  const readings: (typeof telemetry.$inferInsert)[] = [];
  for (let day = 0; day < 6; day++) {
    const comfortAt = first + day * 24 * HOUR + 6 * HOUR;
    const setbackAt = first + day * 24 * HOUR + 15 * HOUR;
    log.push(
      { companyId, unitId, kind: 'regular_plan', oldSetpoint: 16, newSetpoint: 21, at: new Date(comfortAt) },
      { companyId, unitId, kind: 'regular_plan', oldSetpoint: 21, newSetpoint: 16, at: new Date(setbackAt) },
    );
  }
  let fCnt = 0;
  for (let at = first; at < now - HOUR; at += 10 * MINUTE) {
    const hourOfDay = (at % (24 * HOUR)) / HOUR;
    let room = 16;
    if (hourOfDay >= 6 && hourOfDay < 15) {
      const rising = Math.max(0, hourOfDay - 6 - 1 / 3);
      room = Math.min(21, 16 + 2 * rising);
    } else if (hourOfDay >= 15) {
      room = Math.max(16, 21 - (hourOfDay - 15));
    }
    readings.push({
      devEui,
      time: new Date(at),
      fCnt: fCnt++,
      companyId,
      unitId,
      fPort: 1,
      roomTemperature: Math.round(room * 100) / 100,
    });
  }
  await t.database.db.insert(heatingLog).values(log);
  for (let i = 0; i < readings.length; i += 500) {
    await t.database.db.insert(telemetry).values(readings.slice(i, i + 500));
  }
}

describe.each(instants)('optimum start and stop, from %s', (start) => {
  beforeAll(() => clock.set(start));
  let t: TestApp;
  let companyId: string;
  let c: string;
  let unitId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId } = await seedCompanies(t.database.db, { minTemperature: 5, maxTemperature: 25 }));
    c = `/api/companies/${companyId}`;
    unitId = (await call('POST', `${c}/units`, { name: 'Klasse 5a' })).json().id;
    await call('POST', `${c}/units/${unitId}/plans`, schoolDay);
    await seedHistory(t, companyId, unitId, clock.now().getTime());
  });
  afterAll(() => t.close());

  it('learns dead time, warm-up rate and cooling from the room history, and judges the mornings', async () => {
    expect(await learnWarmUpModels(t.database.db, clock.now())).toBe(1);
    const [model] = await t.database.db
      .select()
      .from(unitWarmUpModels)
      .where(eq(unitWarmUpModels.unitId, unitId));
    expect(model).toMatchObject({ learned: true, companyId });
    // Dead time ends when the room has risen 0.2 K: 20 minutes of nothing, then 6 at 2 K/h.
    expect(model?.deadtimeMinutes).toBeGreaterThan(24);
    expect(model?.deadtimeMinutes).toBeLessThan(28);
    expect(model?.rateAt0).toBeCloseTo(2, 1);
    expect(model?.coolRate).toBeCloseTo(1, 1);
    expect(model?.comfortHoldMinutes).toBe(30);
    expect(model?.sessions.length).toBeGreaterThanOrEqual(5);
    // Switched exactly at the comfort time, the room was never warm then.
    expect(model?.mornings.length).toBeGreaterThanOrEqual(5);
    expect(model?.mornings.filter((m) => m.hit || m.room !== 16)).toEqual([]);
    // Learned within the hour: nothing is due again.
    expect(await learnWarmUpModels(t.database.db, clock.now())).toBe(0);

    const warmUp = await call('GET', `${c}/units/${unitId}/warm-up`, undefined, 'alice');
    expect(warmUp.statusCode).toBe(200);
    expect(warmUp.json()).toMatchObject({
      mode: 'shadow',
      companyMode: 'shadow',
      optimumStart: true,
      model: { learned: true, coolRate: model?.coolRate, confidence: model?.confidence },
    });
    expect(warmUp.json().sessions).toHaveLength(model?.sessions.length ?? -1);
    expect(warmUp.json().sessions[0]).toMatchObject({ lift: 5, outdoor: null });
    expect((await call('GET', `${c}/units/${unitId}/warm-up`, undefined, 'mallory')).statusCode).toBe(404);
  });

  it('in shadow mode explains the pre-heat in the preview but sends the plan as it is', async () => {
    const preview = (await call('GET', `${c}/units/${unitId}/preview?days=2`)).json();
    expect(preview.changes.map((s: { source: string }) => s.source)).not.toContain('optimum_start');
    // Tomorrow's (or today's, before it began): run between 05:00 and 07:00, today's pre-heat is
    // under way and the preview shows it from now on.
    const start = preview.optimum.find(
      (o: { kind: string; start: string }) =>
        o.kind === 'optimum_start' && Date.parse(o.start) > clock.now().getTime(),
    );
    // Lift 5 K (no room reading: the set-back) at 2 K/h after 26 min dead time: 176 minutes.
    expect(start).toMatchObject({ from: 16, to: 21, rate: 2, learned: true, applied: false, outdoor: null });
    expect(Date.parse(start.switchAt) - Date.parse(start.start)).toBeGreaterThanOrEqual(174 * MINUTE);
    expect(Date.parse(start.switchAt) - Date.parse(start.start)).toBeLessThanOrEqual(178 * MINUTE);
    const stop = preview.optimum.find((o: { kind: string }) => o.kind === 'optimum_stop');
    // 0.5 K at 1 K/h: the room held for 30 minutes, so comfort ends 30 minutes early.
    expect(Date.parse(stop.switchAt) - Date.parse(stop.start)).toBe(30 * MINUTE);
    expect((await call('GET', `${c}/units/${unitId}`)).json().setpointSource).toBe('regular_plan');
  });

  it('when switched on, sends the comfort setpoint at the learned start; a unit may opt out', async () => {
    const patched = await call('PATCH', `${c}/`, { optimum_start: 'on', optimum_max_lead_minutes: 120 });
    expect(patched.json()).toMatchObject({ optimum_start: 'on', optimum_max_lead_minutes: 120 });
    const preview = (await call('GET', `${c}/units/${unitId}/preview?days=2`)).json();
    // Tomorrow's (or today's, before it began): run between 05:00 and 07:00, today's pre-heat is
    // under way and the preview shows it from now on.
    const start = preview.optimum.find(
      (o: { kind: string; start: string }) =>
        o.kind === 'optimum_start' && Date.parse(o.start) > clock.now().getTime(),
    );
    expect(start.applied).toBe(true);
    // The company's longest pre-heat caps the lead.
    expect(Date.parse(start.switchAt) - Date.parse(start.start)).toBe(120 * MINUTE);
    const steps = preview.changes.filter((s: { source: string }) => s.source === 'optimum_start');
    expect(steps.map((s: { at: string }) => s.at)).toContain(start.start);

    const optedOut = await call('PATCH', `${c}/units/${unitId}`, { optimumStart: false });
    expect(optedOut.json().optimumStart).toBe(false);
    const plain = (await call('GET', `${c}/units/${unitId}/preview?days=2`)).json();
    expect((await call('GET', `${c}/units/${unitId}/warm-up`)).json()).toMatchObject({
      mode: 'off',
      companyMode: 'on',
      optimumStart: false,
    });
    expect(plain.optimum).toEqual([]);
    expect(plain.changes.map((s: { source: string }) => s.source)).not.toContain('optimum_start');
  });

  it("tells a building's caretaker when the plant must run tomorrow: the earliest pre-heat", async () => {
    const building = (await call('POST', `${c}/buildings`, { name: 'Schule', state: 'BE' })).json();
    expect(building.heatingStartTomorrow).toBeNull();
    await call('PATCH', `${c}/units/${unitId}`, { buildingId: building.id, optimumStart: true });
    const listed = (await call('GET', `${c}/buildings`)).json().results[0];
    const comfort = DateTime.fromJSDate(clock.now(), { zone: 'Europe/Berlin' })
      .plus({ days: 1 })
      .set({ hour: 7, minute: 0, second: 0, millisecond: 0 });
    // Optimum start is on with a longest pre-heat of 120 minutes: 05:00.
    expect(listed.heatingStartTomorrow).toBe(comfort.minus({ minutes: 120 }).toUTC().toISO());
    await call('PATCH', `${c}/`, { optimum_start: 'shadow' });
    const plain = (await call('GET', `${c}/buildings/${building.id}`)).json();
    expect(plain.heatingStartTomorrow).toBe(comfort.toUTC().toISO());
  });

  it("heats for a booking from the learned lead instead of its calendar's fixed 30 minutes", async () => {
    await call('PATCH', `${c}/`, { optimum_start: 'on' });
    const evening = DateTime.fromJSDate(clock.now(), { zone: 'Europe/Berlin' })
      .plus({ days: 1 })
      .set({ hour: 19, minute: 0, second: 0, millisecond: 0 });
    const [feed] = await t.database.db
      .insert(bookingFeeds)
      .values({
        companyId,
        unitId,
        name: 'Raumbuchung',
        kind: 'ics',
        url: 'https://calendar.example/room.ics',
        preheatMinutes: 30,
        temperature: 22,
        lastSuccessAt: clock.now(),
      })
      .returning({ id: bookingFeeds.id });
    await t.database.db.insert(bookings).values({
      id: randomUUID(),
      feedId: feed?.id as string,
      uid: 'elternabend@example',
      title: 'Elternabend',
      start: evening.toJSDate(),
      end: evening.plus({ hours: 2 }).toJSDate(),
      heats: true,
    });
    const preview = (await call('GET', `${c}/units/${unitId}/preview?days=3`)).json();
    const booking = preview.changes.find((s: { source: string }) => s.source === 'booking');
    // 4 K to lift (no reading: 4 K below the booking's 22 °C) at 2 K/h after the dead time is
    // more than the company's longest pre-heat: 120 minutes, not the calendar's 30.
    expect(booking.at).toBe(evening.minus({ minutes: 120 }).toUTC().toISO());
    await call('PATCH', `${c}/`, { optimum_start: 'shadow' });
    const fixed = (await call('GET', `${c}/units/${unitId}/preview?days=3`)).json();
    expect(fixed.changes.find((s: { source: string }) => s.source === 'booking').at).toBe(
      evening.minus({ minutes: 30 }).toUTC().toISO(),
    );
  });

  it("learns against its building's outdoor temperature and explains the pre-heat with the forecast", async () => {
    const building = (
      await call('POST', `${c}/buildings`, {
        name: 'Neubau',
        state: 'BE',
        latitude: 52.52,
        longitude: 13.405,
      })
    ).json();
    const unit = (await call('POST', `${c}/units`, { name: 'Klasse 6b', buildingId: building.id })).json().id;
    await call('POST', `${c}/units/${unit}/plans`, schoolDay);
    const now = clock.now().getTime();
    await seedHistory(t, companyId, unit, now, '70b3d52dd3000002');
    // −4 °C until now, then a forecast of −1 °C: what the sync would have stored.
    const first = Math.floor(now / HOUR) * HOUR - 8 * 24 * HOUR;
    const hours = Array.from({ length: 18 * 24 }, (_, i) => first + i * HOUR).map((at) =>
      at <= now
        ? { at: new Date(at), temperature: -4, kind: 'observed' as const }
        : { at: new Date(at), temperature: -1, kind: 'forecast' as const },
    );
    await saveOutdoorHours(t.database.db, { id: building.id, companyId }, 'brightsky', hours);

    // The first unit learned within the hour; only the new one is due.
    expect(await learnWarmUpModels(t.database.db, clock.now())).toBe(1);
    const warmUp = (await call('GET', `${c}/units/${unit}/warm-up`)).json();
    expect(warmUp.sessions.length).toBeGreaterThanOrEqual(5);
    expect(warmUp.sessions.map((s: { outdoor: number }) => s.outdoor)).toEqual(warmUp.sessions.map(() => -4));
    const preview = (await call('GET', `${c}/units/${unit}/preview?days=2`)).json();
    const starts = preview.optimum.filter((o: { kind: string }) => o.kind === 'optimum_start');
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.map((o: { outdoor: number }) => o.outdoor)).toEqual(starts.map(() => -1));
    const listed = (await call('GET', `${c}/buildings/${building.id}`)).json();
    expect(listed.outdoor).toMatchObject({ temperature: -4, kind: 'observed', provider: 'brightsky' });
  });

  it('refuses a longest pre-heat outside 15–360 minutes and an unknown mode', async () => {
    for (const body of [
      { optimum_max_lead_minutes: 10 },
      { optimum_max_lead_minutes: 400 },
      { optimum_start: 'auto' },
    ]) {
      const res = await call('PATCH', `${c}/`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe(`body.${Object.keys(body)[0]}`);
    }
  });
});
