/**
 * The demo's heating seasons (demo-season.ts): a day of quarter-hour samples summed as
 * `rollUpDays` sums 15-minute rows, which days the seasons cover, and the demo created on a test
 * database with daily rollups of this and last season before its raw history, the three faulty
 * rooms showing their losses.
 */
import { and, asc, eq, gte, lt, min } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import {
  buildingOutdoorTemperatures,
  devices,
  telemetry,
  unitRollups15m,
  unitRollupsDaily,
} from '../db/schema.ts';
import { rollUpCompany } from '../modules/reports/rollups.repository.ts';
import { ensureDemo } from './demo.ts';
import { DEMO_SILENT, DEMO_UNITS } from './demo-data.ts';
import { demoSetpointAt } from './demo-history.ts';
import { dayQuarters, demoSeasonDays, type QuarterSample, rollUpDaySamples } from './demo-season.ts';

const quarter = (over: Partial<QuarterSample>): QuarterSample => ({
  reading: true,
  room: 21,
  valve: 20,
  setpoint: 21,
  windowMinutes: 0,
  outdoor: 2,
  ...over,
});

describe('a demo day from its quarter hours', () => {
  it('counts minutes and means as rollUpDays does from 15-minute rows', () => {
    const day = rollUpDaySamples([
      // Setback, cooled below the floor, valve shut, a carried reading.
      quarter({ setpoint: 17, room: 18, valve: 0, reading: false, outdoor: 0 }),
      // Setback, still warm: neither occupied nor setback.
      quarter({ setpoint: 17, room: 19.5, valve: 5, outdoor: 0 }),
      // Occupied: category I, heating, window open 10 minutes.
      quarter({ setpoint: 21, room: 21, valve: 30, windowMinutes: 10, outdoor: 1 }),
      // Occupied, exactly 0.5 K below (not below comfort), category II, window open, valve shut.
      quarter({ setpoint: 21, room: 20.5, valve: 0, windowMinutes: 15, outdoor: 1 }),
      // Occupied, below comfort, category III.
      quarter({ setpoint: 20, room: 19.4, valve: 100, outdoor: null }),
      // Occupied, below comfort and below every category.
      quarter({ setpoint: 21, room: 18, valve: 100, outdoor: null }),
      // Stuck open: ≥ 95 % with the room more than 1 K above the (setback) setpoint; not setback.
      quarter({ setpoint: 17, room: 19, valve: 95, outdoor: 3 }),
      // No setpoint yet and a sensor-only room: counts in no minutes, in no valve or setpoint mean.
      quarter({ setpoint: null, room: null, valve: null, reading: false, outdoor: 3 }),
    ]);
    expect(day).toEqual({
      buckets: 8,
      readingBuckets: 6,
      roomMin: 18,
      roomMax: 21,
      roomMean: (18 + 19.5 + 21 + 20.5 + 19.4 + 18 + 19) / 7,
      valveMean: (0 + 5 + 30 + 0 + 100 + 100 + 95) / 7,
      setpointMean: (17 + 17 + 21 + 21 + 20 + 21 + 17) / 7,
      occupiedSetpointMean: (21 + 21 + 20 + 21) / 4,
      outdoorMean: (0 + 0 + 1 + 1 + 3 + 3) / 6,
      heatingMinutes: 4 * 15,
      windowMinutes: 25,
      windowHeatingMinutes: 10,
      occupiedMinutes: 4 * 15,
      belowComfortMinutes: 2 * 15,
      categoryIMinutes: 15,
      categoryIIMinutes: 15,
      categoryIIIMinutes: 15,
      setbackMinutes: 15,
      stuckOpenMinutes: 15,
    });
  });

  it('has no means on a day without values', () => {
    expect(rollUpDaySamples([])).toMatchObject({
      buckets: 0,
      roomMean: null,
      valveMean: null,
      outdoorMean: null,
    });
  });
});

