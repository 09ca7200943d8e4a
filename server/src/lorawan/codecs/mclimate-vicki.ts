/**
 * MClimate Vicki LoRaWAN radiator valve.
 *
 * Sources: MClimate "Vicki LoRaWAN device communication protocol" (docs.mclimate.eu, GitHub
 * MClimate/docs: keep-alive.md, set-motor-position-and-update-target-temperature-command-
 * explanation.md, target-temperature-ranges.md), MClimate's decoder in the TTN device repository
 * (TheThingsNetwork/lorawan-devices vendor/mclimate/vicki.js) and MClimate's payload library
 * (MClimate/mclimate-payload-helper: decoder tests, VickiCommands encoder).
 *
 * Keep-alive uplink, 9 bytes (MClimate ignores the fPort; TTN's example uses 1):
 *   0  0x01 (firmware ≤ 3.4) or 0x81 (firmware ≥ 3.5)
 *   1  target temperature, whole °C (5…30)
 *   2  room temperature: 0x01 → t = XX·165/256 − 40; 0x81 → t = (XX − 28.33333)/5.66666
 *   3  relative humidity = XX·100/256 %
 *   4  motor position bits 7:0     5  motor range bits 7:0
 *   6  bits 7:4 motor position 11:8, bits 3:0 motor range 11:8
 *   7  bits 7:4 battery V = 2 + X·0.1; bit 3 open window; bit 2 high motor current;
 *      bit 1 low motor current; bit 0 broken temperature sensor
 *   8  bit 7 child lock (rotary ring disabled); fw ≥ 4.1: bit 6 calibration failed,
 *      bit 5 attached to backplate, bit 4 device thinks it is online
 * Valve opening = (1 − position/range)·100 % (as in vicki.js). Command responses (e.g. `52 HH LL`,
 * the 0.1 °C target) may precede the keep-alive; the keep-alive is then the last 9 bytes.
 *
 * Downlinks: `0E XX` setpoint in whole °C, `51 HH LL` setpoint ·10 (0.1 °C), `08 MIN MAX` target
 * temperature range (wall-control limits, whole °C, 5…30). Several commands may share one
 * downlink (appendix-examples.md); Heizplan appends to the setpoint:
 *   `04` read hardware and software version, answered `04 HW SW` (nibbles major.minor;
 *        read-device-hardware-and-software-version-command-explanation.md);
 *   `49 AA DD TT` anti-freeze: activation and deactivation threshold ·10 (°C), target whole °C;
 *        `4A` reads it back, answered `4A AA DD TT` (anti-freeze-functionality.md, device
 *        defaults 6 / 9 / 7 °C). Heizplan sends it to firmware 4.3 and later only.
 */
import {
  type AntiFreeze,
  byte,
  CodecError,
  type DeviceCodec,
  type DownlinkCommand,
  type Frame,
  type Reading,
  requireRange,
  roundTo,
} from './codec.ts';
import {
  CONFIG_DOWNLINK_LENGTHS,
  decodeConfigAnswer,
  decodeConfigCommand,
  encodeConfigAnswers,
  vickiConfig,
} from './mclimate-vicki-config.ts';

const MODEL = 'mclimate-vicki';
const FPORT = 1;
const KEEP_ALIVE_LENGTH = 9;
/** `08 MIN MAX` bounds (target-temperature-ranges.md: 5 °C … 30 °C). */
const LIMITS = { lower: [5, 30], upper: [5, 30] } satisfies DeviceCodec['limits'];
/** Motor range the simulator reports, in steps (real devices calibrate to a few hundred). */
const SIMULATED_MOTOR_RANGE = 500;

type Variant = 0x01 | 0x81;

/** Payload length after each response command code (from vicki.js `handleResponse`). */
const RESPONSE_LENGTHS = new Map<number, number>([
  [0x04, 2],
  [0x12, 1],
  [0x13, 4],
  [0x14, 1],
  [0x15, 2],
  [0x16, 3],
  [0x17, 2],
  [0x18, 1],
  [0x19, 1],
  [0x1b, 1],
  [0x1d, 2],
  [0x1f, 1],
  [0x21, 6],
  [0x23, 4],
  [0x27, 1],
  [0x28, 1],
  [0x29, 2],
  [0x2b, 1],
  [0x34, 1],
  [0x36, 3],
  [0x3d, 3],
  [0x3f, 2],
  [0x40, 1],
  [0x42, 1],
  [0x44, 2],
  [0x46, 3],
  [0x48, 1],
  [0x4a, 3],
  [0x4d, 2],
  [0x50, 2],
  [0x52, 2],
  [0x54, 1],
  [0x56, 1],
]);

