/**
 * The demo's heating seasons before its raw history (reports compare months and years, decision
 * 0061): daily rollups per room from 1 October of the running season (or, May–September, of the
 * last one) up to the day before the 14-day raw history of demo-history.ts, and the whole season
 * a year earlier, plus the hourly outdoor temperatures of those days. The rooms are simulated
 * with the thermal model of tools/simulator in the replayed DWD winter, quarter hour by quarter
 * hour, and each local day is summed in JS as `rollUpDays` sums the 15-minute rollups — no raw
 * telemetry is written for the seasons, so months of uplinks do not slow the first start.
 *
 * Three rooms misbehave so the reports have efficiency losses to show: the open-window valve's
 * room airs for 45 minutes while heating on about one working day in three, the cold-radiator
 * valve's room sits 2–3 K below its setpoint with the valve fully open, and the silent valve
 * reports only about every other quarter hour. Everything is a seeded function of day and room,
 * so every start writes the same seasons.
 */
import { DateTime } from 'luxon';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import type { DeviceFaults } from '../../../tools/simulator/simulator.ts';
import {
  advance,
  type RoomState,
  type ThermalParams,
  valveOpeningFor,
  WINTER,
} from '../../../tools/simulator/thermal.ts';
import type { Db } from '../db/client.ts';
import { getCodec } from '../lorawan/codecs/registry.ts';
import {
  BELOW_COMFORT_K,
  CATEGORY_I_C,
  CATEGORY_II_C,
  COMFORT_FLOOR_C,
  HEATING_VALVE,
  STUCK_OPEN_K,
  STUCK_OPEN_VALVE,
} from '../modules/reports/comfort.ts';
import { saveOutdoorHours } from '../weather/outdoor-store.repository.ts';
import type { OutdoorHour } from '../weather/providers.ts';
import {
  buildingsWithCoordinates,
  type DemoDailyRollupRow,
  insertDailyRollups,
  unitsWithDevices,
} from './demo.repository.ts';
import { DEMO_DEVICES, DEMO_FAULT_SCRIPT, DEMO_SILENT, DEMO_SWITCH_POINTS } from './demo-data.ts';
import { DEMO_HISTORY_DAYS } from './demo-history.ts';

const ZONE = 'Europe/Berlin';
const QUARTER_MS = 15 * 60_000;
const QUARTER_MINUTES = 15;
const HOUR_MS = 3_600_000;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** One unit's quarter hour as its 15-minute rollup row has it (one reading or none per quarter). */
export interface QuarterSample {
  /** True when the unit had an uplink in the quarter; false = the last one's values carried forward. */
  reading: boolean;
  /** Room temperature, °C; null = none (no room sensor). */
  room: number | null;
  /** Valve opening, %; null = no valve (a room sensor only). */
  valve: number | null;
  /** Setpoint in force at the quarter's start, °C; null = none yet. */
  setpoint: number | null;
  /** Minutes of the quarter (0–15) an open-window alert was open. */
  windowMinutes: number;
  /** The building's outdoor temperature of the quarter's hour, °C; null = none stored. */
  outdoor: number | null;
}

/** The value columns of one `unit_rollups_daily` row (temperatures °C, valve %, minutes). */
export type DayRollup = Omit<DemoDailyRollupRow, 'companyId' | 'unitId' | 'buildingId' | 'day'>;

const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * One unit's local day from its quarter-hour samples (every quarter with a 15-minute row, in any
 * order), exactly as `rollUpDays` (reports/rollups.ts) sums the 15-minute rows and
 * `rollUpQuarterHours` counts a quarter's heating: a quarter heats all 15 minutes when its valve
 * is more than 5 % open; means ignore missing values (null when there are none); the comfort
 * counts follow reports/comfort.ts (occupied = setpoint ≥ comfort floor; below comfort = room
 * more than 0.5 K below the setpoint; categories I ≥ 21, II ≥ 20, III ≥ 19 °C of occupied time;
 * setback = setpoint and room below the floor; stuck open = valve ≥ 95 % with the room more
 * than 1 K above the setpoint).
 */
