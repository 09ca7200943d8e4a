/**
 * Device profiles as desired state (docs/decisions/0062): which configuration commands a device
 * owes — the fields its profile asks for that it has not reported back — and which of them may
 * go now without the device passing its daily airtime budget (airtime.ts). The commands ride
 * behind the setpoint in a setpoint downlink, so setpoints always come first; each one is
 * followed by the query that makes the device report the value, and a field counts as set once
 * the device reported it (`devices.reported_config`).
 */
import type { DeviceConfig, ReportedConfig } from '@heizplan/contracts/device-profiles';
import type { Device } from '@heizplan/contracts/devices';
import {
  fittingIntervalMinutes,
  frameAirtimeMs,
  maxPayloadBytes,
  UNKNOWN_SF,
  uplinkAirtimePerDayMs,
} from './airtime.ts';
import type { ConfigField, DeviceCodec, Reading } from './codecs/codec.ts';
import { atLeast } from './device-settings.ts';

/** The order fields are sent in when not all fit at once: what users notice first goes first. */
export const CONFIG_FIELDS: readonly ConfigField[] = [
  'childLock',
  'childLockKeptOffline',
  'temperatureRange',
  'openWindow',
  'temperatureOffset',
  'keepAliveMinutes',
];

/** Uplink size assumed until a device's first uplink tells it, bytes (a Vicki keep-alive is 9). */
const UNKNOWN_UPLINK_BYTES = 12;
/** Bytes an answer adds to the next uplink per queried field, at most (`46 EN DD TT`). */
const ANSWER_BYTES = 4;

/** What is known of one device for its configuration. */
export interface DeviceConfigState {
  firmware: string | null;
  /** The configuration its profile asks for; null without a profile. */
  desired: DeviceConfig | null;
  reported: ReportedConfig;
  /** Of its last uplink; null before the first. */
  spreadingFactor: number | null;
  uplinkBytes: number | null;
  /** Application payload sizes of the downlinks sent to it in the last 24 hours, bytes. */
  downlinkBytesToday: number[];
  /** A motor recalibration was asked for and is not sent yet. */
  recalibrate?: boolean;
}

/** Where a device's configuration stands against its profile. */
export type ConfigStatus = 'in_sync' | 'pending' | 'differs' | 'none';

export interface ConfigDifferences {
  /** Fields that differ and can be sent. */
  due: ConfigField[];
  /** Fields that differ but wait for the firmware version to be known. */
  waiting: ConfigField[];
  /** Fields that differ and the model or its firmware cannot take. */
  unsupported: ConfigField[];
}

/** Answers of `configDifferences` by desired and reported configuration (shared objects), model and firmware. */
const remembered = new WeakMap<object, WeakMap<object, Map<string, ConfigDifferences>>>();

/**
 * The fields of `state.desired` the device has not reported as set. Remembered per desired and
 * reported object (device-config.repository.ts shares them), so a fleet in a few states costs
 * a few comparisons, not five per device; treat the answer as read-only.
 */
export function configDifferences(codec: DeviceCodec, state: DeviceConfigState): ConfigDifferences {
  const { desired, reported } = state;
  if (!desired) return compareConfig(codec, state);
  const byReported = remembered.get(desired) ?? new WeakMap<object, Map<string, ConfigDifferences>>();
  remembered.set(desired, byReported);
  const byDevice = byReported.get(reported) ?? new Map<string, ConfigDifferences>();
  byReported.set(reported, byDevice);
  const key = `${codec.model}|${state.firmware}`;
  let answer = byDevice.get(key);
  if (!answer) {
    answer = compareConfig(codec, state);
    byDevice.set(key, answer);
  }
  return answer;
}

function compareConfig(codec: DeviceCodec, state: DeviceConfigState): ConfigDifferences {
  const out: ConfigDifferences = { due: [], waiting: [], unsupported: [] };
  const { desired } = state;
  if (!desired || !codec.config) return out;
  for (const field of CONFIG_FIELDS) {
    const reported = state.reported[field];
    if (
      reported !== undefined &&
      codec.config.fields[field] &&
      codec.config.same(field, desired[field], reported)
    ) {
      continue;
    }
    const support = codec.config.fields[field];
    if (!support) out.unsupported.push(field);
    else if (!support.minFirmware) out.due.push(field);
    else if (state.firmware === null) out.waiting.push(field);
    else if (atLeast(state.firmware, support.minFirmware)) out.due.push(field);
    else out.unsupported.push(field);
  }
  return out;
}

