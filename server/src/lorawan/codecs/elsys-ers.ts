/**
 * Elsys ERS indoor climate sensor (ERS, ERS CO2, ERS Lite share the payload format).
 *
 * Sources: Elsys "Generic payload" format as implemented in Elsys's decoder in the TTN device
 * repository (vendor/elsys/elsys.js, www.elsys.se) and its examples (vendor/elsys/ers-codec.yaml,
 * ers-co2-codec.yaml); Elsys's widely published sample `0100e202290400270506060308070d62`.
 *
 * Uplink: a sequence of type byte + value, multi-byte values big-endian. Used here:
 *   01 temperature int16 /10 °C   02 humidity uint8 %   04 light uint16 lux
 *   05 motion count uint8         06 CO₂ uint16 ppm     07 supply voltage (VDD) uint16 mV
 * Every other type of the format is skipped by its documented length. The sensor takes no
 * setpoint and has no wall-control limits; Elsys devices send on fPort 5 by default.
 */
import {
  byte,
  CodecError,
  type DeviceCodec,
  type Frame,
  type Reading,
  requireRange,
  unsupported,
} from './codec.ts';

const MODEL = 'elsys-ers';
const FPORT = 5;

/** Value length per type byte (elsys.js TYPE_* constants). */
const LENGTHS = new Map<number, number>([
  [0x01, 2],
  [0x02, 1],
  [0x03, 3],
  [0x04, 2],
  [0x05, 1],
  [0x06, 2],
  [0x07, 2],
  [0x08, 2],
  [0x09, 6],
  [0x0a, 2],
  [0x0b, 4],
  [0x0c, 2],
  [0x0d, 1],
  [0x0e, 2],
  [0x0f, 1],
  [0x10, 4],
  [0x11, 1],
  [0x12, 1],
  [0x13, 65],
  [0x14, 4],
  [0x15, 2],
  [0x16, 2],
  [0x17, 4],
  [0x18, 2],
  [0x19, 2],
  [0x1a, 1],
  [0x1b, 4],
  [0x1c, 2],
  [0x3d, 4],
]);

function decodeUplink(fPort: number, b: Uint8Array): Reading {
  if (fPort < 1 || fPort > 223) throw new CodecError(MODEL, `fPort ${fPort} is not an application port.`);
  if (b.length === 0) throw new CodecError(MODEL, 'empty payload.');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const reading: Reading = { errors: [] };
  for (let i = 0; i < b.length; ) {
    const type = byte(b, i);
    const length = LENGTHS.get(type);
    if (length === undefined)
      throw new CodecError(MODEL, `unknown type 0x${type.toString(16)} at byte ${i}.`);
    if (i + length >= b.length)
      throw new CodecError(MODEL, `truncated value of type 0x${type.toString(16)}.`);
    const at = i + 1;
    if (type === 0x01) reading.roomTemperature = view.getInt16(at) / 10;
    if (type === 0x02) reading.humidity = byte(b, at);
    if (type === 0x06) reading.co2 = view.getUint16(at);
    if (type === 0x07) reading.battery = { value: view.getUint16(at) / 1000, unit: 'V' };
    i = at + length;
  }
  return reading;
}

function encodeUplink(reading: Reading): Frame {
  const parts: number[] = [];
  const u16 = (v: number) => [(v >> 8) & 0xff, v & 0xff];
  if (reading.roomTemperature !== undefined) {
    const raw = Math.round(reading.roomTemperature * 10);
    requireRange(MODEL, 'temperature ·10', raw, -32768, 32767);
    parts.push(0x01, ...u16(raw));
  }
  if (reading.humidity !== undefined) {
    requireRange(MODEL, 'humidity', reading.humidity, 0, 100);
    parts.push(0x02, Math.round(reading.humidity));
  }
  if (reading.co2 !== undefined) {
    requireRange(MODEL, 'CO₂', reading.co2, 0, 65535);
    parts.push(0x06, ...u16(Math.round(reading.co2)));
  }
  if (reading.battery) {
    if (reading.battery.unit !== 'V') throw new CodecError(MODEL, 'battery must be given in V.');
    const mv = Math.round(reading.battery.value * 1000);
    requireRange(MODEL, 'VDD mV', mv, 0, 65535);
    parts.push(0x07, ...u16(mv));
  }
  if (parts.length === 0) throw new CodecError(MODEL, 'nothing to report.');
  return { fPort: FPORT, bytes: Uint8Array.from(parts) };
}

export const elsysErs: DeviceCodec = {
  model: MODEL,
  vendor: 'Elsys',
  name: 'ERS',
  kind: 'sensor',
  // Elsys' default send period is 20 minutes; its 3.6 V lithium cell is nearly empty below 3.2 V.
  reportIntervalS: 1200,
  lowBatteryVolts: 3.2,
  decodeUplink,
  encodeUplink,
  encodeSetpoint: () => unsupported(MODEL, 'a setpoint (it is a room sensor)'),
  encodeLimits: () => unsupported(MODEL, 'wall-control limits'),
  decodeDownlink: () => unsupported(MODEL, 'downlinks'),
};