export function rollUpDaySamples(samples: readonly QuarterSample[]): DayRollup {
  const rooms: number[] = [];
  const valves: number[] = [];
  const setpoints: number[] = [];
  const occupiedSetpoints: number[] = [];
  const outdoors: number[] = [];
  const day = {
    readingBuckets: 0,
    heatingMinutes: 0,
    windowMinutes: 0,
    windowHeatingMinutes: 0,
    occupiedMinutes: 0,
    belowComfortMinutes: 0,
    categoryIMinutes: 0,
    categoryIIMinutes: 0,
    categoryIIIMinutes: 0,
    setbackMinutes: 0,
    stuckOpenMinutes: 0,
  };
  for (const { reading, room, valve, setpoint, windowMinutes, outdoor } of samples) {
    if (reading) day.readingBuckets += 1;
    const heating = valve !== null && valve > HEATING_VALVE ? QUARTER_MINUTES : 0;
    day.heatingMinutes += heating;
    day.windowMinutes += windowMinutes;
    day.windowHeatingMinutes += Math.min(heating, windowMinutes);
    if (room !== null) rooms.push(room);
    if (valve !== null) valves.push(valve);
    if (outdoor !== null) outdoors.push(outdoor);
    // SQL compares null as unknown: a quarter without a setpoint counts in none of the minutes.
    if (setpoint === null) continue;
    setpoints.push(setpoint);
    if (setpoint >= COMFORT_FLOOR_C) {
      day.occupiedMinutes += QUARTER_MINUTES;
      occupiedSetpoints.push(setpoint);
      if (room !== null && room < setpoint - BELOW_COMFORT_K) day.belowComfortMinutes += QUARTER_MINUTES;
      if (room !== null && room >= CATEGORY_I_C) day.categoryIMinutes += QUARTER_MINUTES;
      else if (room !== null && room >= CATEGORY_II_C) day.categoryIIMinutes += QUARTER_MINUTES;
      else if (room !== null && room >= COMFORT_FLOOR_C) day.categoryIIIMinutes += QUARTER_MINUTES;
    } else if (room !== null && room < COMFORT_FLOOR_C) day.setbackMinutes += QUARTER_MINUTES;
    if (valve !== null && room !== null && valve >= STUCK_OPEN_VALVE && room > setpoint + STUCK_OPEN_K)
      day.stuckOpenMinutes += QUARTER_MINUTES;
  }
  return {
    buckets: samples.length,
    roomMin: rooms.length === 0 ? null : Math.min(...rooms),
    roomMean: mean(rooms),
    roomMax: rooms.length === 0 ? null : Math.max(...rooms),
    valveMean: mean(valves),
    setpointMean: mean(setpoints),
    occupiedSetpointMean: mean(occupiedSetpoints),
    outdoorMean: mean(outdoors),
    ...day,
  };
}

/** The raw history's first instant (demo-history.ts), in Berlin time. */
const historyStart = (now: Date) =>
  DateTime.fromMillis(now.getTime() - DEMO_HISTORY_DAYS * 86_400_000, { zone: ZONE });

/** A stretch of local days, `YYYY-MM-DD`, both ends included. */
export interface DayRange {
  first: string;
  last: string;
}

/**
 * The days the season backfill covers for a demo created at `now`: the running heating season
 * (1 October to 30 April; from May to September the one that ended on 30 April) up to the day
 * before the raw history's first local day, and the season a year before it whole. A season
 * with no day before the history (early October) is left out. Europe/Berlin days.
 */
export function demoSeasonDays(now: Date): DayRange[] {
  const local = DateTime.fromJSDate(now, { zone: ZONE });
  // January–September belong to (or come after) the season that began the October before.
  const start = local.month >= 10 ? local.year : local.year - 1;
  const historyDay = historyStart(now).startOf('day');
  const ranges: DayRange[] = [];
  for (const year of [start - 1, start]) {
    const first = DateTime.fromObject({ year, month: 10, day: 1 }, { zone: ZONE });
    const seasonEnd = DateTime.fromObject({ year: year + 1, month: 5, day: 1 }, { zone: ZONE });
    const end = seasonEnd < historyDay ? seasonEnd : historyDay;
    if (first < end)
      ranges.push({ first: first.toISODate() as string, last: end.minus({ days: 1 }).toISODate() as string });
  }
  return ranges;
}

/**
 * The quarter hours of the local day starting at `day` (96; 92 or 100 when the clocks change):
 * each one's start (epoch ms), the demo plan's setpoint in force then — `demoSetpointAt`'s rule
 * (the day's last switch point at or before it, else the day before's last), taken from the
 * day's few switch instants because a Luxon conversion per quarter would cost seconds over two
 * seasons — and the outdoor temperature of its UTC hour as the outdoor store holds it (°C, 0.1).
 */
