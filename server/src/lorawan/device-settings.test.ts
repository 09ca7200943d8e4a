import { describe, expect, it } from 'vitest';
import { bytesToHex } from './codecs/codec.ts';
import { getCodec } from './codecs/registry.ts';
import { antiFreezeSupport, desiredAntiFreeze, settingsCommands } from './device-settings.ts';

const vicki = getCodec('mclimate-vicki');
const commands = (
  firmware: string | null,
  antiFreeze: ReturnType<typeof desiredAntiFreeze> | null,
  frost = 8,
) => bytesToHex(settingsCommands(vicki, { firmware, antiFreeze }, desiredAntiFreeze(frost)));

describe('device-side frost protection', () => {
  it("follows the company's frost-protection setpoint with the spacing of the Vicki's defaults", () => {
    expect(desiredAntiFreeze(7)).toEqual({ activation: 6, deactivation: 9, target: 7 });
    expect(desiredAntiFreeze(8)).toEqual({ activation: 7, deactivation: 10, target: 8 });
    // The device takes whole degrees from 5 °C.
    expect(desiredAntiFreeze(6.5)).toEqual({ activation: 6, deactivation: 9, target: 7 });
    expect(desiredAntiFreeze(3)).toEqual({ activation: 4, deactivation: 7, target: 5 });
  });

  it('is supported by the Vicki from firmware 4.3 on, by the other models not at all', () => {
    expect(antiFreezeSupport(vicki, null)).toBe('firmware_unknown');
    expect(antiFreezeSupport(vicki, '4.2')).toBe('firmware_too_old');
    expect(antiFreezeSupport(vicki, '3.9')).toBe('firmware_too_old');
    expect(antiFreezeSupport(vicki, '4.3')).toBe('supported');
    expect(antiFreezeSupport(vicki, '4.10')).toBe('supported');
    expect(antiFreezeSupport(vicki, '5.0')).toBe('supported');
    for (const model of ['milesight-wt101', 'micropelt-mlr003', 'elsys-ers'] as const) {
      expect(antiFreezeSupport(getCodec(model), null)).toBe('none');
    }
  });

  it('asks for the firmware first, then sets and reads back frost protection until the valve reports it', () => {
    expect(commands(null, null)).toBe('04');
    expect(commands('4.2', null)).toBe('');
    expect(commands('4.3', null)).toBe('494664084a');
    expect(commands('4.3', { activation: 6, deactivation: 9, target: 7 })).toBe('494664084a');
    expect(commands('4.3', { activation: 7, deactivation: 10, target: 8 })).toBe('');
    // The company lowered its frost protection to 6 °C: the valve gets 5 / 8 / 6 °C.
    expect(commands('4.3', { activation: 7, deactivation: 10, target: 8 }, 6)).toBe('493250064a');
  });

  it('appends nothing for models without settings of their own', () => {
    const wt101 = getCodec('milesight-wt101');
    expect(settingsCommands(wt101, { firmware: null, antiFreeze: null }, desiredAntiFreeze(8))).toHaveLength(
      0,
    );
  });
});
