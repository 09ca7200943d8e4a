/**
 * Round-trip properties for every codec in the registry: what the encoders write, the decoders
 * read back within the device's resolution.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Reading } from './codec.ts';
import { encodeKeepAlive } from './mclimate-vicki.ts';
import { getCodec, listCodecs } from './registry.ts';

const valves = listCodecs().filter((c) => c.setpoint);

describe.each(valves)('$model setpoint downlink', (codec) => {
  const range = codec.setpoint ?? { min: 0, max: 0, step: 1 };
  it('decodes back to the setpoint within half a step', () => {
    fc.assert(
      fc.property(fc.double({ min: range.min, max: range.max, noNaN: true }), (celsius) => {
        const frame = codec.encodeSetpoint(celsius);
        const back = codec.decodeDownlink(frame.fPort, frame.bytes).setpoint ?? Number.NaN;
        expect(Math.abs(back - celsius)).toBeLessThanOrEqual(range.step / 2 + 1e-9);
      }),
    );
  });
});

describe.each(listCodecs().filter((c) => c.limits))('$model limits downlink', (codec) => {
  it('decodes back to the whole-degree limits', () => {
    const { lower, upper } = codec.limits ?? { lower: [0, 0], upper: [0, 0] };
    fc.assert(
      fc.property(
        fc.integer({ min: lower[0], max: lower[1] }),
        fc.integer({ min: upper[0], max: upper[1] }),
        (a, b) => {
          fc.pre(a <= b);
          const frame = codec.encodeLimits(a, b);
          expect(codec.decodeDownlink(frame.fPort, frame.bytes).limits).toEqual({ min: a, max: b });
        },
      ),
    );
  });
});

const reading = (battery: Reading['battery'], room: [number, number]) =>
  fc.record({
    roomTemperature: fc.double({ min: room[0], max: room[1], noNaN: true }),
    setpoint: fc.integer({ min: 5, max: 30 }),
    valveOpening: fc.integer({ min: 0, max: 100 }),
    supplyTemperature: fc.double({ min: 0, max: 90, noNaN: true }),
    humidity: fc.integer({ min: 0, max: 99 }),
    openWindow: fc.boolean(),
    battery: fc.constant(battery),
    errors: fc.constant([] as string[]),
  });

/** Per model: generated battery, room-temperature span, and tolerance of the room temperature. */
const UPLINKS = [
  { model: 'mclimate-vicki', battery: { value: 3.1, unit: 'V' }, room: [-5, 40], tolerance: 0.1 },
  { model: 'milesight-wt101', battery: { value: 80, unit: '%' }, room: [-20, 60], tolerance: 0.05 },
  { model: 'micropelt-mlr003', battery: { value: 2.9, unit: 'V' }, room: [0, 60], tolerance: 0.125 },
  { model: 'elsys-ers', battery: { value: 3.6, unit: 'V' }, room: [-40, 80], tolerance: 0.05 },
] as const;

describe.each(UPLINKS)('$model uplink', ({ model, battery, room, tolerance }) => {
  const codec = getCodec(model);
  it('decodes what the encoder wrote within the device resolution', () => {
    fc.assert(
      fc.property(reading({ ...battery }, [...room]), (r) => {
        const frame = codec.encodeUplink(r);
        const back = codec.decodeUplink(frame.fPort, frame.bytes);
        expect(Math.abs((back.roomTemperature ?? Number.NaN) - r.roomTemperature)).toBeLessThanOrEqual(
          tolerance,
        );
        expect(back.battery).toEqual(battery);
        if (codec.kind === 'valve') {
          expect(back.setpoint).toBe(r.setpoint);
          expect(Math.abs((back.valveOpening ?? Number.NaN) - r.valveOpening)).toBeLessThanOrEqual(1);
        }
        if (model === 'micropelt-mlr003') {
          expect(Math.abs((back.supplyTemperature ?? Number.NaN) - r.supplyTemperature)).toBeLessThanOrEqual(
            0.25,
          );
        }
        if (model !== 'elsys-ers') expect(back.openWindow ?? r.openWindow).toBe(r.openWindow);
      }),
    );
  });
});

describe('mclimate-vicki firmware ≤ 3.4 keep-alive', () => {
  it('round-trips the room temperature within its 0.65 °C step', () => {
    const vicki = getCodec('mclimate-vicki');
    fc.assert(
      fc.property(reading({ value: 3, unit: 'V' }, [-40, 60]), (r) => {
        const back = vicki.decodeUplink(1, encodeKeepAlive(r, 0x01).bytes);
        expect(Math.abs((back.roomTemperature ?? Number.NaN) - r.roomTemperature)).toBeLessThanOrEqual(0.33);
      }),
    );
  });
});
