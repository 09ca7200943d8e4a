import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './codec.ts';
import { mclimateVicki } from './mclimate-vicki.ts';

const config = mclimateVicki.config;
if (!config) throw new Error('the Vicki takes configuration commands');

// Vectors from MClimate's payload library tests (mclimate-payload-helper: GeneralCommands,
// ChildLockCommands, TemperatureCommonCommands, VickiCommands), followed by Heizplan's read-back query.
describe('Vicki configuration commands', () => {
  it('encodes each field as MClimate documents it, then asks for it back', () => {
    expect(bytesToHex(config.encode('keepAliveMinutes', 5))).toBe('020512');
    expect(bytesToHex(config.encode('childLock', true))).toBe('0701');
    expect(bytesToHex(config.encode('childLock', false))).toBe('0700');
    // MClimate's example 0x3501: the child lock remains unchanged while the valve is offline.
    expect(bytesToHex(config.encode('childLockKeptOffline', true))).toBe('350134');
    expect(bytesToHex(config.encode('childLockKeptOffline', false))).toBe('350034');
    expect(bytesToHex(config.encode('temperatureRange', { min: 5, max: 25 }))).toBe('08051915');
    expect(bytesToHex(config.encode('openWindow', { enabled: true, durationMinutes: 25, deltaK: 1.5 }))).toBe(
      '4501050f46',
    );
    expect(bytesToHex(config.encode('temperatureOffset', 0))).toBe('531c54');
    expect(bytesToHex(config.recalibrate ?? new Uint8Array())).toBe('03');
  });

  it('refuses values the valve cannot take', () => {
    expect(() => config.encode('keepAliveMinutes', 0)).toThrow(/keep-alive/);
    expect(() => config.encode('temperatureRange', { min: 25, max: 20 })).toThrow(/above/);
    expect(() => config.encode('temperatureOffset', 6)).toThrow(/offset/);
  });

  it('counts a reported value as set when the valve would be sent the same bytes', () => {
    expect(config.same('temperatureOffset', 1, 1.056)).toBe(true);
    expect(config.same('temperatureOffset', 1, 0.88)).toBe(false);
    expect(config.same('keepAliveMinutes', 10, 15)).toBe(false);
  });

  it('reads the answers in front of a keep-alive and the commands of a downlink', () => {
    const keepAlive = '81142a600000fb7a1090';
    const reading = mclimateVicki.decodeUplink(
      1,
      hexToBytes(`120a46010a0f34011505195420${keepAlive.slice(0, 18)}`),
    );
    expect(reading.config).toEqual({
      keepAliveMinutes: 10,
      childLockKeptOffline: true,
      openWindow: { enabled: true, durationMinutes: 50, deltaK: 1.5 },
      temperatureRange: { min: 5, max: 25 },
      temperatureOffset: 0.704,
    });
    const command = mclimateVicki.decodeDownlink(1, hexToBytes('0e150205120701350134450105' + '0f4603'));
    expect(command).toEqual({
      setpoint: 21,
      config: {
        keepAliveMinutes: 5,
        childLock: true,
        childLockKeptOffline: true,
        openWindow: { enabled: true, durationMinutes: 25, deltaK: 1.5 },
      },
      recalibrate: true,
      queries: ['keepAliveMinutes', 'childLockKeptOffline', 'openWindow'],
    });
  });

  it('encodes the answers the simulator sends so that the decoder reads them back', () => {
    const reported = {
      keepAliveMinutes: 30,
      childLockKeptOffline: false,
      openWindow: { enabled: false, durationMinutes: 10, deltaK: 1 },
      temperatureRange: { min: 16, max: 24 },
      temperatureOffset: -0.704,
    };
    const frame = mclimateVicki.encodeUplink({
      roomTemperature: 20,
      setpoint: 21,
      valveOpening: 30,
      battery: { value: 3.4, unit: 'V' },
      errors: [],
      config: reported,
    });
    expect(mclimateVicki.decodeUplink(frame.fPort, frame.bytes).config).toEqual(reported);
  });
});
