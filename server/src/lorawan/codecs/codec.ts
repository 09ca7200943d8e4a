/**
 * The shape every vendor codec implements: uplink bytes → one common `Reading`, setpoint and
 * wall-control limits → downlink bytes, and (for the simulator) a `Reading` → uplink bytes in the
 * vendor's real layout. Byte layouts are documented in each `<vendor>-<model>.ts` with the vendor
 * document they come from.
 */

import type { DeviceConfig, ReportedConfig } from '@heizplan/contracts/device-profiles';
import { DEVICE_MODELS, type DeviceModel } from '@heizplan/contracts/devices';

/** Model ids of the codec registry; stored as `devices.model` ("config type" in spec §3). */
export const MODEL_IDS = DEVICE_MODELS;
export type ModelId = DeviceModel;

/** Battery as the device reports it: cell voltage in V or state of charge in %. */
export interface Battery {
  value: number;
  unit: 'V' | '%';
}

/**
 * One decoded uplink in Heizplan's field terms. A field is absent when the device (or this
 * uplink) does not report it; `errors` lists device fault flags as stable camelCase codes
 * (e.g. `brokenSensor`, `motorError`), empty when none is set.
 */
export interface Reading {
  /** Room temperature measured or estimated by the device, °C. */
  roomTemperature?: number;
  /** Setpoint (target temperature) the device is currently regulating to, °C. */
  setpoint?: number;
  /** Valve opening, % (0 = closed, 100 = fully open). */
  valveOpening?: number;
  /** Supply (flow) temperature at the radiator, °C. */
  supplyTemperature?: number;
  /** Relative humidity, %. */
  humidity?: number;
  /** CO₂ concentration, ppm. */
  co2?: number;
  battery?: Battery;
  openWindow?: boolean;
  childLock?: boolean;
  errors: string[];
  /** Firmware version "major.minor", when the uplink answers a firmware query. */
  firmware?: string;
  /** The device's own frost protection, when the uplink answers a query for it. */
  antiFreeze?: AntiFreeze;
  /** Configuration the uplink reports (answers to configuration queries), field by field. */
  config?: ReportedConfig;
  /** A relay controller's relays, closed (true) or open, where its uplink reports them. */
  relays?: { ro1Closed: boolean; ro2Closed: boolean };
}

/**
 * Frost protection a valve runs by itself, without the network server: below `activation` °C
 * (room, measured by the valve) it regulates to `target` °C until the room is above
 * `deactivation` °C, then it restores its previous setpoint.
 */
export interface AntiFreeze {
  /** °C, 0.1 resolution */
  activation: number;
  /** °C, 0.1 resolution, above `activation` */
  deactivation: number;
  /** °C, whole degrees */
  target: number;
}

/** A LoRaWAN application payload with its port, ready for the network server's downlink queue. */
export interface Frame {
  fPort: number;
  bytes: Uint8Array;
}

/** What a setpoint/limits downlink asks of the device; returned by `decodeDownlink`. */
export interface DownlinkCommand {
  /** °C */
  setpoint?: number;
  /** Wall-control limits, °C. */
  limits?: { min: number; max: number };
  /** The device's own frost protection to set. */
  antiFreeze?: AntiFreeze;
  /** Configuration fields to set (device profiles). */
  config?: ReportedConfig;
  /** Recalibrate the motor (one-off). */
  recalibrate?: boolean;
  /** Questions the device answers in its next uplink. */
  queries?: DownlinkQuery[];
}

/** A configuration field of a device profile (contracts: DeviceConfig). */
export type ConfigField = keyof DeviceConfig;

/** What a downlink may ask the device to report in its next uplink. */
export type DownlinkQuery = 'firmware' | 'antiFreeze' | ConfigField;

/**
 * The configuration commands a model takes (device profiles, docs/decisions/0062). Each field
 * is set by its own command, followed by the query that makes the device report it back; a
 * field every uplink reports (a Vicki's child lock) needs no query.
 */
export interface ConfigCommands {
  /** The configuration the model is delivered with (the profile form's starting point). */
  factory: DeviceConfig;
  /** The fields the model can set, each with the firmware it needs ("major.minor"), if any. */
  fields: Partial<Record<ConfigField, { minFirmware?: string }>>;
  /**
   * Bytes that set `field` to `value` and ask for it back, appended to a setpoint downlink.
   * @throws CodecError for a field the model lacks or a value it cannot take.
   */
  encode<F extends ConfigField>(field: F, value: DeviceConfig[F]): Uint8Array;
  /** Whether a reported value is what `encode(field, desired)` sets (the device's resolution). */
  same<F extends ConfigField>(field: F, desired: DeviceConfig[F], reported: DeviceConfig[F]): boolean;
  /** One-off motor recalibration command; absent where the model has none. */
  recalibrate?: Uint8Array;
}

