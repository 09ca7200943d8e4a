import { describe, expect, it } from 'vitest';
import { bytesToHex, CodecError, hexToBytes } from './codec.ts';
import { milesightWt101 as wt101 } from './milesight-wt101.ts';

const decode = (hex: string) => wt101.decodeUplink(85, hexToBytes(hex));

describe('Milesight WT101 uplinks', () => {
  // Source: Milesight-IoT/SensorDecoders WT_Series/WT101/README.md "Sample" and
  // TTN vendor/milesight-iot/wt101-codec.yaml (fPort 85).
  it('decodes the vendor periodic report', () => {
    expect(decode('017561 04672C01 03670A01 059264 09900000 0B900000')).toEqual({
      battery: { value: 97, unit: '%' },
      setpoint: 30,
      roomTemperature: 26.6,
      valveOpening: 100,
      errors: [],
    });
  });

  // Source: the same README samples 070001, 08E501, 060000, 08E50009900802.
  it.each([
    ['070001', { openWindow: true, errors: [] }],
    ['08E501', { errors: ['calibrationFailed'] }],
    ['060000', { errors: [] }],
    ['08E50009900802', { errors: [] }],
  ])('decodes the vendor status sample %s', (hex, expected) => {
    expect(decode(hex)).toEqual(expected);
  });

  it('reads the device-info header sent after a join', () => {
    expect(decode('ff0bff ff0101 ff166136c19146080000 0175 5a')).toEqual({
      battery: { value: 90, unit: '%' },
      errors: [],
    });
  });

  it('reads negative temperatures as signed little-endian', () => {
    expect(decode('0367CEFF').roomTemperature).toBe(-5);
  });

  it.each([
    ['0175', 'truncated channel 0x01 0x75'],
    ['03670A', 'truncated channel 0x03 0x67'],
    ['2000FF', 'unknown channel 0x20 0x00'],
    ['01', 'truncated channel header'],
  ])('rejects the malformed payload %s', (hex, message) => {
    expect(() => decode(hex)).toThrow(CodecError);
    expect(() => decode(hex)).toThrow(message);
  });
});

describe('Milesight WT101 downlinks', () => {
  // Source: WT101_Encoder.js setTargetTemperature: FF B1, int8 °C, uint16 LE tolerance ·10.
  it('encodes the setpoint as FF B1 with a 1 °C tolerance on fPort 85', () => {
    const frame = wt101.encodeSetpoint(28);
    expect(frame.fPort).toBe(85);
    expect(bytesToHex(frame.bytes)).toBe('ffb11c0a00');
  });

  // Source: WT101_Encoder.js example { target_temperature: 28, temperature_tolerance: 5 } → FF B1 1C 32 00.
  it('reads the setpoint of the vendor encoder example', () => {
    expect(wt101.decodeDownlink(85, hexToBytes('ffb11c3200'))).toEqual({ setpoint: 28 });
  });

  // Source: WT101_Encoder.js setTargetTemperatureRange, example { min: 5, max: 16 }.
  it('encodes the vendor range example as F9 35 05 10', () => {
    expect(bytesToHex(wt101.encodeLimits(5, 16).bytes)).toBe('f9350510');
    expect(wt101.decodeDownlink(85, hexToBytes('f9350510'))).toEqual({ limits: { min: 5, max: 16 } });
  });

  it('refuses limits outside the vendor ranges (min 5…15, max 16…35)', () => {
    expect(() => wt101.encodeLimits(16, 20)).toThrow('lower limit 16 is outside 5…15');
  });
});

describe('Milesight WT101 downlink reader', () => {
  it('rejects a truncated downlink with a CodecError', () => {
    expect(() => wt101.decodeDownlink(85, hexToBytes('ffb11c'))).toThrow(CodecError);
    expect(() => wt101.decodeDownlink(85, hexToBytes('ff'))).toThrow(CodecError);
  });
});
