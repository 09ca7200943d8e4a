/** Setpoint delivery: what arrived at each device, and "pending on N devices" per unit, in both languages. */
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { registryApi, testDevice } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

describe('setpoint delivery', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows each device how far its latest setpoint got', async () => {
    await setLanguage('en');
    const at = '2026-11-22T10:00:00.000Z';
    const queued = testDevice({ downlink: { setpoint: 21, state: 'queued', queuedAt: at, updatedAt: at } });
    const arrived = testDevice({
      downlink: { setpoint: 17.5, state: 'acknowledged', queuedAt: at, updatedAt: at },
    });
    const never = testDevice();
    const { session } = signIn({
      profile: testProfile({ lang: 'en' }),
      extra: registryApi({ devices: [queued, arrived, never] }),
    });
    renderRoutes(routes, '/devices', { session });
    expect(await screen.findByTestId(`device-downlink-${queued.id}`)).toHaveTextContent('21.0 °C · queued');
    expect(screen.getByTestId(`device-downlink-${arrived.id}`)).toHaveTextContent('17.5 °C · arrived');
  });

  it('says on how many devices a unit’s setpoint is pending or failed, with plural forms', async () => {
    await setLanguage('de');
    const waiting = testUnit({ downlinks: { pending: 3, failed: 1, delivered: [] } });
    const one = testUnit({ downlinks: { pending: 1, failed: 0, delivered: [] } });
    const done = testUnit();
    const { session } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: heatingApi([waiting, one, done]),
    });
    renderRoutes(routes, '/units', { session });
    const cell = await screen.findByTestId(`unit-downlinks-${waiting.id}`);
    expect(cell).toHaveTextContent('Ausstehend auf 3 Geräten');
    expect(cell).toHaveTextContent('Fehlgeschlagen auf 1 Gerät');
    expect(screen.getByTestId(`unit-downlinks-${one.id}`)).toHaveTextContent('Ausstehend auf 1 Gerät');
    expect(screen.queryByTestId(`unit-downlinks-${done.id}`)).toBeNull();
  });
});
