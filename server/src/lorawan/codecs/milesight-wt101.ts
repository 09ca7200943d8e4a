/**
 * Milesight WT101 smart radiator thermostat.
 *
 * Sources: Milesight-IoT/SensorDecoders WT_Series/WT101 (README payload table, WT101_Decoder.js,
 * WT101_Encoder.js) and the TTN device repository vendor/milesight-iot/wt101-codec.yaml
 * (uplink example on fPort 85).
 *
 * Uplink: a sequence of channel-id, channel-type, value; multi-byte values little-endian.
 *   01 75  battery, uint8 %             03 67  room temperature, int16 /10 °C
 *   04 67  setpoint, int16 /10 °C        05 92  valve opening, uint8 %
 *   06 00  installation (1 = uninstalled) 07 00  window (1 = open)
 *   08 E5  motor calibration (0 ok, 1 out of range, 2 uninstalled, 3 cleared, 4 control off)
 *   09 90  motor stroke, uint16           0A 00  freeze protection (1 = triggered)
 *   0B 90  motor position, uint16         FF xx / FE xx / F8 xx / F9 xx  device info and
 *   replies to downlinks (lengths from WT101_Decoder.js; `FF B1` carries the setpoint as int8 °C).
 *
 * Downlinks (fPort 85): `FF B1 <int8 °C> <uint16 LE tolerance·10>` setpoint,
 * `F9 35 <min> <max>` target temperature range (min 5…15 °C, max 16…35 °C, firmware ≥ 1.3).
 */
import {
  byte,
  CodecError,
  type DeviceCodec,
  type DownlinkCommand,
  type Frame,
  type Reading,
  requireRange,
} from './codec.ts';

const MODEL = 'milesight-wt101';
const FPORT = 85;
/** Hysteresis sent with every setpoint, °C: our choice, the encoder requires a value. */
const TOLERANCE = 1;
/** Target temperature range bounds (WT101_Encoder.js setTargetTemperatureRange). */
const LIMITS = { lower: [5, 15], upper: [16, 35] } satisfies DeviceCodec['limits'];

/** Value length per `channelId << 8 | channelType` (WT101_Decoder.js). */
const LENGTHS = new Map<number, number>([
  [0x0175, 1],
  [0x0367, 2],
  [0x0467, 2],
  [0x0592, 1],
  [0x0600, 1],
  [0x0700, 1],
  [0x08e5, 1],
  [0x0990, 2],
  [0x0a00, 1],
  [0x0b90, 2],
  [0xf933, 7],
  [0xf934, 9],
  [0xf935, 2],
  [0xf936, 1],
  [0xf937, 1],
  [0xf938, 2],
  [0xf93a, 1],
]);
/** Lengths of `FF`/`FE` device-info channels and downlink replies, by channel type. */
const FF_LENGTHS = new Map<number, number>([
  [0x01, 1],
  [0x09, 2],
  [0x0a, 2],
  [0xff, 2],
  [0x16, 8],
  [0x0f, 1],
  [0xfe, 1],
  [0x0b, 1],
  [0x10, 1],
  [0x25, 1],
  [0x28, 1],
  [0x3b, 1],
  [0x4a, 1],
  [0x57, 1],
  [0x8e, 3],
  [0xae, 1],
  [0xab, 3],
  [0xac, 1],
  [0xad, 1],
  [0xaf, 4],
  [0xb0, 3],
  [0xb1, 3],
  [0xb3, 1],
  [0xb4, 1],
  [0xba, 10],
  [0xbd, 2],
  [0xc4, 2],
  [0xf8, 1],
]);

function valueLength(id: number, type: number): number | undefined {
  if (id === 0xff || id === 0xfe) return FF_LENGTHS.get(type);
  // F8 replies carry the F9 value plus one result byte.
  if (id === 0xf8) {
    const base = LENGTHS.get(0xf900 | type);
    return base === undefined ? undefined : base + 1;
  }
  return LENGTHS.get((id << 8) | type);
}

