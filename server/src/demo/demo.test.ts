import { and, count, eq, gte, max, min } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { findAccountByEmail } from '../auth/accounts.repository.ts';
import { verifyPassword } from '../auth/password.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  alerts,
  bookingFeeds,
  bookings,
  buildingOutdoorTemperatures,
  buildings,
  closures,
  closureUnits,
  companies,
  devices,
  gateways,
  heatingCircuitReadings,
  heatingCircuits,
  heatingCircuitUnits,
  heatingCircuitWrites,
  heatingLog,
  heatingPlans,
  telemetry,
  units,
  unitWarmUpModels,
} from '../db/schema.ts';
import { learnWarmUpModels } from '../heating/warm-up-learning.ts';
import { evaluateAll } from '../modules/alerts/alert-evaluation.repository.ts';
import { HeatingCircuitsService } from '../modules/heating-circuits/heating-circuits.service.ts';
import { ensureDemo, runDemoHeatPump } from './demo.ts';
import { DEMO_BOOKING_FEED, DEMO_BOOKING_UNIT } from './demo-bookings.ts';
import {
  DEMO_DEVICES,
  DEMO_DRAINING,
  DEMO_LOGIN,
  DEMO_SILENT,
  DEMO_UNITS,
  demoChristmasClosure,
} from './demo-data.ts';
import { DEMO_HISTORY_DAYS, demoSetpointAt } from './demo-history.ts';

const config = (demo?: string) =>
  loadConfig({ LOG_LEVEL: 'silent', ...(demo === undefined ? {} : { DEMO: demo }) });
const now = new Date('2026-11-22T12:00:00Z');

describe('demo plan', () => {
  it('heats offices from 06:30 on weekdays and 08:00 at weekends, Berlin time, and sets back at 22:00', () => {
    expect(demoSetpointAt(new Date('2026-11-23T05:29:00Z'))).toBe(17); // Mon 06:29 CET
    expect(demoSetpointAt(new Date('2026-11-23T05:30:00Z'))).toBe(21); // Mon 06:30 CET
    expect(demoSetpointAt(new Date('2026-11-22T07:00:00Z'))).toBe(20); // Sun 08:00 CET
    expect(demoSetpointAt(new Date('2026-11-22T21:00:00Z'))).toBe(17); // Sun 22:00 CET
  });
});

/**
 * One demo for the tests that read it: building it costs 8 s alone and over 20 s under load. The
 * tests after the first add to it (alerts, learned models) without touching what the others read.
 */
