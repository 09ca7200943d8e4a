import { describe, expect, it } from 'vitest';
import { bytesToHex, CodecError, hexToBytes } from './codec.ts';
import { encodeKeepAlive, mclimateVicki as vicki } from './mclimate-vicki.ts';

const decode = (hex: string, fPort = 1) => vicki.decodeUplink(fPort, hexToBytes(hex));

describe('MClimate Vicki uplinks', () => {
  // Source: MClimate docs keep-alive.md "Example keep-alive" and TTN vendor/mclimate/vicki-codec.yaml.
  it('decodes the vendor keep-alive example 011D5A78FA2C01F080', () => {
    expect(decode('011D5A78FA2C01F080')).toEqual({
      setpoint: 29,
      roomTemperature: 18.01,
      humidity: 46.88,
      valveOpening: 17,
      battery: { value: 3.5, unit: 'V' },
      openWindow: false,
      childLock: true,
      errors: [],
    });
  });

  // Source: MClimate docs keep-alive.md "Example keep-alive 2" (motor position = range → closed).
  it('decodes the vendor keep-alive example 01185C5CDFDF118000', () => {
    expect(decode('01185C5CDFDF118000')).toMatchObject({
      setpoint: 24,
      roomTemperature: 19.3,
      valveOpening: 0,
      battery: { value: 2.8, unit: 'V' },
      childLock: false,
    });
  });

  // Source: MClimate/mclimate-payload-helper src/test/payloadDecoders.test.ts "simple keepalive".
  it('decodes the vendor firmware ≥ 3.5 keep-alive 811BAF4BAB2A129030', () => {
    expect(decode('811BAF4BAB2A129030')).toEqual({
      setpoint: 27,
      roomTemperature: 25.88,
      humidity: 29.3,
      valveOpening: 23,
      battery: { value: 2.9, unit: 'V' },
      openWindow: false,
      childLock: false,
      errors: [],
    });
  });

  // Source: the same file, "keepalive with response of commands" and "… undefined response of command".
  it.each(['56011203042643811BAF4BAB2A129030', '12039902042643811BAF4BAB2A129030'])(
    'decodes the keep-alive behind command responses in %s',
    (hex) => {
      expect(decode(hex)).toMatchObject({ setpoint: 27, roomTemperature: 25.88, valveOpening: 23 });
    },
  );

  it('reports fault flags and the open window', () => {
    const reading = decode('81159378FA2C01FF70');
    expect(reading.openWindow).toBe(true);
    expect(reading.errors).toEqual([
      'highMotorConsumption',
      'lowMotorConsumption',
      'brokenSensor',
      'calibrationFailed',
    ]);
  });

  it('takes the 0.1 °C target from a 0x52 response in front of the keep-alive', () => {
    expect(decode('5200D7011D5A78FA2C01F080').setpoint).toBe(21.5);
  });

  it('leaves the valve opening out while the motor is uncalibrated (range 0)', () => {
    expect(decode('011D5A780000000080')).not.toHaveProperty('valveOpening');
  });

  it.each([
    ['011D5A78FA2C01F0', 'a keep-alive has 9 bytes, got 8'],
    ['011D5A78FA2C01F08000', 'a keep-alive has 9 bytes, got 10'],
    ['11223344556677889900', 'no keep-alive'],
  ])('rejects the malformed payload %s', (hex, message) => {
    expect(() => decode(hex)).toThrow(CodecError);
    expect(() => decode(hex)).toThrow(message);
  });

  it('encodes a keep-alive for both firmware variants', () => {
    const reading = {
      setpoint: 21,
      roomTemperature: 20,
      valveOpening: 40,
      battery: { value: 3.3, unit: 'V' as const },
      childLock: true,
      errors: [],
    };
    // (20 + 40)·256/165 = 93.09 → 0x5D in the firmware ≤ 3.4 layout.
    expect(bytesToHex(encodeKeepAlive(reading, 0x01).bytes).slice(0, 6)).toBe('01155d');
    expect(vicki.encodeUplink(reading)).toMatchObject({ fPort: 1 });
    expect(vicki.decodeUplink(1, vicki.encodeUplink(reading).bytes)).toMatchObject({
      ...reading,
      roomTemperature: 20.06,
    });
  });
});

