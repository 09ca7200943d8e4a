/**
 * Telemetry rollups and retention (decision 0061): quarter hours and days from raw uplinks, the
 * heating log, open-window alerts and outdoor hours; the job's progress kept per company and a
 * late uplink folded in; monthly partitions created ahead and dropped past the retention while
 * the rollups stay.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/client.ts';
import {
  alerts,
  buildingOutdoorTemperatures,
  buildings,
  devices,
  heatingLog,
  rollupState,
  telemetry,
  unitRollups15m,
  unitRollupsDaily,
  units,
} from '../../db/schema.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';
import { rewindForLateUplinks, runRollups } from './rollups.repository.ts';
import {
  ensureTelemetryPartitions,
  purgeTelemetry,
  telemetryPartitions,
} from './telemetry-partitions.repository.ts';

const MIN = 60_000;
// Tuesday 10 November 2026, 06:00 in Berlin (05:00 UTC).
const T0 = Date.parse('2026-11-10T05:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * MIN);

describe('telemetry rollups', () => {
  let database: Database;
  let companyId: string;
  let unitId: string;
  let buildingId: string;
  let fCnt = 0;
  const uplink = (minutes: number, room: number, valve: number) => ({
    devEui: '70b3d52dd3000001',
    time: at(minutes),
    fCnt: fCnt++,
    companyId,
    unitId,
    fPort: 1,
    roomTemperature: room,
    valveOpening: valve,
  });
  const quarters = () =>
    database.db
      .select()
      .from(unitRollups15m)
      .where(eq(unitRollups15m.unitId, unitId))
      .orderBy(asc(unitRollups15m.bucket));

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    ({ companyId } = await seedCompanies(db));
    [{ id: buildingId }] = (await db
      .insert(buildings)
      .values({ companyId, name: 'Schule', state: 'BY' })
      .returning({ id: buildings.id })) as [{ id: string }];
    [{ id: unitId }] = (await db
      .insert(units)
      .values({ companyId, name: 'Raum 1', buildingId })
      .returning({ id: units.id })) as [{ id: string }];
    await db.insert(devices).values({
      id: '70b3d52dd3000001',
      devEui: '70b3d52dd3000001',
      companyId,
      unitId,
      model: 'mclimate-vicki',
    });
    // Setback 17 °C until 06:00 local, then comfort 21 °C.
    await db.insert(heatingLog).values([
      { companyId, unitId, kind: 'regular_plan', newSetpoint: 17, at: at(-8 * 60) },
      { companyId, unitId, kind: 'regular_plan', oldSetpoint: 17, newSetpoint: 21, at: at(0) },
    ]);
    await db.insert(buildingOutdoorTemperatures).values(
      [-60, 0, 60].map((m) => ({
        companyId,
        buildingId,
        at: at(m),
        temperature: 2,
        kind: 'observed' as const,
        provider: 'test',
      })),
    );
    // Before 06:00 a cool room, the valve shut; from 06:00 heating; a window open 06:35–06:45.
    await db
      .insert(telemetry)
      .values([
        uplink(-20, 17.5, 0),
        uplink(-5, 17.4, 0),
        uplink(5, 17.6, 100),
        uplink(10, 18.0, 100),
        uplink(40, 19.0, 60),
      ]);
    await db.insert(alerts).values({
      companyId,
      kind: 'open_window',
      subject: 'device',
      subjectId: '70b3d52dd3000001',
      unitId,
      state: 'resolved',
      openedAt: at(35),
      lastSeenAt: at(45),
      clearSince: at(45),
      resolvedAt: at(60),
    });
  });
  afterAll(() => database.close());

  it('rolls quarter hours up from uplinks, carrying the last values over a silent quarter', async () => {
    expect(await runRollups(database.db, at(62))).toBeGreaterThan(0);
    const rows = await quarters();
    expect(rows.map((r) => [r.bucket.getTime(), r.readings])).toEqual([
      [at(-30).getTime(), 1],
      [at(-15).getTime(), 1],
      [at(0).getTime(), 2],
      [at(15).getTime(), 0],
      [at(30).getTime(), 1],
      [at(45).getTime(), 0],
    ]);
    const [before, , heating, silent, windowed] = rows;
    expect(before).toMatchObject({
      setpoint: 17,
      setpointSource: 'regular_plan',
      heatingMinutes: 0,
      outdoor: 2,
    });
    expect(heating).toMatchObject({
      roomMin: 17.6,
      roomMax: 18,
      setpoint: 21,
      heatingMinutes: 15,
      buildingId,
    });
    expect(heating?.roomMean).toBeCloseTo(17.8, 5);
    // Nothing arrived 06:15–06:30: the 06:10 reading carries over.
    expect(silent).toMatchObject({ roomMean: 18, valveMean: 100, heatingMinutes: 15 });
    expect(windowed).toMatchObject({ windowMinutes: 10, heatingMinutes: 15 });
  });

  it('folds in an uplink that arrived late, in the next run that has an hour due', async () => {
    // 06:35 arrives at 07:20, after its quarter hour was rolled up: the ingest's hook rewinds.
    const late = uplink(35, 18.8, 60);
    await database.db.insert(telemetry).values(late);
    expect(await rewindForLateUplinks(database.db, [late], at(80))).toEqual([companyId]);
    expect(await rewindForLateUplinks(database.db, [uplink(79, 19, 60)], at(80))).toEqual([]);
    // 07:20: the rollups reach 07:00, less than an hour is due; at 07:47 it is.
    expect(await runRollups(database.db, at(80))).toBe(0);
    expect(await runRollups(database.db, at(107))).toBe(1);
    const again = (await quarters()).find((r) => r.bucket.getTime() === at(30).getTime());
    expect(again?.readings).toBe(2);
    expect(again?.roomMean).toBeCloseTo(18.9, 5);
    const [state] = await database.db.select().from(rollupState).where(eq(rollupState.companyId, companyId));
    expect(state?.doneUntil).toEqual(at(105));
  });

  it('sums each day once it is over, with the comfort counts, and is idempotent', async () => {
    const read = () => database.db.select().from(unitRollupsDaily).where(eq(unitRollupsDaily.unitId, unitId));
    expect(await read()).toEqual([]);
    // 00:05 local on the 11th: the 10th is over.
    expect(await runRollups(database.db, at(18 * 60 + 5))).toBe(1);
    const [day] = await read();
    expect(day).toMatchObject({
      day: '2026-11-10',
      // 05:30–07:30: the last uplink (06:40) carries over for the hour after it.
      buckets: 9,
      readingBuckets: 4,
      heatingMinutes: 105,
      windowMinutes: 10,
      windowHeatingMinutes: 10,
      // 06:00–07:30 at comfort, all below 21 − 0.5; 19 °C (category III) from 06:45 on.
      occupiedMinutes: 105,
      belowComfortMinutes: 105,
      categoryIIIMinutes: 60,
      categoryIIMinutes: 0,
      // 05:30–06:00: setback and the room below 19 °C.
      setbackMinutes: 30,
      occupiedSetpointMean: 21,
    });
    // A second run in the same quarter hour changes nothing.
    expect(await runRollups(database.db, at(18 * 60 + 6))).toBe(0);
    expect(await read()).toEqual([day]);
  });

  it('creates month partitions ahead, moving early rows out of the default partition', async () => {
    const far = new Date('2031-03-05T10:00:00Z');
    await database.db.insert(telemetry).values({ ...uplink(0, 20, 0), time: far });
    const created = await ensureTelemetryPartitions(database.db, far, 1);
    expect(created).toEqual(['telemetry_2031_03', 'telemetry_2031_04']);
    const moved = await database.db.execute(sql`select count(*)::int as n from telemetry_2031_03`);
    expect((moved as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
    expect(await ensureTelemetryPartitions(database.db, far, 1)).toEqual([]);
  });

  it('drops raw telemetry past the retention and keeps the rollups', async () => {
    // The migration creates partitions from the database's own month; the test makes the month of
    // its uplinks itself, so the answer does not depend on the day the suite runs.
    await ensureTelemetryPartitions(database.db, at(0), 0);
    const { dropped, cutoff } = await purgeTelemetry(database.db, new Date('2028-01-15T00:00:00Z'), 13);
    expect(cutoff).toEqual(new Date('2026-12-01T00:00:00Z'));
    expect(dropped).toContain('telemetry_2026_11');
    expect((await telemetryPartitions(database.db)).some((p) => p.name === 'telemetry_2026_11')).toBe(false);
    const left = await database.db
      .select()
      .from(telemetry)
      .where(and(eq(telemetry.unitId, unitId)));
    expect(left.map((r) => r.time)).toEqual([new Date('2031-03-05T10:00:00Z')]);
    expect((await quarters()).length).toBe(9);
  });
});
