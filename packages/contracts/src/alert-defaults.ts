/**
 * The alert kinds and each condition's defaults, without zod: the units screen reads
 * `farFromSetpointMinutes` on the first load, which must not pull the schema library in
 * (decision 0045). `alerts.ts` builds the schemas from these.
 */
import type { AlertSettings } from './alerts.ts';

export const ALERT_KINDS = [
  'device_offline',
  'gateway_offline',
  'low_battery',
  'device_fault',
  'open_window',
  /**
   * A room below FROST_CELSIUS for FROST_MINUTES: pipes and radiators may freeze, whatever the
   * valve does, so it is not a setting and does not wait like `not_warming`.
   */
  'frost',
  'not_warming',
  'far_from_setpoint',
  'setpoint_not_delivered',
  'setpoints_stalled',
  /** A room's booking calendar failed to fetch or is older than 24 h (decision 0053). */
  'booking_feed_stale',
  /**
   * A building missed one of its efficiency target values in the last checked month (GEG §71a,
   * decision 0061); open until a month meets them again.
   */
  'efficiency_target_missed',
  /**
   * A heating circuit in mode `on` whose last write to its heat generator failed (decision 0077):
   * opened after the first failed write, clear with the next one that succeeds.
   */
  'generator_write_failed',
] as const;

/**
 * °C below which a room is at risk of frost: below the lowest frost-protection temperature a
 * valve holds (5 °C), water in radiators near an outside wall can freeze within hours.
 */
export const FROST_CELSIUS = 5;
/**
 * Minutes a room must stay below FROST_CELSIUS before the alert opens: long enough for one
 * reading at an open door not to alarm, short enough to act before water freezes.
 */
export const FROST_MINUTES = 15;

/** What a company's alert settings are until it changes them. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  enabled: [...ALERT_KINDS],
  offlineIntervals: 3,
  lowBatteryPercent: 20,
  notWarmingMinutes: 120,
  farFromSetpointKelvin: 3,
  farFromSetpointMinutes: 240,
  undeliveredMinutes: 60,
  clearMinutes: 10,
  repeatHours: 24,
};