describe('MClimate Vicki downlinks', () => {
  // Source: MClimate docs set-motor-position-and-update-target-temperature-command-explanation.md.
  it('sends whole degrees as 0E XX (vendor example 0x0E16 = 22 °C)', () => {
    expect(bytesToHex(vicki.encodeSetpoint(22).bytes)).toBe('0e16');
  });

  // Source: MClimate/mclimate-payload-helper VickiCommands.test.ts (21.5 °C → 0x51 00D7).
  it("follows MClimate's encoder: floats take 0x51, whole degrees 0x0E", () => {
    expect(bytesToHex(vicki.encodeSetpoint(21.5).bytes)).toBe('5100d7');
  });

  it('sends tenths as 51 HH LL (vendor example 0x510102 = 25.8 °C)', () => {
    expect(bytesToHex(vicki.encodeSetpoint(25.8).bytes)).toBe('510102');
    expect(vicki.decodeDownlink(1, hexToBytes('510102'))).toEqual({ setpoint: 25.8 });
  });

  // Source: MClimate docs target-temperature-ranges.md, example 0x081018.
  it('encodes wall-control limits as 08 MIN MAX (vendor example 16…24 °C)', () => {
    expect(bytesToHex(vicki.encodeLimits(16, 24).bytes)).toBe('081018');
  });

  it('refuses setpoints and limits outside 5…30 °C', () => {
    expect(() => vicki.encodeSetpoint(31)).toThrow('setpoint 31 is outside 5…30');
    expect(() => vicki.encodeLimits(20, 18)).toThrow('lower limit 20 is above upper limit 18');
  });
});

describe('MClimate Vicki firmware and anti-freeze', () => {
  // Source: MClimate docs appendix-examples.md, command example 1: the answer to 0x04 (hardware
  // 2.3, software 2.1) in front of a keep-alive.
  it('reads the firmware version from the answer to 0x04 (vendor example 042321 + keep-alive)', () => {
    expect(decode('042321011D5A78FA2C01F080')).toMatchObject({ firmware: '2.1', setpoint: 29 });
  });

  // Source: MClimate docs anti-freeze-functionality.md, GET example 0x4A3C5A07.
  it('reads the anti-freeze settings from the answer to 0x4A (vendor example 4A3C5A07)', () => {
    expect(decode('4A3C5A07811BAF4BAB2A129030')).toMatchObject({
      antiFreeze: { activation: 6, deactivation: 9, target: 7 },
    });
  });

  // Source: MClimate docs anti-freeze-functionality.md, SET example 0x493C5A07 (6 / 9 / 7 °C).
  it('sets anti-freeze as 49 AA DD TT and asks it back with 4A, from firmware 4.3', () => {
    const antiFreeze = vicki.antiFreeze;
    expect(antiFreeze?.minFirmware).toBe('4.3');
    expect(
      bytesToHex(antiFreeze?.encode({ activation: 6, deactivation: 9, target: 7 }) ?? new Uint8Array()),
    ).toBe('493c5a07');
    expect(bytesToHex(antiFreeze?.query ?? new Uint8Array())).toBe('4a');
    expect(bytesToHex(vicki.firmwareQuery ?? new Uint8Array())).toBe('04');
  });

  it('refuses anti-freeze thresholds the device cannot take', () => {
    const encode = vicki.antiFreeze?.encode ?? (() => new Uint8Array());
    expect(() => encode({ activation: 9, deactivation: 9, target: 7 })).toThrow(
      'anti-freeze activation 9 is not below deactivation 9',
    );
    expect(() => encode({ activation: 6, deactivation: 26, target: 7 })).toThrow(CodecError);
    expect(() => encode({ activation: 6, deactivation: 9, target: 4 })).toThrow('anti-freeze target 4');
  });

  it('reads a setpoint with firmware query, anti-freeze and its read-back in one downlink', () => {
    expect(vicki.decodeDownlink(1, hexToBytes('0e1504493c5a074a'))).toEqual({
      setpoint: 21,
      antiFreeze: { activation: 6, deactivation: 9, target: 7 },
      queries: ['firmware', 'antiFreeze'],
    });
    expect(() => vicki.decodeDownlink(1, hexToBytes('0e15493c'))).toThrow('truncated downlink command 0x49');
  });

  it('answers both queries in front of the keep-alive it encodes, as the device does', () => {
    const reading = {
      setpoint: 21,
      roomTemperature: 20,
      valveOpening: 30,
      battery: { value: 3.4, unit: 'V' as const },
      errors: [],
      firmware: '4.3',
      antiFreeze: { activation: 7, deactivation: 10, target: 8 },
    };
    const frame = vicki.encodeUplink(reading);
    // 04 26 43: hardware 2.6, firmware 4.3; 4A 46 64 08: 7.0 / 10.0 / 8 °C.
    expect(bytesToHex(frame.bytes).slice(0, 14)).toBe('0426434a466408');
    expect(vicki.decodeUplink(frame.fPort, frame.bytes)).toMatchObject({
      firmware: '4.3',
      antiFreeze: { activation: 7, deactivation: 10, target: 8 },
      setpoint: 21,
    });
  });
});