describe('demo season days', () => {
  it('covers this season up to the day before the raw history and the whole season before', () => {
    // History from Sunday 8 November 2026 13:00 Berlin.
    expect(demoSeasonDays(new Date('2026-11-22T12:00:00Z'))).toEqual([
      { first: '2025-10-01', last: '2026-04-30' },
      { first: '2026-10-01', last: '2026-11-07' },
    ]);
    expect(demoSeasonDays(new Date('2027-02-10T12:00:00Z'))).toEqual([
      { first: '2025-10-01', last: '2026-04-30' },
      { first: '2026-10-01', last: '2027-01-26' },
    ]);
  });

  it('takes the last season from May to September, and leaves out one with no day before the history', () => {
    expect(demoSeasonDays(new Date('2026-07-01T12:00:00Z'))).toEqual([
      { first: '2024-10-01', last: '2025-04-30' },
      { first: '2025-10-01', last: '2026-04-30' },
    ]);
    // 10 May: the history reaches back into April, so April's last days are its own.
    expect(demoSeasonDays(new Date('2026-05-10T12:00:00Z'))[1]).toEqual({
      first: '2025-10-01',
      last: '2026-04-25',
    });
    expect(demoSeasonDays(new Date('2026-10-05T12:00:00Z'))).toEqual([
      { first: '2025-10-01', last: '2026-04-30' },
    ]);
  });
});

describe('demo season quarters', () => {
  it("follow the demo plan's setpoint and the stored outdoor hour, also on the days the clocks change", () => {
    for (const date of ['2025-10-26', '2025-11-03', '2026-03-29', '2026-03-30']) {
      const quarters = dayQuarters(DateTime.fromISO(date, { zone: 'Europe/Berlin' }));
      expect(quarters).toHaveLength(date === '2025-10-26' ? 100 : date === '2026-03-29' ? 92 : 96);
      for (const q of quarters) {
        expect(q.setpoint).toBe(demoSetpointAt(new Date(q.bucket)));
        const hour = Math.floor(q.bucket / 3_600_000) * 3_600_000;
        expect(q.outdoor).toBe(Math.round(replayedOutdoorAt(hour) * 10) / 10);
      }
    }
  });
});

