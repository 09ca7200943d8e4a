/**
 * A battery's trend for the devices list: the fall per week over the last 14 days and, at that
 * pace, the days until the low-battery threshold of the alerts (the model's voltage for devices
 * reporting V, the company's percentage for those reporting %).
 */
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alert-defaults';
import type { Device } from '@heizplan/contracts/devices';
import type { BatteryHistory } from './devices.repository.ts';

const DAY_MS = 86_400_000;
/** Fewer days of readings say too little about a battery that lasts years. */
const MIN_DAYS = 3;

/** @param lowVolts the model's low-battery voltage (codec), for devices reporting V. */
export function batteryTrend(
  history: BatteryHistory,
  lowVolts: number | undefined,
  now: Date,
): Device['batteryTrend'] {
  const { battery, unit, earlier } = history;
  if (battery === null || unit === null || earlier === null) return null;
  const days = (now.getTime() - earlier.at.getTime()) / DAY_MS;
  if (days < MIN_DAYS) return null;
  const perDay = (battery - earlier.battery) / days;
  const threshold =
    unit === 'V' ? lowVolts : (history.lowPercent ?? DEFAULT_ALERT_SETTINGS.lowBatteryPercent);
  const daysLeft =
    // The epsilon keeps 20.999… (binary fractions of 0.1 V) from losing a whole day.
    perDay < 0 && threshold !== undefined
      ? Math.max(0, Math.floor((battery - threshold) / -perDay + 1e-9))
      : null;
  return { perWeek: Math.round(perDay * 7 * 1000) / 1000, daysLeft };
}
