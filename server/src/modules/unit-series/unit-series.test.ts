import { MAX_SERIES_POINTS } from '@heizplan/contracts/unit-series';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { heatingLog, telemetry } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { bucketSecondsFor } from './unit-series.service.ts';

const HOUR = 3_600_000;

describe('bucket width', () => {
  it('is whole minutes and keeps both ranges within the point limit', () => {
    expect(bucketSecondsFor(48 * HOUR)).toBe(180);
    expect(bucketSecondsFor(14 * 24 * HOUR)).toBe(1260);
    for (const range of [48 * HOUR, 14 * 24 * HOUR]) {
      expect(range / (bucketSecondsFor(range) * 1000)).toBeLessThanOrEqual(MAX_SERIES_POINTS);
    }
  });
});

describe('unit series API', () => {
  let t: TestApp;
  let f: RegistryFixture;
  // The series' window ends at this clock; the readings are seeded back from it.
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  const now = clock.now().getTime();
  const url = (range: string) => `/api/companies/${f.companyId}/units/${f.unitId}/series?range=${range}`;

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    const db = t.database.db;
    // Two valves reporting every 5 minutes for 15 days: 8,640 rows in all.
    const rows = [];
    for (let minutes = 0; minutes < 15 * 24 * 60; minutes += 5) {
      const time = new Date(now - minutes * 60_000 - 30_000);
      for (const [devEui, offset] of [
        ['c000000000000001', 0],
        ['c000000000000002', 1],
      ] as const) {
        rows.push({
          devEui,
          time,
          fCnt: minutes,
          companyId: f.companyId,
          unitId: f.unitId,
          fPort: 1,
          roomTemperature: 20 + offset,
          supplyTemperature: 50,
          valveOpening: 30 + 10 * offset,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 2000) await db.insert(telemetry).values(rows.slice(i, i + 2000));
    // A reading of another company's unit at the same times must not count.
    await db.insert(telemetry).values({
      devEui: 'c0000000000000ff',
      time: new Date(now - 60_000),
      fCnt: 1,
      companyId: f.otherCompanyId,
      unitId: f.otherUnitId,
      fPort: 1,
      roomTemperature: 99,
    });
    await db.insert(heatingLog).values([
      {
        companyId: f.companyId,
        unitId: f.unitId,
        kind: 'regular_plan',
        oldSetpoint: null,
        newSetpoint: 17,
        at: new Date(now - 60 * HOUR),
      },
      {
        companyId: f.companyId,
        unitId: f.unitId,
        kind: 'regular_plan',
        oldSetpoint: 17,
        newSetpoint: 21,
        at: new Date(now - 10 * HOUR),
      },
      {
        companyId: f.companyId,
        unitId: f.unitId,
        kind: 'web_change',
        oldSetpoint: 21,
        newSetpoint: 22.5,
        at: new Date(now - 2 * HOUR),
      },
    ]);
  });
  afterAll(() => t.close());

  it('returns two weeks in at most 1,000 buckets with average, minimum and maximum over the devices', async () => {
    const res = await t.call('GET', url('14d'));
    expect(res.statusCode).toBe(200);
    const series = res.json();
    expect(series.bucketSeconds).toBe(1260);
    expect(series.buckets.time.length).toBeLessThanOrEqual(MAX_SERIES_POINTS + 1);
    expect(series.buckets.time.length).toBeGreaterThan(900);
    expect(new Date(series.buckets.time[0]).getTime()).toBeGreaterThanOrEqual(
      new Date(series.from).getTime(),
    );
    expect(series.buckets.roomAvg[10]).toBeCloseTo(20.5);
    expect(series.buckets.roomMin[10]).toBe(20);
    expect(series.buckets.roomMax[10]).toBe(21);
    expect(series.buckets.valveAvg[10]).toBeCloseTo(35);
    expect(series.buckets.supplyAvg[10]).toBe(50);
    expect(Math.max(...series.buckets.roomMax)).toBe(21);
    expect(series.timeZone).toBe('Europe/Berlin');
  });

  it('starts the setpoint steps with the value in force at the start of the range', async () => {
    const series = (await t.call('GET', url('48h'))).json();
    expect(series.setpoint.map((s: { setpoint: number }) => s.setpoint)).toEqual([17, 21, 22.5]);
    expect(series.setpoint[0].at).toBe(series.from);
    expect(series.bucketSeconds).toBe(180);
    const times = series.buckets.time.map((iso: string) => new Date(iso).getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(now - 48 * HOUR - 180_000);
  });

  it('answers 404 to a member of another company and for an unknown range', async () => {
    expect((await t.call('GET', url('48h'), undefined, 'mallory')).statusCode).toBe(404);
    expect(
      (
        await t.call(
          'GET',
          `/api/companies/${f.otherCompanyId}/units/${f.unitId}/series`,
          undefined,
          'mallory',
        )
      ).statusCode,
    ).toBe(404);
    expect((await t.call('GET', url('1y'))).statusCode).toBe(400);
  });
});
