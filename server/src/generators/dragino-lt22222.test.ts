/**
 * The LT-22222-L codec against the vectors of Dragino's manual (downlink type code 0x03, the MOD1
 * uplink example) and The Things Network's device repository codec, and the relay output's
 * adapter against a recording `sendDownlink`.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeLt22222Uplink,
  decodeRelayDownlink,
  encodeRelayDownlink,
  LoraRelayOutput,
  type RelayAction,
} from './dragino-lt22222.ts';

const AT = new Date('2026-12-03T06:00:00Z');
const clock = () => AT;
const DEV_EUI = 'a84041000181c7d2';

describe('relay downlink (manual: Control Relay Output RO1/RO2, type code 0x03)', () => {
  // The manual's table: payload → RO1, RO2.
  const table: Array<[string, RelayAction, RelayAction]> = [
    ['030011', 'open', 'none'],
    ['030111', 'close', 'none'],
    ['031100', 'none', 'open'],
    ['031101', 'none', 'close'],
    ['030000', 'open', 'open'],
    ['030101', 'close', 'close'],
    ['030100', 'close', 'open'],
    ['030001', 'open', 'close'],
  ];

  it.each(table)('%s sets RO1 %s and RO2 %s', (hex, ro1, ro2) => {
    expect(encodeRelayDownlink(ro1, ro2)).toBe(hex);
    expect(decodeRelayDownlink(hex)).toEqual({ ro1, ro2 });
  });

  it('leaves RO2 alone unless told', () => {
    expect(encodeRelayDownlink('close')).toBe('030111');
  });

  it('recognises nothing else as a relay downlink', () => {
    expect(decodeRelayDownlink('04ff')).toBeNull();
    expect(decodeRelayDownlink('030102')).toBeNull();
    expect(decodeRelayDownlink('0301')).toBeNull();
  });
});

describe('uplink (manual: AT+MOD=1, 2ACI+2AVI)', () => {
  // As the manual and the TTN codec read it: AVI 1.195/1.196 V, ACI 4.880/4.864 mA, DIDORO 0xAA
  // = RO1 closed, RO2 open, DI1 high, DI2 low, DO2 low, DO1 high; mode byte 0x01: MOD1 on an LT-33222-L.
  const manualExample = {
    hardware: 'LT-33222-L',
    mode: 1,
    ro1Closed: true,
    ro2Closed: false,
    di1High: true,
    di2High: false,
    do1Low: false,
    do2Low: true,
    avi1V: 1.195,
    avi2V: 1.196,
    aci1mA: 4.88,
    aci2mA: 4.864,
  };

  it('decodes the manual’s example 04 AB 04 AC 13 10 13 00 AA FF 01 on port 2', () => {
    expect(decodeLt22222Uplink(2, '04ab04ac13101300aaff01')).toEqual(manualExample);
  });

  it('tells an LT-22222-L by the hardware bits of the mode byte (0x41: hardware 1, MOD1)', () => {
    // The example with DIDORO 0x4A (RO1 open, RO2 closed, inputs and outputs as before).
    expect(decodeLt22222Uplink(2, '04ab04ac131013004aff41')).toEqual({
      ...manualExample,
      hardware: 'LT-22222-L',
      ro1Closed: false,
      ro2Closed: true,
    });
  });

  it('reads the relays but no inputs in the counting modes, and no relays in MOD6', () => {
    const counting = decodeLt22222Uplink(2, '0000001000000000c0ff42');
    expect(counting).toEqual({
      hardware: 'LT-22222-L',
      mode: 2,
      ro1Closed: true,
      ro2Closed: true,
      do1Low: false,
      do2Low: false,
    });
    expect(decodeLt22222Uplink(2, '0000000000000000000146')).toEqual({
      hardware: 'LT-22222-L',
      mode: 6,
      ro1Closed: null,
      ro2Closed: null,
    });
  });

  it('ignores other ports and lengths', () => {
    expect(decodeLt22222Uplink(5, '04ab04ac13101300aaff01')).toBeNull();
    expect(decodeLt22222Uplink(2, '04ab04ac13101300aaff')).toBeNull();
    expect(decodeLt22222Uplink(2, 'zz')).toBeNull();
  });
});

describe('LoraRelayOutput', () => {
  const recorder = () => {
    const sent: Array<[string, number, string]> = [];
    const send = async (devEui: string, fPort: number, payloadHex: string) => {
      sent.push([devEui, fPort, payloadHex]);
    };
    return { sent, send };
  };

  it('closes RO1 to enable, opens it to disable, and says the setpoint cannot go out', async () => {
    const { sent, send } = recorder();
    const output = new LoraRelayOutput({ devEui: DEV_EUI.toUpperCase() }, send, clock);
    const on = await output.write({ circuitId: 'c1', enabled: true, supplySetpoint: 55 });
    const off = await output.write({ circuitId: 'c1', enabled: false, supplySetpoint: null });
    expect(sent).toEqual([
      [DEV_EUI, 1, '030111'],
      [DEV_EUI, 1, '030011'],
    ]);
    expect(on).toEqual({
      ok: true,
      at: AT,
      detail:
        `LT-22222-L ${DEV_EUI}: queued downlink 030111 on port 1: RO1 close (enable on); ` +
        'supply setpoint 55 °C not sent: the LT-22222-L has no analog output',
    });
    expect(off.detail).toBe(`LT-22222-L ${DEV_EUI}: queued downlink 030011 on port 1: RO1 open (enable off)`);
  });

  it('inverts RO1 and drives RO2 along or against it, as configured', async () => {
    const { sent, send } = recorder();
    const follow = new LoraRelayOutput({ devEui: DEV_EUI, fPort: 10, ro2: 'follow' }, send, clock);
    const inverse = new LoraRelayOutput({ devEui: DEV_EUI, invert: true, ro2: 'inverse' }, send, clock);
    await follow.write({ circuitId: 'c1', enabled: true, supplySetpoint: null });
    await follow.write({ circuitId: 'c1', enabled: false, supplySetpoint: null });
    await inverse.write({ circuitId: 'c1', enabled: true, supplySetpoint: null });
    await inverse.write({ circuitId: 'c1', enabled: false, supplySetpoint: null });
    expect(sent.map(([, port, hex]) => [port, hex])).toEqual([
      [10, '030101'],
      [10, '030000'],
      [1, '030001'],
      [1, '030100'],
    ]);
  });

  it('answers ok: false when the downlink cannot be queued, without throwing', async () => {
    const output = new LoraRelayOutput(
      { devEui: DEV_EUI },
      async () => {
        throw new Error('the broker is unavailable');
      },
      clock,
    );
    expect(await output.write({ circuitId: 'c1', enabled: true, supplySetpoint: 50 })).toEqual({
      ok: false,
      at: AT,
      detail: `LT-22222-L ${DEV_EUI}: downlink 030111 for RO1 close (enable on) not queued: the broker is unavailable`,
    });
    await output.close();
    expect((await output.write({ circuitId: 'c1', enabled: true, supplySetpoint: 50 })).ok).toBe(false);
  });

  it('reads the relay back from the next uplink and names an override', async () => {
    const { send } = recorder();
    const output = new LoraRelayOutput({ devEui: DEV_EUI }, send, clock);
    await output.write({ circuitId: 'c1', enabled: true, supplySetpoint: null });
    expect(output.readBack(2, '04ab04ac13101300aaff41')).toEqual({ enabled: true, override: false });
    // RO1 open although the generator should run: switched by hand, or the downlink was lost.
    expect(output.readBack(2, '04ab04ac131013002aff41')).toEqual({ enabled: false, override: true });
    expect(output.readBack(2, '0000000000000000000146')).toBeNull();
  });
});
