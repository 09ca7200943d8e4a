/**
 * Two weeks of demo history written straight into the database (seconds, not minutes through
 * the broker): every device's readings every 15 minutes from the thermal model of
 * tools/simulator in the replayed DWD winter its building's weather stand-in serves, with the setpoint following the demo winter plan, and the plan's switch points
 * as `group_plan` entries of the heating log — so the graphs show real steps and curves at once.
 * The silent valve's history ends two days back, the valve without heat never warms its room, and
 * the draining battery falls day by day
 * (demo-data.ts), so alerts open as soon as the evaluation first runs; each device's last seen,
 * battery and signal are its newest row, as ingest would have left them.
 */
import { DateTime } from 'luxon';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { HEALTHY_BATTERY } from '../../../tools/simulator/simulator.ts';
import { advance, type RoomState, WINTER } from '../../../tools/simulator/thermal.ts';
import type { Db } from '../db/client.ts';
import { getCodec } from '../lorawan/codecs/registry.ts';
import { saveOutdoorHours } from '../weather/outdoor-store.repository.ts';
import type { OutdoorHour } from '../weather/providers.ts';
import {
  buildingsWithCoordinates,
  companyDevices,
  companyUnitIds,
  type DemoTelemetryRow,
  insertHeatingLog,
  insertTelemetry,
  updateDevicesFromNewestTelemetry,
} from './demo.repository.ts';
import { DEMO_DRAINING, DEMO_FAULT_SCRIPT, DEMO_SILENT, DEMO_SWITCH_POINTS } from './demo-data.ts';

export const DEMO_HISTORY_DAYS = 14;
const STEP_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const ZONE = 'Europe/Berlin';
const CHUNK = 1000;

/** The demo plan's setpoint (°C) at `at`: the last switch point at or before it in Berlin time. */
export function demoSetpointAt(at: Date): number {
  const local = DateTime.fromJSDate(at, { zone: ZONE });
  const minutes = local.hour * 60 + local.minute;
  const today = DEMO_SWITCH_POINTS.filter(
    (p) => p.day === local.weekday && p.hour * 60 + p.minute <= minutes,
  );
  if (today.length > 0) return (today.at(-1) as { temperature: number }).temperature;
  const yesterday = DEMO_SWITCH_POINTS.filter((p) => p.day === local.minus({ days: 1 }).weekday);
  return (yesterday.at(-1) as { temperature: number }).temperature;
}

/** The demo plan's switch instants between `from` and `to`, with the setpoint each sets. */
function switchInstants(from: Date, to: Date): { at: Date; setpoint: number }[] {
  const result: { at: Date; setpoint: number }[] = [];
  for (
    let day = DateTime.fromJSDate(from, { zone: ZONE }).startOf('day');
    day.toJSDate() < to;
    day = day.plus({ days: 1 })
  ) {
    for (const point of DEMO_SWITCH_POINTS.filter((p) => p.day === day.weekday)) {
      const at = day.set({ hour: point.hour, minute: point.minute }).toJSDate();
      if (at > from && at <= to) result.push({ at, setpoint: point.temperature });
    }
  }
  return result;
}

async function insertChunks<T extends object>(db: Db, rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
  return db;
}

/** Writes the history of every device and unit of `companyId` for the 14 days before `now`. */
export async function backfillDemoHistory(db: Db, companyId: string, now: Date) {
  const from = new Date(now.getTime() - DEMO_HISTORY_DAYS * 86_400_000);
  const deviceRows = await companyDevices(db, companyId);
  const rows: DemoTelemetryRow[] = [];
  for (const [index, device] of deviceRows.entries()) {
    const codec = getCodec(device.model);
    const sensor = codec.kind === 'sensor';
    let room: RoomState = {
      roomTemperature: 17 + (index % 3) * 0.4,
      setpoint: demoSetpointAt(from),
      valveOpening: 0,
    };
    let fCnt = 0;
    const healthy = HEALTHY_BATTERY[codec.model];
    // The valve the running demo reports as getting no heat has had none all along, so its room
    // is cold in the history too (and the reports find it below target).
    const noHeat = DEMO_FAULT_SCRIPT.some((step) => step.devEui === device.id && step.faults.noHeat);
    const end =
      device.id === DEMO_SILENT.devEui
        ? now.getTime() - DEMO_SILENT.silentForHours * 3_600_000
        : now.getTime();
    const batteryAt = (at: number) =>
      device.id === DEMO_DRAINING.devEui
        ? Math.round(
            DEMO_DRAINING.from +
              ((DEMO_DRAINING.to - DEMO_DRAINING.from) * (at - from.getTime())) /
                (now.getTime() - from.getTime()),
          )
        : healthy.value;
    for (let at = from.getTime() + STEP_MS; at <= end; at += STEP_MS) {
      room = advance(
        { ...room, setpoint: demoSetpointAt(new Date(at)) },
        { ...WINTER, outside: replayedOutdoorAt(at - STEP_MS / 2), ...(noHeat ? { heatRate: 0 } : {}) },
        STEP_MS / 3_600_000,
      );
      const temperature = Math.round(room.roomTemperature * 10) / 10;
      rows.push({
        devEui: device.id,
        deviceId: device.id,
        companyId,
        unitId: device.unitId,
        time: new Date(at),
        fCnt: fCnt++,
        fPort: sensor ? 5 : 1,
        roomTemperature: temperature,
        ...(sensor
          ? {}
          : {
              setpointReported: room.setpoint,
              valveOpening: room.valveOpening,
              supplyTemperature: room.valveOpening > 0 ? WINTER.supply : temperature,
            }),
        battery: batteryAt(at),
        batteryUnit: healthy.unit,
        rssi: -78 - index,
        snr: 7.5,
      });
    }
  }
  await insertChunks(db, rows, (chunk) => insertTelemetry(db, chunk));
  await updateDevicesFromNewestTelemetry(db, companyId);

  const unitRows = await companyUnitIds(db, companyId);
  const steps = [{ at: from, setpoint: demoSetpointAt(from) }, ...switchInstants(from, now)];
  const logRows = unitRows.flatMap((unit) =>
    steps.map((step, i) => ({
      companyId,
      unitId: unit.id,
      kind: 'group_plan' as const,
      oldSetpoint: i === 0 ? null : (steps[i - 1] as { setpoint: number }).setpoint,
      newSetpoint: step.setpoint,
      at: step.at,
    })),
  );
  await insertChunks(db, logRows, (chunk) => insertHeatingLog(db, chunk));

  // The weather the rooms were simulated in, as the outdoor sync would have stored it from the
  // stand-in (decision 0057); the sync adds the forecast once the server runs.
  const buildingRows = await buildingsWithCoordinates(db, companyId);
  const hours: OutdoorHour[] = [];
  for (let at = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS; at <= now.getTime(); at += HOUR_MS)
    hours.push({
      at: new Date(at),
      temperature: Math.round(replayedOutdoorAt(at) * 10) / 10,
      kind: 'observed',
    });
  for (const building of buildingRows) await saveOutdoorHours(db, building, 'brightsky', hours, now);
}