const isKeepAlive = (b: number) => b === 0x01 || b === 0x81;
const bit = (byte: number, n: number) => ((byte >> n) & 1) === 1;

function decodeKeepAlive(b: Uint8Array): Reading {
  const variant = byte(b, 0) as Variant;
  const raw = byte(b, 2);
  const roomTemperature = variant === 0x01 ? (raw * 165) / 256 - 40 : (raw - 28.33333) / 5.66666;
  const position = ((byte(b, 6) >> 4) << 8) | byte(b, 4);
  const range = ((byte(b, 6) & 0x0f) << 8) | byte(b, 5);
  const errors: string[] = [];
  if (bit(byte(b, 7), 2)) errors.push('highMotorConsumption');
  if (bit(byte(b, 7), 1)) errors.push('lowMotorConsumption');
  if (bit(byte(b, 7), 0)) errors.push('brokenSensor');
  // Bits 6:0 of byte 8 are reserved before firmware 4.1, which always sends 0x81.
  if (variant === 0x81 && bit(byte(b, 8), 6)) errors.push('calibrationFailed');
  return {
    roomTemperature: roundTo(roomTemperature, 0.01),
    setpoint: byte(b, 1),
    // A zero motor range means "not calibrated yet": no opening can be derived.
    ...(range > 0 ? { valveOpening: Math.round((1 - position / range) * 100) } : {}),
    humidity: roundTo((byte(b, 3) * 100) / 256, 0.01),
    battery: { value: roundTo(2 + (byte(b, 7) >> 4) * 0.1, 0.1), unit: 'V' },
    openWindow: bit(byte(b, 7), 3),
    childLock: bit(byte(b, 8), 7),
    errors,
  };
}

/**
 * Reads the command responses in front of a keep-alive; the 0.1 °C target (`52 HH LL`), the
 * firmware version (`04`), the anti-freeze settings (`4A`) and the configuration answers
 * (mclimate-vicki-config.ts) are kept. An unknown code has an unknown length, so reading stops there and the keep-alive still
 * counts, as in MClimate's own decoder ("keepalive with undefined response of command").
 */
function decodeResponses(b: Uint8Array): Pick<Reading, 'setpoint' | 'firmware' | 'antiFreeze' | 'config'> {
  const out: Pick<Reading, 'setpoint' | 'firmware' | 'antiFreeze' | 'config'> = {};
  for (let i = 0; i < b.length; ) {
    const code = byte(b, i);
    const length = RESPONSE_LENGTHS.get(code);
    if (length === undefined || i + length >= b.length) break;
    if (code === 0x52) out.setpoint = ((byte(b, i + 1) << 8) | byte(b, i + 2)) / 10;
    if (code === 0x04) out.firmware = `${byte(b, i + 2) >> 4}.${byte(b, i + 2) & 0x0f}`;
    if (code === 0x4a)
      out.antiFreeze = {
        activation: byte(b, i + 1) / 10,
        deactivation: byte(b, i + 2) / 10,
        target: byte(b, i + 3),
      };
    const answer = decodeConfigAnswer(code, b, i);
    if (answer) out.config = { ...out.config, ...answer };
    i += length + 1;
  }
  return out;
}