export function dayQuarters(day: DateTime): { bucket: number; setpoint: number; outdoor: number }[] {
  const pointsOf = (weekday: number) => DEMO_SWITCH_POINTS.filter((p) => p.day === weekday);
  const switches = pointsOf(day.weekday).map((p) => ({
    at: day.set({ hour: p.hour, minute: p.minute }).toMillis(),
    setpoint: p.temperature,
  }));
  const overnight = (pointsOf(day.minus({ days: 1 }).weekday).at(-1) as { temperature: number }).temperature;
  const quarters = [];
  const to = day.plus({ days: 1 }).toMillis();
  for (let bucket = day.toMillis(); bucket < to; bucket += QUARTER_MS) {
    const setpoint = switches.filter((s) => s.at <= bucket).at(-1)?.setpoint ?? overnight;
    const hour = Math.floor(bucket / HOUR_MS) * HOUR_MS;
    quarters.push({ bucket, setpoint, outdoor: round1(replayedOutdoorAt(hour)) });
  }
  return quarters;
}

/** A deterministic number in [0, 1) from small integers (a 32-bit integer hash). */
function seeded(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 2 ** 32;
}

type Fault = 'openWindow' | 'noHeat' | 'silent';

interface SeasonUnit {
  unitId: string;
  buildingId: string | null;
  /** Index of its device in DEMO_DEVICES: the seed and the starting temperature, as in demo-history. */
  index: number;
  fault?: Fault;
  room: RoomState;
  /** The last reported values and how many quarters in a row went unreported (silent valve). */
  reported: { room: number; valve: number; missed: number };
}

/** The device of the fault script that gets `fault`, so the seasons show the live demo's faults. */
const scripted = (fault: keyof DeviceFaults) => DEMO_FAULT_SCRIPT.find((s) => s.faults[fault])?.devEui;

/** The window opens at 10:00–11:45 on a window day, for three quarters (45 minutes). */
const WINDOW_FROM_QUARTER = 40;
const WINDOW_QUARTERS = 3;
/** The silent valve reports a quarter with this chance, but never misses a whole hour (carry-forward). */
const SILENT_REPORT_SHARE = 0.5;
const SILENT_MAX_MISSED = 3;

/**
 * Advances one unit over the quarter starting at `bucket` and returns its sample: the healthy
 * PI room of thermal.ts, ten times the air losses while its window is open (as the simulator's
 * open-window fault), a room held `deficit` K below the setpoint for the cold radiator (its
 * valve's integral wound up to fully open), and carried values when the silent valve skips.
 */
function simulateQuarter(
  unit: SeasonUnit,
  q: { bucket: number; setpoint: number; outdoor: number },
  /** The day's seed, the cold radiator's deficit (K) and whether the window is open this quarter. */
  day: { dayKey: number; deficit: number; windowOpen: boolean },
  quarter: number,
): QuarterSample {
  const noHeat = unit.fault === 'noHeat';
  const windowOpen = unit.fault === 'openWindow' && day.windowOpen;
  const params: ThermalParams = {
    outside: replayedOutdoorAt(q.bucket + QUARTER_MS / 2),
    supply: WINTER.supply,
    heatRate: WINTER.heatRate,
    lossRate: windowOpen ? WINTER.lossRate * 10 : WINTER.lossRate,
  };
  unit.room.setpoint = noHeat ? q.setpoint - day.deficit : q.setpoint;
  unit.room = advance(unit.room, params, 0.25);
  const room = round1(unit.room.roomTemperature);
  const valve = noHeat ? valveOpeningFor(room, q.setpoint, 100) : unit.room.valveOpening;
  const reported = unit.reported;
  const reading =
    unit.fault !== 'silent' ||
    reported.missed >= SILENT_MAX_MISSED ||
    seeded(day.dayKey, unit.index, quarter, 3) < SILENT_REPORT_SHARE;
  if (reading) {
    reported.room = room;
    reported.valve = valve;
    reported.missed = 0;
  } else reported.missed += 1;
  return {
    reading,
    room: reported.room,
    valve: reported.valve,
    setpoint: q.setpoint,
    windowMinutes: windowOpen ? QUARTER_MINUTES : 0,
    outdoor: q.outdoor,
  };
}