/** Reporting interval the device runs now, s: as it reported it, else the model's default. */
export const reportIntervalS = (codec: DeviceCodec, reported: ReportedConfig) =>
  reported.keepAliveMinutes !== undefined ? reported.keepAliveMinutes * 60 : codec.reportIntervalS;

/** Airtime the device used or will use today, ms: its uplinks at the current interval and the downlinks sent. */
export function airtimeToday(
  codec: DeviceCodec,
  state: DeviceConfigState,
): { uplinkMs: number; downlinkMs: number } {
  const sf = state.spreadingFactor ?? UNKNOWN_SF;
  return {
    uplinkMs: uplinkAirtimePerDayMs(
      sf,
      state.uplinkBytes ?? UNKNOWN_UPLINK_BYTES,
      reportIntervalS(codec, state.reported),
    ),
    downlinkMs: state.downlinkBytesToday.reduce((sum, bytes) => sum + frameAirtimeMs(sf, bytes), 0),
  };
}

/**
 * What a downlink of `setpointBytes` plus `configBytes` (asking `queries` fields back) costs the
 * device, ms: the downlink's airtime and the longer uplink that carries the answers.
 */
export function downlinkCostMs(state: DeviceConfigState, frameBytes: number, queries: number): number {
  const sf = state.spreadingFactor ?? UNKNOWN_SF;
  const uplink = state.uplinkBytes ?? UNKNOWN_UPLINK_BYTES;
  return (
    frameAirtimeMs(sf, frameBytes) +
    frameAirtimeMs(sf, uplink + queries * ANSWER_BYTES) -
    frameAirtimeMs(sf, uplink)
  );
}

/**
 * The configuration commands to append to a setpoint downlink of `setpointBytes`: the due fields
 * in `CONFIG_FIELDS` order, as many as fit the payload size at the device's spreading factor
 * and keep the day's airtime (uplinks, downlinks sent, this frame and the answers) within
 * `budgetMs`, and the fields they set — after a motor recalibration someone asked for, which
 * goes first. Empty when nothing is due or nothing fits.
 */
export function planConfig(
  codec: DeviceCodec,
  state: DeviceConfigState,
  budgetMs: number,
  setpointBytes: number,
): { bytes: Uint8Array; fields: ConfigField[]; recalibrate: boolean } {
  const { due } = configDifferences(codec, state);
  const fields: ConfigField[] = [];
  const recalibrate = state.recalibrate === true ? codec.config?.recalibrate : undefined;
  const none = { bytes: new Uint8Array(), fields, recalibrate: false };
  if ((due.length === 0 && !recalibrate) || !codec.config) return none;
  const { uplinkMs, downlinkMs } = airtimeToday(codec, state);
  const limit = maxPayloadBytes(state.spreadingFactor ?? UNKNOWN_SF);
  const fits = (frame: number, answers: number) =>
    frame <= limit && uplinkMs + downlinkMs + downlinkCostMs(state, frame, answers) <= budgetMs;
  const chosen: number[] = [];
  // A recalibration someone asked for goes first; it has no answer.
  const recalibrating = recalibrate !== undefined && fits(setpointBytes + recalibrate.length, 0);
  if (recalibrating) chosen.push(...recalibrate);
  const desired = state.desired;
  for (const field of desired ? due : []) {
    const bytes = codec.config.encode(field, (desired as DeviceConfig)[field]);
    // Every field counts as answered in the next uplink: an upper bound for fields every uplink reports.
    if (!fits(setpointBytes + chosen.length + bytes.length, fields.length + 1)) continue;
    chosen.push(...bytes);
    fields.push(field);
  }
  return { bytes: Uint8Array.from(chosen), fields, recalibrate: recalibrating };
}

