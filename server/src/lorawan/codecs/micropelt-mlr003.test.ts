import { describe, expect, it } from 'vitest';
import { bytesToHex, CodecError } from './codec.ts';
import { micropeltMlr003 as mlr003 } from './micropelt-mlr003.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('Micropelt MLR003 uplinks', () => {
  // Source: TTN vendor/micropelt/mlr003-codec.yaml "FPort 1 Basic Device Data 1".
  it('decodes the vendor fPort 1 example', () => {
    expect(mlr003.decodeUplink(1, bytes(71, 94, 78, 116, 87, 32, 136, 44, 237, 82, 46, 89))).toEqual({
      valveOpening: 71,
      supplyTemperature: 39,
      roomTemperature: 21.75,
      setpoint: 23,
      battery: { value: 2.72, unit: 'V' },
      openWindow: false,
      errors: [],
    });
  });

  it('has no setpoint in valve-position mode and reports fault flags', () => {
    const reading = mlr003.decodeUplink(1, bytes(50, 94, 78, 116, 87, 0x99, 136, 44, 237, 0x30, 50));
    expect(reading).not.toHaveProperty('setpoint');
    expect(reading.openWindow).toBe(true);
    expect(reading.errors).toEqual(['ambientSensorFailure', 'flowSensorFailure', 'motorError', 'zeroError']);
  });

  // Source: TTN mlr003-codec.yaml "FPort 2 Device Version": a configuration answer, no reading.
  it('accepts configuration answers on other fPorts without a reading', () => {
    expect(mlr003.decodeUplink(2, bytes(194, 49, 24, 9, 3, 0))).toEqual({ errors: [] });
  });

  it('rejects wrong lengths and unknown fPorts', () => {
    expect(() => mlr003.decodeUplink(1, bytes(1, 2, 3))).toThrow('11 or 12 bytes, got 3');
    expect(() => mlr003.decodeUplink(20, bytes(1))).toThrow(CodecError);
  });
});

describe('Micropelt MLR003 downlinks', () => {
  // Source: TTN mlr003-codec.yaml "FPort 1 Downlink" → [42, 80, 38, 24, 0, 0] (setValue 21 °C).
  it('reads the setpoint of the vendor downlink example', () => {
    expect(mlr003.decodeDownlink(1, bytes(42, 80, 38, 24, 0, 0))).toEqual({ setpoint: 21 });
  });

  it('encodes a 6-byte ambient-mode downlink with the setpoint ·2', () => {
    const frame = mlr003.encodeSetpoint(21.5);
    expect(frame.fPort).toBe(1);
    expect(bytesToHex(frame.bytes)).toBe('2b002b080000');
  });

  it('has no wall-control limits', () => {
    expect(() => mlr003.encodeLimits(16, 24)).toThrow('does not support wall-control limits');
  });
});
