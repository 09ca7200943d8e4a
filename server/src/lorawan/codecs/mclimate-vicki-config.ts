/**
 * The Vicki's configuration commands for device profiles (docs/decisions/0062), with the
 * queries that read each value back and the answers' layout.
 *
 * Sources: MClimate "Vicki LoRaWAN device communication protocol" (docs.mclimate.eu) and
 * MClimate's payload library (mclimate-payload-helper: VickiCommands, GeneralCommands,
 * ChildLockCommands, TemperatureCommonCommands and their tests, the vectors of
 * mclimate-vicki-config.test.ts):
 *   `02 MM`        keep-alive period, minutes (1…255); `12` asks, answered `12 MM`
 *   `45 EN DD TT`  open-window detection with 0.1 K resolution (firmware 4.2 and later): enabled
 *                  (bit 0), closed for DD·5 minutes, triggered by a drop of TT/10 K within a
 *                  minute; `46` asks, answered `46 EN DD TT`
 *   `07 0X`        child lock (rotary ring disabled) on 01 / off 00; every keep-alive reports it
 *   `35 0X`        child lock while the valve is offline (firmware 4.1 and later): released 00
 *                  (factory) / kept 01; `34` asks, answered `34 0X`
 *   `08 MIN MAX`   range the rotary ring may set, whole °C (5…30); `15` asks, answered `15 MIN MAX`
 *   `53 XX`        temperature offset, XX = round((offset + 4.928) / 0.176); `54` asks,
 *                  answered `54 XX`
 *   `03`           recalibrate the motor
 */
import type { DeviceConfig, ReportedConfig } from '@heizplan/contracts/device-profiles';
import {
  byte,
  CodecError,
  type ConfigCommands,
  type ConfigField,
  type DownlinkQuery,
  requireRange,
} from './codec.ts';

const MODEL = 'mclimate-vicki';
const OFFSET_STEP = 0.176;
const OFFSET_ZERO = 4.928;

const offsetRaw = (offset: number) => Math.round((offset + OFFSET_ZERO) / OFFSET_STEP);
const offsetFromRaw = (raw: number) => Number((raw * OFFSET_STEP - OFFSET_ZERO).toFixed(3));

/** Query command and the answer's code per field the Vicki reads back. */
const QUERIES = {
  keepAliveMinutes: 0x12,
  openWindow: 0x46,
  childLockKeptOffline: 0x34,
  temperatureRange: 0x15,
  temperatureOffset: 0x54,
} as const;

function encodeField<F extends ConfigField>(field: F, value: DeviceConfig[F]): number[] {
  switch (field) {
    case 'keepAliveMinutes': {
      const minutes = value as DeviceConfig['keepAliveMinutes'];
      requireRange(MODEL, 'keep-alive minutes', minutes, 1, 255);
      return [0x02, Math.round(minutes)];
    }
    case 'openWindow': {
      const { enabled, durationMinutes, deltaK } = value as DeviceConfig['openWindow'];
      requireRange(MODEL, 'open-window duration', durationMinutes, 5, 1275);
      requireRange(MODEL, 'open-window delta', deltaK, 0.1, 25.5);
      return [0x45, enabled ? 1 : 0, Math.floor(durationMinutes / 5), Math.round(deltaK * 10)];
    }
    case 'childLock':
      return [0x07, value ? 1 : 0];
    case 'childLockKeptOffline':
      return [0x35, value ? 1 : 0];
    case 'temperatureRange': {
      const { min, max } = value as DeviceConfig['temperatureRange'];
      requireRange(MODEL, 'range minimum', min, 5, 30);
      requireRange(MODEL, 'range maximum', max, 5, 30);
      if (min > max) throw new CodecError(MODEL, `range minimum ${min} is above maximum ${max}.`);
      return [0x08, Math.round(min), Math.round(max)];
    }
    case 'temperatureOffset': {
      const offset = value as DeviceConfig['temperatureOffset'];
      requireRange(MODEL, 'temperature offset', offset, -4.9, 4.9);
      return [0x53, offsetRaw(offset)];
    }
    default:
      throw new CodecError(MODEL, `the device has no ${String(field)} setting.`);
  }
}