/** The bytes of `planConfig`. */
export const configCommands = (
  codec: DeviceCodec,
  state: DeviceConfigState,
  budgetMs: number,
  setpointBytes: number,
): Uint8Array => planConfig(codec, state, budgetMs, setpointBytes).bytes;

/**
 * Where the device's configuration stands: `none` without a profile (or a model without
 * configuration commands), `in_sync` when it reported every field as its profile asks,
 * `pending` while fields are on their way or can still go today, `differs` when what differs
 * cannot be sent (the model or firmware lacks it, or today's airtime is spent).
 */
export function configStatus(
  codec: DeviceCodec,
  state: DeviceConfigState,
  budgetMs: number,
  setpointBytes: number,
): { status: ConfigStatus; differences: ConfigDifferences; budgetSpent: boolean } {
  const differences = configDifferences(codec, state);
  if (!state.desired || !codec.config) return { status: 'none', differences, budgetSpent: false };
  const open = differences.due.length + differences.waiting.length;
  if (open === 0) {
    return {
      status: differences.unsupported.length > 0 ? 'differs' : 'in_sync',
      differences,
      budgetSpent: false,
    };
  }
  const budgetSpent =
    differences.due.length > 0 && configCommands(codec, state, budgetMs, setpointBytes).length === 0;
  return {
    status: budgetSpent && differences.waiting.length === 0 ? 'differs' : 'pending',
    differences,
    budgetSpent,
  };
}

/** Bytes of the setpoint command a configuration downlink starts with (`51 HH LL`, the longest). */
export const SETPOINT_BYTES = 3;
/** Airtime kept free for setpoint downlinks when suggesting a keep-alive: one an hour at the longest, ms. */
const SETPOINT_RESERVE_FRAMES = 24;

const seconds = (ms: number) => Math.round(ms) / 1000;

/** What the devices table shows of a device's configuration and airtime against `budgetMs` a day. */
export function configSummary(
  codec: DeviceCodec,
  state: DeviceConfigState & { profileName: string | null },
  budgetMs: number,
): Pick<Device, 'config' | 'airtime'> {
  const { status, differences, budgetSpent } = configStatus(codec, state, budgetMs, SETPOINT_BYTES);
  const { uplinkMs, downlinkMs } = airtimeToday(codec, state);
  const sf = state.spreadingFactor ?? UNKNOWN_SF;
  const uplinkBytes = state.uplinkBytes ?? UNKNOWN_UPLINK_BYTES;
  const desired = state.desired?.keepAliveMinutes;
  const reserve = SETPOINT_RESERVE_FRAMES * frameAirtimeMs(sf, SETPOINT_BYTES);
  const overBudget =
    desired !== undefined &&
    codec.config?.fields.keepAliveMinutes !== undefined &&
    uplinkAirtimePerDayMs(sf, uplinkBytes, desired * 60) + reserve > budgetMs;
  const differs = [...differences.due, ...differences.waiting, ...differences.unsupported];
  return {
    config: {
      status,
      profileName: state.profileName,
      differs,
      reason: status !== 'differs' ? null : budgetSpent ? 'budget' : 'unsupported',
      recalibrating: state.recalibrate === true,
      canRecalibrate: codec.config?.recalibrate !== undefined,
    },
    airtime: {
      spreadingFactor: state.spreadingFactor,
      uplinkPerDayS: seconds(uplinkMs),
      downlinkTodayS: seconds(downlinkMs),
      budgetS: seconds(budgetMs),
      keepAliveOverBudget:
        overBudget && desired !== undefined
          ? { desired, fits: fittingIntervalMinutes(sf, uplinkBytes, budgetMs, reserve) }
          : null,
    },
  };
}

/**
 * The devices among `uplinks` that answered a query (firmware, frost protection, configuration):
 * what they owe next — the settings their firmware allows, the fields left — may go at once
 * instead of at the next full reconcile.
 */
export function answeringDevices(uplinks: { device: { id: string }; reading?: Reading }[]): string[] {
  const ids = uplinks
    .filter(
      ({ reading }) => reading && (reading.firmware !== undefined || reading.antiFreeze || reading.config),
    )
    .map((u) => u.device.id);
  return [...new Set(ids)];
}
