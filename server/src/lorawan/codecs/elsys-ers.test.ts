import { describe, expect, it } from 'vitest';
import { CodecError, hexToBytes } from './codec.ts';
import { elsysErs as ers } from './elsys-ers.ts';

const decode = (hex: string) => ers.decodeUplink(5, hexToBytes(hex));

describe('Elsys ERS uplinks', () => {
  // Source: Elsys's published sample payload (used in Elsys's own parser tests).
  it('decodes the vendor sample 0100e202290400270506060308070d62', () => {
    expect(decode('0100e202290400270506060308070d62')).toEqual({
      roomTemperature: 22.6,
      humidity: 41,
      co2: 776,
      battery: { value: 3.426, unit: 'V' },
      errors: [],
    });
  });

  // Source: TTN vendor/elsys/ers-codec.yaml example (temperature, humidity, light, motion).
  it('decodes the TTN ERS example and skips light and motion', () => {
    expect(decode('0100E202290400270506')).toEqual({ roomTemperature: 22.6, humidity: 41, errors: [] });
  });

  it('reads negative temperatures as signed big-endian', () => {
    expect(decode('01FF38').roomTemperature).toBe(-20);
  });

  it.each([
    ['0100', 'truncated value of type 0x1'],
    ['2001', 'unknown type 0x20'],
  ])('rejects the malformed payload %s', (hex, message) => {
    expect(() => decode(hex)).toThrow(CodecError);
    expect(() => decode(hex)).toThrow(message);
  });

  it('takes no setpoint', () => {
    expect(() => ers.encodeSetpoint(21)).toThrow('elsys-ers: the device does not support a setpoint');
  });
});