describe('demo seasons on the database', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  let database: Database;
  let companyId: string;
  let rows: (typeof unitRollupsDaily.$inferSelect)[];
  const unitOf = async (devEui: string) =>
    (await database.db.select().from(devices).where(eq(devices.id, devEui)))[0]?.unitId as string;
  const ofUnit = (unitId: string) => rows.filter((r) => r.unitId === unitId);
  const sum = (list: typeof rows, pick: (r: (typeof rows)[number]) => number) =>
    list.reduce((total, r) => total + pick(r), 0);

  beforeAll(async () => {
    database = await createTestDatabase();
    const demo = await ensureDemo(database.db, loadConfig({ LOG_LEVEL: 'silent' }), now);
    companyId = demo?.companyId as string;
    rows = await database.db
      .select()
      .from(unitRollupsDaily)
      .where(eq(unitRollupsDaily.companyId, companyId))
      .orderBy(asc(unitRollupsDaily.day));
  }, 120_000);
  afterAll(() => database.close());

  it('has a day for every room from 1 October of this season and of the last, none in the raw history', async () => {
    const days = new Set(rows.map((r) => r.day));
    expect(days.has('2025-10-01')).toBe(true);
    expect(days.has('2026-04-30')).toBe(true);
    expect(days.has('2026-05-01')).toBe(false);
    expect(days.has('2026-10-01')).toBe(true);
    // 212 days of last season and 38 of this one, each for all eight rooms.
    expect(days.size).toBe(212 + 38);
    expect(rows).toHaveLength(DEMO_UNITS.length * days.size);
    // A whole day has 96 quarter hours, the days the clocks change 100 and 92.
    expect(rows.find((r) => r.day === '2025-10-26')?.buckets).toBe(100);
    expect(rows.find((r) => r.day === '2026-03-29')?.buckets).toBe(92);
    expect(rows.find((r) => r.day === '2026-11-02')?.buckets).toBe(96);

    const [first] = await database.db
      .select({ at: min(telemetry.time) })
      .from(telemetry)
      .where(eq(telemetry.companyId, companyId));
    const historyDay = DateTime.fromJSDate(first?.at as Date, {
      zone: 'Europe/Berlin',
    }).toISODate() as string;
    expect(rows.every((r) => r.day < historyDay)).toBe(true);
  });

  it('has outdoor hours for the season days and up to the raw history', async () => {
    const hours = await database.db
      .select()
      .from(buildingOutdoorTemperatures)
      .where(
        and(
          eq(buildingOutdoorTemperatures.companyId, companyId),
          gte(buildingOutdoorTemperatures.at, new Date('2025-09-30T22:00:00Z')),
          lt(buildingOutdoorTemperatures.at, new Date('2026-04-30T22:00:00Z')),
        ),
      );
    // 25 hours on 26 October, 23 on 29 March.
    expect(hours).toHaveLength(212 * 24);
    expect(hours.every((h) => h.kind === 'observed' && h.provider === 'brightsky')).toBe(true);
    const all = await database.db
      .select({ at: buildingOutdoorTemperatures.at })
      .from(buildingOutdoorTemperatures)
      .where(gte(buildingOutdoorTemperatures.at, new Date('2026-09-30T22:00:00Z')));
    // 1 October to now without a gap: the season's hours run into the history's.
    const stamps = all.map((h) => h.at.getTime()).sort((a, b) => a - b);
    expect(stamps.every((at, i) => i === 0 || at - (stamps[i - 1] as number) === 3_600_000)).toBe(true);
  });

  it("shows the open window heated through in the open-window valve's room", async () => {
    const room = ofUnit(await unitOf('70b3d5e75e000001'));
    const windowDays = room.filter((r) => r.windowMinutes > 0);
    expect(windowDays.every((r) => r.windowMinutes === 45)).toBe(true);
    // About one working day in three (some 180 of the 250 days are working days).
    expect(windowDays.length).toBeGreaterThan(40);
    expect(windowDays.length).toBeLessThan(80);
    expect(sum(windowDays, (r) => r.windowHeatingMinutes)).toBeGreaterThan(30 * windowDays.length);
    expect(rows.filter((r) => r.unitId !== room[0]?.unitId).every((r) => r.windowMinutes === 0)).toBe(true);
  });

  it("keeps the cold radiator's room below comfort with its valve open", async () => {
    const room = ofUnit(await unitOf('70b3d5e75e000007'));
    const share = sum(room, (r) => r.belowComfortMinutes) / sum(room, (r) => r.occupiedMinutes);
    expect(share).toBeGreaterThan(0.5);
    expect(sum(room, (r) => r.valveMean ?? 0) / room.length).toBeGreaterThan(90);
    // A healthy room reaches comfort nearly all of its occupied time.
    const healthy = ofUnit(await unitOf('70b3d5e75e000003'));
    expect(sum(healthy, (r) => r.belowComfortMinutes) / sum(healthy, (r) => r.occupiedMinutes)).toBeLessThan(
      0.2,
    );
  });

  it("has the silent valve's room report about every other quarter hour", async () => {
    const room = ofUnit(await unitOf(DEMO_SILENT.devEui));
    const share = sum(room, (r) => r.readingBuckets) / sum(room, (r) => r.buckets);
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.65);
    expect(room.every((r) => r.buckets >= 92)).toBe(true);
    const healthy = ofUnit(await unitOf('70b3d5e75e000003'));
    expect(healthy.every((r) => r.readingBuckets === r.buckets)).toBe(true);
  });

  it('sums a day exactly as the rollup job does, checked on a day of the raw history', async () => {
    const db = database.db;
    const unitId = await unitOf('70b3d5e75e000003');
    const from = DateTime.fromISO('2026-11-10', { zone: 'Europe/Berlin' });
    const to = from.plus({ days: 1 });
    await rollUpCompany(
      db,
      { id: companyId, timeZone: 'Europe/Berlin' },
      from.toJSDate(),
      to.toJSDate(),
      now,
    );
    const quarters = await db
      .select()
      .from(unitRollups15m)
      .where(
        and(
          eq(unitRollups15m.unitId, unitId),
          gte(unitRollups15m.bucket, from.toJSDate()),
          lt(unitRollups15m.bucket, to.toJSDate()),
        ),
      );
    const [job] = await db
      .select()
      .from(unitRollupsDaily)
      .where(and(eq(unitRollupsDaily.unitId, unitId), eq(unitRollupsDaily.day, '2026-11-10')));
    const ours = rollUpDaySamples(
      quarters.map((q) => ({
        reading: q.readings > 0,
        room: q.roomMean,
        valve: q.valveMean,
        setpoint: q.setpoint,
        windowMinutes: q.windowMinutes,
        outdoor: q.outdoor,
      })),
    );
    expect(quarters).toHaveLength(96);
    for (const [key, value] of Object.entries(ours)) {
      const theirs = job?.[key as keyof typeof job];
      if (typeof value === 'number' && !Number.isInteger(value)) expect(theirs, key).toBeCloseTo(value, 4);
      else expect(theirs, key).toEqual(value);
    }
    expect(ours.occupiedMinutes).toBeGreaterThan(0);
    expect(ours.setbackMinutes).toBeGreaterThan(0);
  });
});
