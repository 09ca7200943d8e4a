import { describe, expect, it } from 'vitest';
import { parseDevices, parseDuration, parseFaults } from './main.ts';

describe('simulator command line', () => {
  it('reads durations in s, m, h and d as hours', () => {
    expect(parseDuration('30s')).toBeCloseTo(1 / 120);
    expect(parseDuration('10m')).toBeCloseTo(1 / 6);
    expect(parseDuration('2h')).toBe(2);
    expect(parseDuration('14d')).toBe(336);
    expect(() => parseDuration('14 days')).toThrow(/not a duration/);
  });

  it('reads DevEUI:model pairs and names a bad entry', () => {
    expect(parseDevices('70B3D52DD3000001:mclimate-vicki,70b3d52dd3000002:elsys-ers')).toEqual([
      { devEui: '70b3d52dd3000001', model: 'mclimate-vicki' },
      { devEui: '70b3d52dd3000002', model: 'elsys-ers' },
    ]);
    expect(() => parseDevices('70b3d52dd3000001:honeywell')).toThrow(/unknown model 'honeywell'/);
    expect(() => parseDevices('123:elsys-ers')).toThrow(/'123:elsys-ers': DevEUI/);
  });

  it('reads faults per DevEUI and names a bad one', () => {
    expect(
      parseFaults(
        '70b3d52dd3000001:silent,70B3D52DD3000002:battery=30/2.5,70b3d52dd3000002:error=calibrationFailed,70b3d52dd3000003:window,70b3d52dd3000003:noheat',
      ),
    ).toEqual(
      new Map([
        ['70b3d52dd3000001', { silent: true }],
        ['70b3d52dd3000002', { battery: { value: 30, perDay: 2.5 }, errors: ['calibrationFailed'] }],
        ['70b3d52dd3000003', { openWindow: true, noHeat: true }],
      ]),
    );
    expect(() => parseFaults('70b3d52dd3000001:flood')).toThrow(/'70b3d52dd3000001:flood': unknown fault/);
    expect(() => parseFaults('70b3d52dd3000001:battery=low')).toThrow(/unknown fault/);
  });
});
