/**
 * Micropelt MLR003 energy-harvesting radiator valve (MLR003R, radiator product line).
 *
 * Sources: Micropelt "MLR003 User Manual and Device Specification", communication profile
 * MLR003RiEU61-07-1.1 §8 (FPORT 0x01 uplink/downlink), Micropelt wiki (MLRD space), and
 * Micropelt's codec in the TTN device repository (vendor/micropelt/mlr003.js,
 * mlr003-codec.yaml with the example payloads used in the tests).
 *
 * Uplink fPort 1, 11 bytes (12 with "used temperature"):
 *   0  valve position %          1  flow sensor raw ·0.5 °C     2  flow temperature ·0.5 °C
 *   3  ambient sensor raw ·0.25 °C                               4  ambient temperature ·0.25 °C
 *   5  bit 7 temperature drop detected (open window), 6 energy storage, 5 harvesting active,
 *      4 ambient sensor failure, 3 flow sensor failure, 2 radio communication error,
 *      1 received signal strength, 0 motor error
 *   6  storage voltage ·0.02 V    7  average current consumed ·10 µA  8  generated ·10 µA
 *   9  bit 7 operating condition, 6 storage fully charged, 5 zero error, 4 calibration OK,
 *      bits 2:0 user mode (0 valve %, 2 setpoint ambient temperature, …)
 *  10  user value: valve % or, in ambient mode, setpoint ·0.5 °C
 *  11  (optional) temperature used for control ·0.25 °C
 * Other fPorts (2…11, 15) answer configuration requests and carry no reading.
 *
 * Downlink fPort 1, 6 bytes: 0 setpoint ·2 (ambient mode, 0.5 °C), 1 room temperature from an
 * external sensor ·4 (0 = none provided), 2 safety value, 3 bits 6:4 radio interval
 * (0b000 = 10 min), bits 3:2 user mode (0b10 ambient), bits 1:0 safety mode (0b00 ambient),
 * 4 reserved, 5 bit 7 reference run now. The device has no wall-control limits.
 */
import {
  byte,
  CodecError,
  type DeviceCodec,
  type DownlinkCommand,
  type Frame,
  type Reading,
  requireRange,
  roundTo,
  unsupported,
} from './codec.ts';

const MODEL = 'micropelt-mlr003';
const FPORT = 1;
const CONFIG_FPORTS = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15]);
const USER_MODE_AMBIENT = 2;
/** Byte 3 of our setpoint downlink: 10-minute radio interval, user and safety mode ambient. */
const AMBIENT_MODE_BYTE = USER_MODE_AMBIENT << 2;

const FLAG_ERRORS: [number, string][] = [
  // "Energy storage low": the valve harvests too little to keep working (alerts).
  [6, 'lowEnergyStore'],
  [4, 'ambientSensorFailure'],
  [3, 'flowSensorFailure'],
  [2, 'radioCommunicationError'],
  [0, 'motorError'],
];

function decodeUplink(fPort: number, b: Uint8Array): Reading {
  if (CONFIG_FPORTS.has(fPort)) return { errors: [] };
  if (fPort !== FPORT) throw new CodecError(MODEL, `fPort ${fPort} is not used by the device.`);
  if (b.length !== 11 && b.length !== 12) {
    throw new CodecError(MODEL, `an fPort 1 uplink has 11 or 12 bytes, got ${b.length}.`);
  }
  const errors = FLAG_ERRORS.filter(([bit]) => (byte(b, 5) >> bit) & 1).map(([, code]) => code);
  if ((byte(b, 9) >> 5) & 1) errors.push('zeroError');
  const ambientMode = (byte(b, 9) & 0x07) === USER_MODE_AMBIENT;
  return {
    roomTemperature: byte(b, 4) * 0.25,
    ...(ambientMode ? { setpoint: byte(b, 10) * 0.5 } : {}),
    valveOpening: byte(b, 0),
    supplyTemperature: byte(b, 2) * 0.5,
    battery: { value: roundTo(byte(b, 6) * 0.02, 0.01), unit: 'V' },
    openWindow: ((byte(b, 5) >> 7) & 1) === 1,
    errors,
  };
}

const quantise = (what: string, value: number | undefined, scale: number) => {
  if (value === undefined) throw new CodecError(MODEL, `${what} is required for an uplink.`);
  const raw = Math.round(value * scale);
  requireRange(MODEL, `${what} raw value`, raw, 0, 255);
  return raw;
};

/** 12-byte fPort 1 uplink in ambient-setpoint mode, as the device sends it. */
function encodeUplink(reading: Reading): Frame {
  const supply = quantise('supplyTemperature', reading.supplyTemperature, 2);
  const room = quantise('roomTemperature', reading.roomTemperature, 4);
  if (reading.battery && reading.battery.unit !== 'V')
    throw new CodecError(MODEL, 'battery must be given in V.');
  const errors = new Set(reading.errors);
  const flags =
    (reading.openWindow ? 0x80 : 0) |
    FLAG_ERRORS.reduce((acc, [bit, code]) => acc | (errors.has(code) ? 1 << bit : 0), 0);
  const bytes = Uint8Array.of(
    quantise('valveOpening', reading.valveOpening, 1),
    supply,
    supply,
    room,
    room,
    flags,
    quantise('battery', reading.battery?.value ?? 2.8, 50),
    44, // 440 µA consumed and 2370 µA generated, as in Micropelt's TTN example
    237,
    0x10 | (errors.has('zeroError') ? 0x20 : 0) | USER_MODE_AMBIENT,
    quantise('setpoint', reading.setpoint, 2),
    room,
  );
  return { fPort: FPORT, bytes };
}

function encodeSetpoint(celsius: number): Frame {
  // 0x00 means "default 20 °C" to the device, so the lowest setpoint we send is 5 °C (frost).
  requireRange(MODEL, 'setpoint', celsius, 5, 40);
  const raw = Math.round(celsius * 2);
  // The safety value (used when the radio link is lost) follows the setpoint.
  return { fPort: FPORT, bytes: Uint8Array.of(raw, 0, raw, AMBIENT_MODE_BYTE, 0, 0) };
}

function decodeDownlink(fPort: number, b: Uint8Array): DownlinkCommand {
  if (fPort !== FPORT || b.length !== 6) {
    throw new CodecError(MODEL, `a setpoint downlink is 6 bytes on fPort 1, got ${b.length} on ${fPort}.`);
  }
  if (((byte(b, 3) >> 2) & 0x03) !== USER_MODE_AMBIENT) {
    throw new CodecError(MODEL, 'the downlink is not in ambient-temperature (setpoint) mode.');
  }
  return { setpoint: byte(b, 0) * 0.5 };
}

export const micropeltMlr003: DeviceCodec = {
  model: MODEL,
  vendor: 'Micropelt',
  name: 'MLR003',
  kind: 'valve',
  // The radio interval our downlink sets is 10 minutes; below about 2.45 V the energy store cannot drive the motor (it also flags lowEnergyStore).
  reportIntervalS: 600,
  lowBatteryVolts: 2.45,
  setpoint: { min: 5, max: 40, step: 0.5 },
  decodeUplink,
  encodeUplink,
  encodeSetpoint,
  encodeLimits: () => unsupported(MODEL, 'wall-control limits'),
  decodeDownlink,
};
