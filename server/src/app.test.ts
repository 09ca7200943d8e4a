/**
 * The app is built once from what the composition root made (services.ts, ports.ts); nothing
 * adds to or replaces its dependencies afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helpers.ts';
import { lateBinding } from './ports.ts';

describe('the app’s dependencies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('are the ones it was built from', () => {
    expect(t.app.deps.services).toBe(t.services);
    expect(t.app.deps.database).toBe(t.database);
    expect(t.app.deps.config).toBe(t.config);
  });

  it('cannot be replaced or changed after the build', () => {
    expect(Object.isFrozen(t.app.deps)).toBe(true);
    expect(Object.isFrozen(t.services)).toBe(true);
    expect(() => {
      (t.app as unknown as { deps: unknown }).deps = {};
    }).toThrow(TypeError);
    expect(() => {
      (t.app.deps as { lorawanStatus: unknown }).lorawanStatus = { current: undefined };
    }).toThrow(TypeError);
    expect(() => {
      (t.services as { units: unknown }).units = undefined;
    }).toThrow(TypeError);
    expect(t.app.deps.services.units).toBe(t.services.units);
  });
});

describe('lateBinding', () => {
  it('answers undefined until bound, then the value', () => {
    const scheduler = lateBinding<{ wake(): void }>('the heating scheduler');
    expect(scheduler.current).toBeUndefined();
    const bound = { wake: () => {} };
    scheduler.bind(bound);
    expect(scheduler.current).toBe(bound);
  });

  it('is bound once: a second binding throws and keeps the first', () => {
    const lorawan = lateBinding<string>('the LoRaWAN side');
    lorawan.bind('first');
    expect(() => lorawan.bind('second')).toThrow('the LoRaWAN side is already bound');
    expect(lorawan.current).toBe('first');
  });
});