function decodeUplink(fPort: number, b: Uint8Array): Reading {
  if (fPort < 1 || fPort > 223) throw new CodecError(MODEL, `fPort ${fPort} is not an application port.`);
  if (b.length === 0) throw new CodecError(MODEL, 'empty payload.');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const reading: Reading = { errors: [] };
  for (let i = 0; i < b.length; ) {
    if (i + 1 >= b.length) throw new CodecError(MODEL, `truncated channel header at byte ${i}.`);
    const id = byte(b, i);
    const type = byte(b, i + 1);
    const length = valueLength(id, type);
    const at = i + 2;
    if (length === undefined) {
      throw new CodecError(MODEL, `unknown channel ${hex(id)} ${hex(type)} at byte ${i}.`);
    }
    if (at + length > b.length) throw new CodecError(MODEL, `truncated channel ${hex(id)} ${hex(type)}.`);
    switch ((id << 8) | type) {
      case 0x0175:
        reading.battery = { value: byte(b, at), unit: '%' };
        break;
      case 0x0367:
        reading.roomTemperature = view.getInt16(at, true) / 10;
        break;
      case 0x0467:
        reading.setpoint = view.getInt16(at, true) / 10;
        break;
      case 0x0592:
        reading.valveOpening = byte(b, at);
        break;
      case 0x0600:
        if (byte(b, at) === 1) reading.errors.push('uninstalled');
        break;
      case 0x0700:
        reading.openWindow = byte(b, at) === 1;
        break;
      case 0x08e5:
        if (byte(b, at) === 1 || byte(b, at) === 2) reading.errors.push('calibrationFailed');
        break;
      case 0xffb1:
        reading.setpoint = view.getInt8(at);
        break;
    }
    i = at + length;
  }
  return reading;
}

const hex = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/** Periodic report in the device's channel order (README sample `017561 04672C01 03670A01 059264 …`). */
function encodeUplink(reading: Reading): Frame {
  const parts: number[] = [];
  const int16 = (v: number) => {
    const raw = Math.round(v * 10);
    requireRange(MODEL, 'temperature ·10', raw, -32768, 32767);
    return [raw & 0xff, (raw >> 8) & 0xff];
  };
  if (reading.battery) {
    if (reading.battery.unit !== '%') throw new CodecError(MODEL, 'battery must be given in %.');
    requireRange(MODEL, 'battery', reading.battery.value, 0, 100);
    parts.push(0x01, 0x75, Math.round(reading.battery.value));
  }
  if (reading.setpoint !== undefined) parts.push(0x04, 0x67, ...int16(reading.setpoint));
  if (reading.roomTemperature !== undefined) parts.push(0x03, 0x67, ...int16(reading.roomTemperature));
  if (reading.valveOpening !== undefined) {
    requireRange(MODEL, 'valve opening', reading.valveOpening, 0, 100);
    parts.push(0x05, 0x92, Math.round(reading.valveOpening));
  }
  if (reading.openWindow !== undefined) parts.push(0x07, 0x00, reading.openWindow ? 1 : 0);
  if (reading.errors.includes('uninstalled')) parts.push(0x06, 0x00, 1);
  if (reading.errors.includes('calibrationFailed')) parts.push(0x08, 0xe5, 1);
  if (parts.length === 0) throw new CodecError(MODEL, 'nothing to report.');
  return { fPort: FPORT, bytes: Uint8Array.from(parts) };
}

function encodeSetpoint(celsius: number): Frame {
  requireRange(MODEL, 'setpoint', celsius, 5, 35);
  const tolerance = TOLERANCE * 10;
  return {
    fPort: FPORT,
    bytes: Uint8Array.of(0xff, 0xb1, Math.round(celsius), tolerance & 0xff, tolerance >> 8),
  };
}

function encodeLimits(min: number, max: number): Frame {
  requireRange(MODEL, 'lower limit', min, ...LIMITS.lower);
  requireRange(MODEL, 'upper limit', max, ...LIMITS.upper);
  return { fPort: FPORT, bytes: Uint8Array.of(0xf9, 0x35, Math.round(min), Math.round(max)) };
}

function decodeDownlink(_fPort: number, b: Uint8Array): DownlinkCommand {
  const out: DownlinkCommand = {};
  for (let i = 0; i < b.length; ) {
    const command = b.length - i >= 2 ? (byte(b, i) << 8) | byte(b, i + 1) : -1;
    if (command === 0xffb1 && i + 4 < b.length) {
      out.setpoint = (byte(b, i + 2) << 24) >> 24;
      i += 5;
    } else if (command === 0xf935 && i + 3 < b.length) {
      out.limits = { min: byte(b, i + 2), max: byte(b, i + 3) };
      i += 4;
    } else {
      throw new CodecError(MODEL, `unsupported or truncated downlink at byte ${i}.`);
    }
  }
  return out;
}

export const milesightWt101: DeviceCodec = {
  model: MODEL,
  vendor: 'Milesight',
  name: 'WT101',
  kind: 'valve',
  // Milesight's default reporting interval is 10 minutes; it reports its battery in %.
  reportIntervalS: 600,
  setpoint: { min: 5, max: 35, step: 1 },
  limits: LIMITS,
  decodeUplink,
  encodeUplink,
  encodeSetpoint,
  encodeLimits,
  decodeDownlink,
};