/** Thrown for malformed or undecodable payloads and for values a device cannot take. */
export class CodecError extends Error {
  constructor(
    public readonly model: string,
    message: string,
  ) {
    super(`${model}: ${message}`);
    this.name = 'CodecError';
  }
}

export interface DeviceCodec {
  model: ModelId;
  vendor: string;
  name: string;
  kind: 'valve' | 'sensor' | 'relay';
  /** Seconds between the device's regular uplinks in its default configuration (keep-alive). */
  reportIntervalS: number;
  /** A battery reported in V below this is low (alerts); devices reporting % use the company's threshold. */
  lowBatteryVolts?: number;
  /** Setpoint range and step the device accepts, °C; absent for devices without a setpoint. */
  setpoint?: { min: number; max: number; step: number };
  /** Ranges of the lower and upper wall-control limit the device accepts, whole °C; absent without such a command. */
  limits?: { lower: [number, number]; upper: [number, number] };
  /** @throws CodecError for a payload that does not match the vendor's layout. */
  decodeUplink(fPort: number, bytes: Uint8Array): Reading;
  /** Vendor-format uplink for `reading` (used by the simulator). @throws CodecError on out-of-range values. */
  encodeUplink(reading: Reading): Frame;
  /** @throws CodecError when the device has no setpoint or the value is outside `setpoint`. */
  encodeSetpoint(celsius: number): Frame;
  /** @throws CodecError when the device has no limits command or the values are outside `limits`. */
  encodeLimits(min: number, max: number): Frame;
  /** Reads back a downlink built by this codec's encoders (the simulator's device side). */
  decodeDownlink(fPort: number, bytes: Uint8Array): DownlinkCommand;
  /**
   * Commands appended to a setpoint downlink (same fPort) asking for the firmware version,
   * answered in the device's next uplink (`Reading.firmware`); absent where the model has none.
   */
  firmwareQuery?: Uint8Array;
  /**
   * The device's own frost protection, for firmware `minFirmware` ("major.minor") and later:
   * `encode` sets it, `query` asks for it back (`Reading.antiFreeze`); absent where the model has
   * none. Both are appended to a setpoint downlink.
   */
  antiFreeze?: {
    minFirmware: string;
    /** @throws CodecError for values the device cannot take. */
    encode(settings: AntiFreeze): Uint8Array;
    query: Uint8Array;
  };
  /** Configuration commands for device profiles; absent where the model takes none. */
  config?: ConfigCommands;
}

/** Parses hex (spaces, colons and a 0x prefix allowed) into bytes. @throws CodecError on bad hex. */
export function hexToBytes(hex: string, model = 'codec'): Uint8Array {
  const clean = hex.replace(/^0x/i, '').replace(/[\s:]/g, '');
  if (clean.length === 0 || clean.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(clean)) {
    throw new CodecError(model, `'${hex}' is not an even number of hex digits.`);
  }
  return Uint8Array.from(clean.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
}

export const bytesToHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Rounds `value` to a multiple of `step` without floating-point tails (0.1 + 0.2 style). */
export const roundTo = (value: number, step: number) => {
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number((Math.round(value / step) * step).toFixed(digits));
};

/** The setpoint a device with `range` takes for `celsius`: clamped to min…max, rounded to its step (°C). */
export const deviceSetpoint = (range: { min: number; max: number; step: number }, celsius: number) =>
  roundTo(Math.min(range.max, Math.max(range.min, celsius)), range.step);

/** Throws a CodecError unless `min <= value <= max` and `value` is a finite number. */
export function requireRange(model: string, what: string, value: number, min: number, max: number) {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new CodecError(model, `${what} ${value} is outside ${min}…${max}.`);
  }
}

/** Shared guard for models without a setpoint or limits command. */
export function unsupported(model: string, what: string): never {
  throw new CodecError(model, `the device does not support ${what}.`);
}

/**
 * Byte `i` of `b`. Decoders check lengths before reading, so a read past the end is a bug in the
 * decoder: it throws a RangeError instead of yielding `undefined`.
 */
export function byte(b: Uint8Array, i: number): number {
  const value = b[i];
  if (value === undefined) throw new RangeError(`byte ${i} is past the end of a ${b.length}-byte payload`);
  return value;
}