export const vickiConfig: ConfigCommands = {
  // MClimate's defaults: 10-minute keep-alive, open-window detection off, ring free over 5–30 °C.
  factory: {
    keepAliveMinutes: 10,
    openWindow: { enabled: false, durationMinutes: 10, deltaK: 1 },
    childLock: false,
    childLockKeptOffline: false,
    temperatureRange: { min: 5, max: 30 },
    temperatureOffset: 0,
  },
  fields: {
    keepAliveMinutes: {},
    openWindow: { minFirmware: '4.2' },
    childLock: {},
    childLockKeptOffline: { minFirmware: '4.1' },
    temperatureRange: {},
    temperatureOffset: {},
  },
  encode(field, value) {
    const query = (QUERIES as Partial<Record<ConfigField, number>>)[field];
    return Uint8Array.from([...encodeField(field, value), ...(query === undefined ? [] : [query])]);
  },
  same(field, desired, reported) {
    // Equal when the device would be sent the same bytes for both.
    return encodeField(field, desired).join() === encodeField(field, reported).join();
  },
  recalibrate: Uint8Array.of(0x03),
};

/** Argument bytes after each configuration command and query, for decoding downlinks. */
export const CONFIG_DOWNLINK_LENGTHS: [number, number][] = [
  [0x02, 1],
  [0x12, 0],
  [0x45, 3],
  [0x46, 0],
  [0x07, 1],
  [0x35, 1],
  [0x34, 0],
  [0x15, 0],
  [0x53, 1],
  [0x54, 0],
  [0x03, 0],
];

const QUERY_BY_CODE = new Map<number, DownlinkQuery>(
  Object.entries(QUERIES).map(([field, code]) => [code, field as DownlinkQuery]),
);

/**
 * Reads one configuration command of a downlink (the simulator's device side) into `config`,
 * `queries` and `flags`. @returns false when `code` is not a configuration command.
 */
export function decodeConfigCommand(
  code: number,
  b: Uint8Array,
  at: number,
  out: { config: ReportedConfig; queries: DownlinkQuery[]; recalibrate: boolean },
): boolean {
  const query = QUERY_BY_CODE.get(code);
  if (query) out.queries.push(query);
  else if (code === 0x02) out.config.keepAliveMinutes = byte(b, at + 1);
  else if (code === 0x45) out.config.openWindow = openWindowFrom(b, at);
  else if (code === 0x07) out.config.childLock = byte(b, at + 1) === 1;
  else if (code === 0x35) out.config.childLockKeptOffline = byte(b, at + 1) === 1;
  else if (code === 0x53) out.config.temperatureOffset = offsetFromRaw(byte(b, at + 1));
  else if (code === 0x03) out.recalibrate = true;
  else return false;
  return true;
}

function openWindowFrom(b: Uint8Array, at: number): DeviceConfig['openWindow'] {
  return {
    enabled: (byte(b, at + 1) & 1) === 1,
    durationMinutes: byte(b, at + 2) * 5,
    deltaK: byte(b, at + 3) / 10,
  };
}

/** The configuration an answer (`12`, `46`, `34`, `15`, `54` and their arguments) reports; null for other codes. */
export function decodeConfigAnswer(code: number, b: Uint8Array, at: number): ReportedConfig | null {
  if (code === 0x12) return { keepAliveMinutes: byte(b, at + 1) };
  if (code === 0x34) return { childLockKeptOffline: byte(b, at + 1) === 1 };
  if (code === 0x46) return { openWindow: openWindowFrom(b, at) };
  if (code === 0x15) return { temperatureRange: { min: byte(b, at + 1), max: byte(b, at + 2) } };
  if (code === 0x54) return { temperatureOffset: offsetFromRaw(byte(b, at + 1)) };
  return null;
}

/** The answers a simulated Vicki sends for `config` (only the fields it was asked for). */
export function encodeConfigAnswers(config: ReportedConfig): number[] {
  const out: number[] = [];
  if (config.keepAliveMinutes !== undefined) out.push(0x12, config.keepAliveMinutes);
  if (config.openWindow) out.push(0x46, ...encodeField('openWindow', config.openWindow).slice(1));
  if (config.childLockKeptOffline !== undefined) out.push(0x34, config.childLockKeptOffline ? 1 : 0);
  if (config.temperatureRange)
    out.push(0x15, ...encodeField('temperatureRange', config.temperatureRange).slice(1));
  if (config.temperatureOffset !== undefined) out.push(0x54, offsetRaw(config.temperatureOffset));
  return out;
}