describe('demo building', () => {
  let database: Database;
  let demo: Awaited<ReturnType<typeof ensureDemo>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    demo = await ensureDemo(database.db, config(), now);
  });
  afterAll(() => database.close());

  it('is created on an empty database with a login, a planned group in a building, devices, a gateway, a Christmas closure and two weeks of history', async () => {
    expect(demo?.created).toBe(true);
    const db = database.db;
    const companyId = demo?.companyId as string;
    const account = await findAccountByEmail(db, DEMO_LOGIN.email);
    expect(account?.emailVerified).toBe(true);
    expect(await verifyPassword(DEMO_LOGIN.password, account?.passwordHash ?? '')).toBe(true);
    const unitRows = await db.select().from(units).where(eq(units.companyId, companyId));
    expect(unitRows.map((u) => u.name).sort()).toEqual([...DEMO_UNITS].sort());
    expect(unitRows.every((u) => u.setpoint !== null && u.nextChangeAt !== null)).toBe(true);
    expect(await db.select().from(heatingPlans).where(eq(heatingPlans.companyId, companyId))).toHaveLength(1);
    const models = (await db.select().from(devices).where(eq(devices.companyId, companyId))).map(
      (d) => d.model,
    );
    expect(new Set(models)).toEqual(
      new Set(['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'elsys-ers']),
    );
    expect(await db.select().from(gateways).where(eq(gateways.companyId, companyId))).toHaveLength(1);
    // The building's heat pump circuit serves every room, in shadow mode: shown, nothing sent.
    const [circuit] = await db.select().from(heatingCircuits).where(eq(heatingCircuits.companyId, companyId));
    expect(circuit).toMatchObject({ mode: 'shadow', generatorType: 'heat_pump_air' });
    const served = await db
      .select()
      .from(heatingCircuitUnits)
      .where(eq(heatingCircuitUnits.companyId, companyId));
    expect(served).toHaveLength(DEMO_UNITS.length);
    const [span] = await db
      .select({ n: count(), first: min(telemetry.time), last: max(telemetry.time) })
      .from(telemetry)
      .where(eq(telemetry.companyId, companyId));
    // Every device reported every quarter hour, except the valve silent for its last two days.
    expect(Number(span?.n)).toBe(
      DEMO_DEVICES.length * DEMO_HISTORY_DAYS * 96 - DEMO_SILENT.silentForHours * 4,
    );
    expect(now.getTime() - new Date(span?.first ?? now).getTime()).toBeGreaterThan(
      (DEMO_HISTORY_DAYS - 0.1) * 86_400_000,
    );
    const [log] = await db
      .select({ n: count() })
      .from(heatingLog)
      .where(and(eq(heatingLog.companyId, companyId), eq(heatingLog.kind, 'group_plan')));
    expect(Number(log?.n)).toBeGreaterThanOrEqual(DEMO_UNITS.length * DEMO_HISTORY_DAYS * 2);

    // The coming Christmas break in frost protection, the reception excepted.
    const [closure] = await db.select().from(closures).where(eq(closures.companyId, companyId));
    expect(closure).toMatchObject({
      name: 'Weihnachtsferien',
      mode: 'frost',
      scope: 'company',
      start: new Date('2026-12-23T17:00:00Z'),
      end: new Date('2027-01-04T04:00:00Z'),
    });
    const excepted = await db
      .select({ name: units.name, exception: closureUnits.exception })
      .from(closureUnits)
      .innerJoin(units, eq(units.id, closureUnits.unitId))
      .where(eq(closureUnits.closureId, closure?.id as string));
    expect(excepted).toEqual([{ name: 'Empfang', exception: true }]);

    // Every office in its Munich building on its floor, with Bavarian holidays in economy mode.
    const [building] = await db.select().from(buildings).where(eq(buildings.companyId, companyId));
    expect(building).toMatchObject({ state: 'BY', publicHolidays: 'closure', holidayMode: 'economy' });
    expect(
      unitRows.every((u) => u.buildingId === building?.id && building?.floors.includes(u.floor ?? '')),
    ).toBe(true);
    expect(unitRows.find((u) => u.name === 'Empfang')?.floor).toBe('EG');

    // The meeting room's booking calendar on the app's own origin, stored as fetched now.
    const [feed] = await db.select().from(bookingFeeds).where(eq(bookingFeeds.companyId, companyId));
    expect(feed).toMatchObject({
      name: DEMO_BOOKING_FEED.name,
      unitId: unitRows.find((u) => u.name === DEMO_UNITS[DEMO_BOOKING_UNIT])?.id,
      url: `http://localhost:3000${DEMO_BOOKING_FEED.path}`,
      lastSuccessAt: now,
      lastError: null,
    });
    const booked = await db
      .select()
      .from(bookings)
      .where(eq(bookings.feedId, feed?.id as string));
    expect(feed?.bookingCount).toBe(booked.filter((b) => b.heats).length);
    // Monday 23 November 14:00 Berlin; too short and "nicht heizen" are kept but do not heat.
    expect(booked.find((b) => b.title === 'Kundentermin Stadtwerke')).toMatchObject({
      start: new Date('2026-11-23T13:00:00Z'),
      heats: true,
    });
    expect(booked.find((b) => b.title === 'Kurze Abstimmung')?.heats).toBe(false);
    expect(booked.find((b) => b.title === 'Grundreinigung – nicht heizen')?.heats).toBe(false);
    // The weekly jour fixe: Tuesday 17 November (within the 8 days back) and every Tuesday after.
    const jourFixe = booked.filter((b) => b.title === 'Jour fixe Haustechnik').map((b) => b.start);
    expect(jourFixe[0]).toEqual(new Date('2026-11-17T08:00:00Z'));
    expect(jourFixe.length).toBeGreaterThan(50);
  });

  it('takes the running Christmas break in early January, the coming one otherwise', () => {
    expect(demoChristmasClosure(new Date('2027-01-02T12:00:00Z')).start).toEqual(
      new Date('2026-12-23T17:00:00Z'),
    );
    expect(demoChristmasClosure(new Date('2027-01-05T12:00:00Z')).start).toEqual(
      new Date('2027-12-23T17:00:00Z'),
    );
  });

  it('shows live alerts at its first evaluation: a valve silent for two days and a draining battery', async () => {
    const db = database.db;
    await evaluateAll(db, now);
    const open = await db
      .select()
      .from(alerts)
      .where(eq(alerts.companyId, demo?.companyId as string));
    expect(open.map((a) => `${a.kind}:${a.subjectId}`).sort()).toEqual(
      [`device_offline:${DEMO_SILENT.devEui}`, `low_battery:${DEMO_DRAINING.devEui}`].sort(),
    );
    const battery = open.find((a) => a.kind === 'low_battery');
    expect(battery?.details).toMatchObject({ battery: DEMO_DRAINING.to, unit: '%' });
    // 60 % → 16 % in 14 days is about 3 % a day: some five days are left.
    const daysLeft = (battery?.details as { daysLeft?: number } | undefined)?.daysLeft;
    expect(daysLeft).toBeGreaterThanOrEqual(4);
    expect(daysLeft).toBeLessThanOrEqual(6);
    const [silent] = await db.select().from(devices).where(eq(devices.id, DEMO_SILENT.devEui));
    expect(now.getTime() - (silent?.lastSeen?.getTime() ?? 0)).toBeGreaterThanOrEqual(48 * 3_600_000);
  });

  it("learns each room's warm-up from its history in the replayed winter its building's weather shows", async () => {
    const db = database.db;
    const [building] = await db
      .select()
      .from(buildings)
      .where(eq(buildings.companyId, demo?.companyId as string));
    const hours = await db
      .select()
      .from(buildingOutdoorTemperatures)
      .where(
        and(
          eq(buildingOutdoorTemperatures.buildingId, building?.id as string),
          // The hours before are the seasons' (demo-season.test.ts).
          gte(buildingOutdoorTemperatures.at, new Date(now.getTime() - DEMO_HISTORY_DAYS * 86_400_000)),
        ),
      );
    // Every hour of the 14 days, as observed, from the recording the rooms were simulated in.
    expect(hours).toHaveLength(DEMO_HISTORY_DAYS * 24 + 1);
    expect(hours.every((h) => h.kind === 'observed')).toBe(true);
    const sample = hours[100] as (typeof hours)[number];
    expect(sample.temperature).toBeCloseTo(replayedOutdoorAt(sample.at.getTime()), 1);

    expect(await learnWarmUpModels(db, now)).toBe(DEMO_UNITS.length);
    const models = await db.select().from(unitWarmUpModels);
    // Every room but the one whose valve gets no heat (it never warms up, so there is nothing to learn).
    expect(models.filter((m) => m.learned)).toHaveLength(DEMO_UNITS.length - 1);
    const sessions = models.flatMap((m) => m.sessions);
    expect(sessions.length).toBeGreaterThanOrEqual(3 * DEMO_UNITS.length);
    expect(sessions.every((s) => s.outdoor !== null)).toBe(true);
  });

  it('connects its heat pump: the circuit writes what its rooms ask to the Modbus stand-in, and a restart keeps a mode the user chose', async () => {
    const db = database.db;
    const companyId = demo?.companyId as string;
    const circuitOf = async () =>
      (await db.select().from(heatingCircuits).where(eq(heatingCircuits.companyId, companyId)))[0];
    const first = await runDemoHeatPump(db, companyId, () => now);
    try {
      const circuit = await circuitOf();
      expect(circuit?.mode).toBe('on');
      expect(circuit?.output).toMatchObject({ kind: 'modbus', host: '127.0.0.1', port: first.port });

      const service = new HeatingCircuitsService({
        db,
        now: () => now,
        cipher: () => Promise.reject(new Error('the demo circuit has no MQTT output')),
      });
      try {
        expect(await service.stepDue()).toBe(1);
      } finally {
        await service.close();
      }
      const [reading] = await db
        .select()
        .from(heatingCircuitReadings)
        .where(eq(heatingCircuitReadings.circuitId, circuit?.id as string));
      const [write] = await db
        .select()
        .from(heatingCircuitWrites)
        .where(eq(heatingCircuitWrites.circuitId, circuit?.id as string));
      expect(write).toMatchObject({ ok: true, enabled: reading?.enabled });
      // The heat pump holds what the rooms asked of it.
      const held = first.state();
      expect(held.released).toBe(reading?.enabled);
      if (reading?.enabled) expect(held.supplySetpoint).toBeCloseTo(reading.supplySetpoint as number, 1);
    } finally {
      await first.close();
    }

    // A user sets the circuit back to shadow; the next start moves the port and keeps the mode.
    await db.update(heatingCircuits).set({ mode: 'shadow' }).where(eq(heatingCircuits.companyId, companyId));
    const second = await runDemoHeatPump(db, companyId, () => now);
    await second.close();
    expect(await circuitOf()).toMatchObject({ mode: 'shadow', output: { port: second.port } });
  });

  it('is created once: a second start finds it', async () => {
    const second = await ensureDemo(database.db, config(), now);
    expect(second).toEqual({ companyId: demo?.companyId, created: false });
    expect(await database.db.select().from(companies)).toHaveLength(1);
  });
});

describe('demo building on a database of its own', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  // It builds a whole demo at the end, as the shared `beforeAll` above does: the hook's 60 s.
  it('stays away with DEMO=0, and from a database that already has companies unless DEMO=1', {
    timeout: 60_000,
  }, async () => {
    expect(await ensureDemo(database.db, config('0'), now)).toBeUndefined();
    await database.db.insert(companies).values({ name: 'Stadtwerke' });
    expect(await ensureDemo(database.db, config(), now)).toBeUndefined();
    expect((await ensureDemo(database.db, config('1'), now))?.created).toBe(true);
  });
});
