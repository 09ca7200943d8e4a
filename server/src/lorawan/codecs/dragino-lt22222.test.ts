import { describe, expect, it } from 'vitest';
import { hexToBytes } from './codec.ts';
import { getCodec } from './registry.ts';

const codec = getCodec('dragino-lt22222');

describe('dragino-lt22222 codec', () => {
  it('is a relay without a setpoint, so the scheduler and the reconcile never send it one', () => {
    expect(codec.kind).toBe('relay');
    expect(codec.setpoint).toBeUndefined();
    expect(() => codec.encodeSetpoint(20)).toThrow(/does not support a setpoint/);
  });

  it("reads the relays of a MOD1 uplink on port 2 (manual's DIDORO byte: bit 7 RO1, bit 6 RO2)", () => {
    // RO1 closed, RO2 open, LT-22222-L in MOD1.
    expect(codec.decodeUplink(2, hexToBytes('04ab04ac1310130080ff41'))).toEqual({
      errors: [],
      relays: { ro1Closed: true, ro2Closed: false },
    });
    expect(codec.decodeUplink(2, hexToBytes('0000000000000000400041')).relays).toEqual({
      ro1Closed: false,
      ro2Closed: true,
    });
  });

  it('decodes another port, length or MOD6 to a reading without relays', () => {
    expect(codec.decodeUplink(4, hexToBytes('0102'))).toEqual({ errors: [] });
    expect(codec.decodeUplink(2, hexToBytes('0000000000000000c00046'))).toEqual({ errors: [] });
  });

  it('encodes an uplink the decoder reads back (the simulator side)', () => {
    for (const relays of [
      { ro1Closed: true, ro2Closed: true },
      { ro1Closed: false, ro2Closed: true },
      { ro1Closed: true, ro2Closed: false },
    ]) {
      const frame = codec.encodeUplink({ errors: [], relays });
      expect(codec.decodeUplink(frame.fPort, frame.bytes).relays).toEqual(relays);
    }
  });
});