/** The demo's units with a device (the valve where a room also has a sensor), with their faults. */
async function seasonUnits(db: Db, companyId: string): Promise<Omit<SeasonUnit, 'room' | 'reported'>[]> {
  const rows = await unitsWithDevices(db, companyId);
  const faults: [string | undefined, Fault][] = [
    [scripted('openWindow'), 'openWindow'],
    [scripted('noHeat'), 'noHeat'],
    [DEMO_SILENT.devEui, 'silent'],
  ];
  const byUnit = new Map<string, Omit<SeasonUnit, 'room' | 'reported'>>();
  for (const row of rows) {
    const valve = getCodec(row.model).kind !== 'sensor';
    if (byUnit.has(row.unitId) && !valve) continue;
    const fault = faults.find(([devEui]) => devEui === row.deviceId)?.[1];
    byUnit.set(row.unitId, {
      unitId: row.unitId,
      buildingId: row.buildingId,
      index: Math.max(
        0,
        DEMO_DEVICES.findIndex((d) => d.devEui === row.deviceId),
      ),
      ...(fault ? { fault } : {}),
    });
  }
  return [...byUnit.values()];
}

/**
 * Writes the demo seasons of `companyId` (see `demoSeasonDays`): one `unit_rollups_daily` row per
 * unit with a device and local day, and the hourly outdoor temperatures (`observed`, provider
 * `brightsky`, as demo-history stores them) of every building with coordinates from the first
 * season day up to the raw history's start. Runs inside the demo's creating transaction; the
 * rollup job later rolls up only the raw history's days, so the two never write the same day.
 */
export async function backfillDemoSeason(db: Db, companyId: string, now: Date): Promise<void> {
  const withDevice = await seasonUnits(db, companyId);
  const historyFrom = historyStart(now).toMillis();
  const historyDay = historyStart(now).startOf('day').toMillis();
  const rows: DemoDailyRollupRow[] = [];
  const hours: OutdoorHour[] = [];
  for (const range of demoSeasonDays(now)) {
    const first = DateTime.fromISO(range.first, { zone: ZONE });
    const end = DateTime.fromISO(range.last, { zone: ZONE }).plus({ days: 1 });
    // Every season starts from rooms cooled as after the summer, as the history's do; the
    // setpoint is the plan's, set at every quarter.
    const season: SeasonUnit[] = withDevice.map((u) => {
      const temperature = 17 + (u.index % 3) * 0.4;
      return {
        ...u,
        room: { roomTemperature: temperature, setpoint: 0, valveOpening: 0 },
        reported: { room: temperature, valve: 0, missed: 0 },
      };
    });
    for (let day = first; day < end; day = day.plus({ days: 1 })) {
      const dayKey = day.year * 1000 + day.ordinal;
      // The plan and the weather are the same for every room: computed once per quarter.
      const quarters = dayQuarters(day);
      for (const { bucket, outdoor } of quarters)
        if (bucket % HOUR_MS === 0)
          hours.push({ at: new Date(bucket), temperature: outdoor, kind: 'observed' });
      for (const unit of season) {
        const windowDay = day.weekday <= 5 && seeded(dayKey, unit.index, 1) < 1 / 3;
        const windowFrom = WINDOW_FROM_QUARTER + Math.floor(seeded(dayKey, unit.index, 2) * 8);
        const deficit = 2 + seeded(dayKey, unit.index, 4);
        const samples = quarters.map((q, quarter) => {
          const windowOpen = windowDay && quarter >= windowFrom && quarter < windowFrom + WINDOW_QUARTERS;
          return simulateQuarter(unit, q, { dayKey, deficit, windowOpen }, quarter);
        });
        rows.push({
          companyId,
          unitId: unit.unitId,
          buildingId: unit.buildingId,
          day: day.toISODate() as string,
          ...rollUpDaySamples(samples),
        });
      }
    }
    // A season cut short by the history: its weather goes on up to the history's first hour, so
    // the outdoor hours have no gap on the history's first (partial) day.
    if (end.toMillis() === historyDay)
      for (let at = historyDay; at < historyFrom; at += HOUR_MS)
        hours.push({ at: new Date(at), temperature: round1(replayedOutdoorAt(at)), kind: 'observed' });
  }
  await insertDailyRollups(db, rows);
  const buildingRows = await buildingsWithCoordinates(db, companyId);
  // saveOutdoorHours upserts in chunks of its own (500 rows), so ~10,000 hours are ~20 statements.
  for (const building of buildingRows) await saveOutdoorHours(db, building, 'brightsky', hours, now);
}
