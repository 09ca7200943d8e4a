/** The Modbus output's register arithmetic and its configuration's rules, without a peer. */
import { ModbusOutputConfigSchema } from '@heizplan/contracts/generator-outputs';
import { describe, expect, it } from 'vitest';
import { fromRegister, toRegister } from './modbus.ts';

describe('toRegister / fromRegister', () => {
  it('scales °C to the register word, rounding half away from zero', () => {
    expect(toRegister(45.5, 10, false)).toEqual({ word: 455 });
    expect(toRegister(45.55, 10, false)).toEqual({ word: 456 });
    expect(toRegister(45.549, 10, false)).toEqual({ word: 455 });
    expect(toRegister(52.5, 1, false)).toEqual({ word: 53 });
    expect(toRegister(60, 100, false)).toEqual({ word: 6000 });
    expect(toRegister(-4.55, 10, true)).toEqual({ word: 0x10000 - 46 });
  });

  it('writes negative values in two’s complement only when signed', () => {
    expect(toRegister(-2.5, 10, true)).toEqual({ word: 65511 });
    expect(fromRegister(65511, 10, true)).toBe(-2.5);
    expect(fromRegister(65511, 10, false)).toBe(6551.1);
    expect(toRegister(-2.5, 10, false)).toEqual({ error: '-2.5 °C × 10 = -25 is outside 0…65535' });
  });

  it('refuses what 16 bits cannot hold', () => {
    expect(toRegister(3276.7, 10, true)).toEqual({ word: 32767 });
    expect(toRegister(3276.8, 10, true)).toEqual({ error: '3276.8 °C × 10 = 32768 is outside -32768…32767' });
    expect(toRegister(6553.5, 10, false)).toEqual({ word: 65535 });
    expect('error' in toRegister(6553.6, 10, false)).toBe(true);
    expect('error' in toRegister(Number.NaN, 10, false)).toBe(true);
  });

  it('reads back what it wrote', () => {
    for (const [celsius, scale, signed] of [
      [45.5, 10, false],
      [-12.3, 10, true],
      [70, 1, false],
      [38.25, 100, true],
    ] as const) {
      const encoded = toRegister(celsius, scale, signed);
      if (!('word' in encoded)) throw new Error(encoded.error);
      expect(fromRegister(encoded.word, scale, signed)).toBe(celsius);
    }
  });
});

describe('ModbusOutputConfigSchema', () => {
  const valid = {
    host: 'boiler.local',
    unitId: 1,
    setpoint: { register: 100 },
    enable: { kind: 'coil', coil: 5 },
  };

  it('fills the defaults: port 502, scale 10 unsigned, no read-back, 3 s timeout', () => {
    expect(ModbusOutputConfigSchema.parse(valid)).toEqual({
      host: 'boiler.local',
      port: 502,
      unitId: 1,
      setpoint: { register: 100, scale: 10, signed: false, readBack: false },
      enable: { kind: 'coil', coil: 5, readBack: false },
      timeoutMs: 3000,
    });
  });

  it('takes unit ids 1–247 only', () => {
    expect(ModbusOutputConfigSchema.safeParse({ ...valid, unitId: 0 }).success).toBe(false);
    expect(ModbusOutputConfigSchema.safeParse({ ...valid, unitId: 247 }).success).toBe(true);
    expect(ModbusOutputConfigSchema.safeParse({ ...valid, unitId: 248 }).success).toBe(false);
  });

  it('needs distinct on and off values for an enable register', () => {
    const result = ModbusOutputConfigSchema.safeParse({
      ...valid,
      enable: { kind: 'register', register: 200, on: 1, off: 1 },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('The values for on and off differ.');
  });
});