function decodeUplink(fPort: number, bytes: Uint8Array): Reading {
  if (fPort < 1 || fPort > 223) throw new CodecError(MODEL, `fPort ${fPort} is not an application port.`);
  if (bytes.length < KEEP_ALIVE_LENGTH) {
    throw new CodecError(MODEL, `a keep-alive has ${KEEP_ALIVE_LENGTH} bytes, got ${bytes.length}.`);
  }
  if (isKeepAlive(byte(bytes, 0))) {
    if (bytes.length !== KEEP_ALIVE_LENGTH) {
      throw new CodecError(MODEL, `a keep-alive has ${KEEP_ALIVE_LENGTH} bytes, got ${bytes.length}.`);
    }
    return decodeKeepAlive(bytes);
  }
  const keepAlive = bytes.subarray(bytes.length - KEEP_ALIVE_LENGTH);
  if (!isKeepAlive(byte(keepAlive, 0))) {
    throw new CodecError(MODEL, 'no keep-alive (0x01/0x81) found in the last 9 bytes.');
  }
  const responses = decodeResponses(bytes.subarray(0, bytes.length - KEEP_ALIVE_LENGTH));
  return { ...decodeKeepAlive(keepAlive), ...responses };
}

function required<K extends keyof Reading>(reading: Reading, key: K): NonNullable<Reading[K]> {
  const value = reading[key];
  if (value === undefined) throw new CodecError(MODEL, `${key} is required for an uplink.`);
  return value as NonNullable<Reading[K]>;
}

/**
 * Builds a keep-alive in the layout of firmware `variant` (0x81 unless given).
 * @throws CodecError when a value cannot be represented (room temperature, battery, setpoint).
 */
export function encodeKeepAlive(reading: Reading, variant: Variant = 0x81): Frame {
  const setpoint = Math.round(required(reading, 'setpoint'));
  requireRange(MODEL, 'setpoint', setpoint, 5, 30);
  const t = required(reading, 'roomTemperature');
  const tRaw = variant === 0x01 ? Math.round(((t + 40) * 256) / 165) : Math.round(t * 5.66666 + 28.33333);
  requireRange(MODEL, 'room temperature raw value', tRaw, 0, 255);
  const opening = required(reading, 'valveOpening');
  requireRange(MODEL, 'valve opening', opening, 0, 100);
  const position = Math.round((1 - opening / 100) * SIMULATED_MOTOR_RANGE);
  const battery = required(reading, 'battery');
  if (battery.unit !== 'V') throw new CodecError(MODEL, 'battery must be given in V.');
  const batteryRaw = Math.round((battery.value - 2) / 0.1);
  requireRange(MODEL, 'battery raw value', batteryRaw, 0, 15);
  const errors = new Set(reading.errors);
  const humidity = Math.min(255, Math.round(((reading.humidity ?? 50) * 256) / 100));
  const byte7 =
    (batteryRaw << 4) |
    (reading.openWindow ? 0x08 : 0) |
    (errors.has('highMotorConsumption') ? 0x04 : 0) |
    (errors.has('lowMotorConsumption') ? 0x02 : 0) |
    (errors.has('brokenSensor') ? 0x01 : 0);
  // Newer firmware also reports "attached to backplate" and "online"; a healthy valve sets both.
  const byte8 =
    (reading.childLock ? 0x80 : 0) |
    (variant === 0x81 ? (errors.has('calibrationFailed') ? 0x40 : 0) | 0x30 : 0);
  const keepAlive = Uint8Array.of(
    variant,
    setpoint,
    tRaw,
    humidity,
    position & 0xff,
    SIMULATED_MOTOR_RANGE & 0xff,
    ((position >> 8) << 4) | (SIMULATED_MOTOR_RANGE >> 8),
    byte7,
    byte8,
  );
  return { fPort: FPORT, bytes: Uint8Array.from([...encodeResponses(reading), ...keepAlive]) };
}

/** The answers to `04`, `4A` and the configuration queries a reading carries, in front of its keep-alive (hardware 2.6). */
function encodeResponses({ firmware, antiFreeze, config }: Reading): number[] {
  const out: number[] = [];
  if (firmware !== undefined) {
    const [major = 0, minor = 0] = firmware.split('.').map(Number);
    out.push(0x04, 0x26, ((major & 0x0f) << 4) | (minor & 0x0f));
  }
  if (antiFreeze) out.push(0x4a, ...encodeAntiFreeze(antiFreeze).subarray(1));
  if (config) out.push(...encodeConfigAnswers(config));
  return out;
}

