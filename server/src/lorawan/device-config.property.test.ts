import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mclimateVicki } from './codecs/mclimate-vicki.ts';
import {
  airtimeToday,
  answeringDevices,
  configCommands,
  configDifferences,
  configStatus,
  downlinkCostMs,
  planConfig,
} from './device-config.ts';

const config = fc.record({
  keepAliveMinutes: fc.integer({ min: 1, max: 255 }),
  openWindow: fc.record({
    enabled: fc.boolean(),
    durationMinutes: fc.integer({ min: 1, max: 255 }).map((n) => n * 5),
    deltaK: fc.integer({ min: 1, max: 255 }).map((n) => n / 10),
  }),
  childLock: fc.boolean(),
  childLockKeptOffline: fc.boolean(),
  temperatureRange: fc
    .tuple(fc.integer({ min: 5, max: 30 }), fc.integer({ min: 5, max: 30 }))
    .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
  temperatureOffset: fc.integer({ min: -27, max: 27 }).map((n) => Math.round(n * 0.176 * 1000) / 1000),
});

const device = fc.record({
  firmware: fc.constantFrom(null, '3.5', '4.1', '4.2', '4.3'),
  desired: fc.option(config, { nil: null }),
  reported: fc
    .option(config, { nil: undefined })
    .chain((full) =>
      full
        ? fc
            .subarray(Object.keys(full))
            .map((keys) => Object.fromEntries(keys.map((k) => [k, full[k as keyof typeof full]])))
        : fc.constant({}),
    ),
  spreadingFactor: fc.option(fc.integer({ min: 7, max: 12 }), { nil: null }),
  uplinkBytes: fc.option(fc.integer({ min: 9, max: 40 }), { nil: null }),
  downlinkBytesToday: fc.array(fc.integer({ min: 2, max: 51 }), { maxLength: 30 }),
});

describe('configuration downlinks within the airtime budget (property)', () => {
  it('never plans a downlink that takes a device past its daily budget, nor past the payload limit', () => {
    fc.assert(
      fc.property(
        device,
        fc.integer({ min: 1_000, max: 900_000 }),
        fc.integer({ min: 2, max: 3 }),
        (state, budgetMs, setpointBytes) => {
          const { bytes, fields } = planConfig(mclimateVicki, state, budgetMs, setpointBytes);
          if (bytes.length === 0) return;
          const { uplinkMs, downlinkMs } = airtimeToday(mclimateVicki, state);
          expect(
            uplinkMs + downlinkMs + downlinkCostMs(state, setpointBytes + bytes.length, fields.length),
          ).toBeLessThanOrEqual(budgetMs);
          expect(setpointBytes + bytes.length).toBeLessThanOrEqual(
            state.spreadingFactor === null || state.spreadingFactor >= 10 ? 51 : 222,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('plans every due field when the budget is ample, and calls a device in sync only when nothing differs', () => {
    fc.assert(
      fc.property(device, (state) => {
        const { due } = configDifferences(mclimateVicki, state);
        const { status } = configStatus(mclimateVicki, state, 86_400_000, 3);
        if (state.desired === null) expect(status).toBe('none');
        else if (status === 'in_sync') expect(due).toEqual([]);
        if (due.length > 0 && (state.spreadingFactor ?? 12) <= 8) {
          expect(configCommands(mclimateVicki, state, 86_400_000, 3).length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('configuration state', () => {
  const desired = {
    keepAliveMinutes: 15,
    openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
    childLock: true,
    childLockKeptOffline: true,
    temperatureRange: { min: 16, max: 24 },
    temperatureOffset: 0,
  };
  const base = {
    firmware: '4.3',
    desired,
    reported: {},
    spreadingFactor: 7,
    uplinkBytes: 9,
    downlinkBytesToday: [],
  };

  it('is pending until the device reports each field, then in sync', () => {
    expect(configStatus(mclimateVicki, base, 864_000, 3).status).toBe('pending');
    expect(configStatus(mclimateVicki, { ...base, reported: desired }, 864_000, 3).status).toBe('in_sync');
  });

  it('differs when the firmware lacks a field, or when today’s airtime is spent', () => {
    const old = configStatus(
      mclimateVicki,
      { ...base, firmware: '4.1', reported: { ...desired, openWindow: undefined } },
      864_000,
      3,
    );
    expect(old.status).toBe('differs');
    expect(old.differences.unsupported).toEqual(['openWindow']);
    const older = configStatus(mclimateVicki, { ...base, firmware: '4.0', reported: {} }, 864_000, 3);
    expect(older.differences.unsupported).toEqual(['childLockKeptOffline', 'openWindow']);
    const spent = configStatus(
      mclimateVicki,
      { ...base, spreadingFactor: 12, downlinkBytesToday: Array(30).fill(20) },
      30_000,
      3,
    );
    expect(spent).toMatchObject({ status: 'differs', budgetSpent: true });
  });

  it('sends the child lock, its offline behaviour and the range first when not everything fits (SF12, 51 bytes)', () => {
    const bytes = configCommands(mclimateVicki, { ...base, spreadingFactor: 12 }, 864_000, 3);
    expect(
      Buffer.from(bytes)
        .toString('hex')
        .startsWith('0701' + '350134' + '08101815'),
    ).toBe(true);
  });
});

describe('answering devices', () => {
  it('names each device whose uplink answered a query once, and none for plain keep-alives', () => {
    const uplink = (id: string, reading?: object) => ({ device: { id }, reading: reading as never });
    expect(
      answeringDevices([
        uplink('a', { errors: [], roomTemperature: 20 }),
        uplink('b', { errors: [], firmware: '4.3' }),
        uplink('c', { errors: [], config: { keepAliveMinutes: 10 } }),
        uplink('b', { errors: [], antiFreeze: { activation: 7, deactivation: 10, target: 8 } }),
        uplink('d'),
      ]),
    ).toEqual(['b', 'c']);
  });
});