/** `49 AA DD TT`; @throws CodecError outside the byte range or with activation not below deactivation. */
function encodeAntiFreeze({ activation, deactivation, target }: AntiFreeze): Uint8Array {
  requireRange(MODEL, 'anti-freeze activation', activation, 0, 25.5);
  requireRange(MODEL, 'anti-freeze deactivation', deactivation, 0, 25.5);
  requireRange(MODEL, 'anti-freeze target', target, 5, 30);
  if (activation >= deactivation) {
    throw new CodecError(
      MODEL,
      `anti-freeze activation ${activation} is not below deactivation ${deactivation}.`,
    );
  }
  return Uint8Array.of(0x49, Math.round(activation * 10), Math.round(deactivation * 10), Math.round(target));
}

function encodeSetpoint(celsius: number): Frame {
  requireRange(MODEL, 'setpoint', celsius, 5, 30);
  const tenths = Math.round(celsius * 10);
  // Whole degrees use 0x0E, which every firmware understands; 0x51 carries 0.1 °C.
  const bytes =
    tenths % 10 === 0 ? Uint8Array.of(0x0e, tenths / 10) : Uint8Array.of(0x51, tenths >> 8, tenths & 0xff);
  return { fPort: FPORT, bytes };
}

function encodeLimits(min: number, max: number): Frame {
  requireRange(MODEL, 'lower limit', min, ...LIMITS.lower);
  requireRange(MODEL, 'upper limit', max, ...LIMITS.upper);
  if (min > max) throw new CodecError(MODEL, `lower limit ${min} is above upper limit ${max}.`);
  return { fPort: FPORT, bytes: Uint8Array.of(0x08, Math.round(min), Math.round(max)) };
}

/** Argument bytes after each downlink command code Heizplan sends. */
const DOWNLINK_LENGTHS = new Map<number, number>([
  [0x0e, 1],
  [0x51, 2],
  [0x08, 2],
  [0x04, 0],
  [0x49, 3],
  [0x4a, 0],
  ...CONFIG_DOWNLINK_LENGTHS,
]);

function decodeDownlink(_fPort: number, b: Uint8Array): DownlinkCommand {
  const out: DownlinkCommand = {};
  const queries: NonNullable<DownlinkCommand['queries']> = [];
  const configured = { config: {}, queries, recalibrate: false };
  for (let i = 0; i < b.length; ) {
    const code = byte(b, i);
    const need = DOWNLINK_LENGTHS.get(code);
    if (need === undefined || i + need >= b.length) {
      throw new CodecError(MODEL, `unsupported or truncated downlink command 0x${code.toString(16)}.`);
    }
    if (code === 0x0e) out.setpoint = byte(b, i + 1);
    if (code === 0x51) out.setpoint = ((byte(b, i + 1) << 8) | byte(b, i + 2)) / 10;
    if (code === 0x08) {
      out.limits = { min: byte(b, i + 1), max: byte(b, i + 2) };
      out.config = { ...out.config, temperatureRange: out.limits };
    }
    decodeConfigCommand(code, b, i, configured);
    if (code === 0x49)
      out.antiFreeze = {
        activation: byte(b, i + 1) / 10,
        deactivation: byte(b, i + 2) / 10,
        target: byte(b, i + 3),
      };
    if (code === 0x04) queries.push('firmware');
    if (code === 0x4a) queries.push('antiFreeze');
    i += need + 1;
  }
  if (Object.keys(configured.config).length > 0) out.config = { ...out.config, ...configured.config };
  if (configured.recalibrate) out.recalibrate = true;
  return queries.length > 0 ? { ...out, queries } : out;
}

export const mclimateVicki: DeviceCodec = {
  model: MODEL,
  vendor: 'MClimate',
  name: 'Vicki LoRaWAN',
  kind: 'valve',
  // MClimate's default keep-alive period is 10 minutes; below 2.7 V the motor no longer runs reliably.
  reportIntervalS: 600,
  lowBatteryVolts: 2.7,
  setpoint: { min: 5, max: 30, step: 0.1 },
  limits: LIMITS,
  decodeUplink,
  encodeUplink: (reading) => encodeKeepAlive(reading),
  encodeSetpoint,
  encodeLimits,
  decodeDownlink,
  firmwareQuery: Uint8Array.of(0x04),
  antiFreeze: { minFirmware: '4.3', encode: encodeAntiFreeze, query: Uint8Array.of(0x4a) },
  config: vickiConfig,
};
