/** The unit page explains the room's learned warm-up model, in German and English. */
import type { UnitWarmUp } from '@heizplan/contracts/optimum';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

const learned = (over: Partial<UnitWarmUp> = {}): UnitWarmUp => ({
  mode: 'on',
  companyMode: 'on',
  optimumStart: true,
  model: {
    learned: true,
    deadtimeMinutes: 26,
    rateAt0: 1.94,
    ratePerOutdoorK: 0,
    coolRate: 0.62,
    comfortHoldMinutes: 27.5,
    confidence: 0.85,
    learnedAt: '2026-11-26T06:00:00.000Z',
  },
  sessions: [
    {
      start: '2026-11-24T05:00:00.000Z',
      lift: 4.8,
      outdoor: null,
      deadtimeMinutes: 25,
      rate: 1.9,
      durationMinutes: 172,
    },
    {
      start: '2026-11-25T05:00:00.000Z',
      lift: 5,
      outdoor: null,
      deadtimeMinutes: 27,
      rate: 2,
      durationMinutes: 176,
    },
  ],
  mornings: [
    { at: '2026-11-24T06:00:00.000Z', comfort: 21, room: 20.7, hit: true },
    { at: '2026-11-25T06:00:00.000Z', comfort: 21, room: 19.9, hit: false },
    { at: '2026-11-26T06:00:00.000Z', comfort: 21, room: null, hit: false },
  ],
  ...over,
});

function open(warmUp: UnitWarmUp, lang: 'de' | 'en') {
  const unit = testUnit({ name: 'Klasse 5a' });
  const { session } = signIn({
    profile: testProfile({ lang }),
    extra: heatingApi([unit], (method, url) => {
      if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
      if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}/warm-up`) return json(200, warmUp);
      return undefined;
    }),
  });
  renderRoutes(routes, `/units/${unit.id}`, { session });
}

describe('warm-up model on the unit page', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows rate, dead time, cooling, confidence, the last warm-ups and the hit rate in German', async () => {
    await setLanguage('de');
    open(learned(), 'de');
    const model = await screen.findByTestId('warm-up-model');
    expect(model).toHaveTextContent('Aufheizen1,9 K/h');
    expect(model).toHaveTextContent('Totzeit26 min');
    expect(model).toHaveTextContent('Abkühlen0,6 K/h');
    expect(model).toHaveTextContent('Hält nach dem Abschalten28 min');
    expect(model).toHaveTextContent('Sicherheit85 %');
    const sessions = within(screen.getByTestId('warm-up-sessions')).getAllByRole('listitem');
    expect(sessions.map((s) => s.textContent)).toEqual([
      'Di., 24.11.172 min für 4,8 K, 1,9 K/h',
      'Mi., 25.11.176 min für 5 K, 2 K/h',
    ]);
    // The morning without a reading is not judged.
    expect(screen.getByTestId('warm-up-hits')).toHaveTextContent('an 1 von 2 Morgen');
    expect(screen.getByTestId('warm-up-mode')).toHaveTextContent('Aktiv');
    expect(screen.getByTestId('warm-up-outdoor')).toHaveTextContent('lag keine Außentemperatur vor');
  });

  it("shows each warm-up's outdoor temperature and how the rate follows it, in English", async () => {
    await setLanguage('en');
    const base = learned();
    open(
      learned({
        model: { ...(base.model as NonNullable<UnitWarmUp['model']>), ratePerOutdoorK: 0.06 },
        sessions: base.sessions.map((s, i) => ({ ...s, outdoor: i === 0 ? -3.24 : 4 })),
      }),
      'en',
    );
    const sessions = within(await screen.findByTestId('warm-up-sessions')).getAllByRole('listitem');
    expect(sessions.map((s) => s.textContent)).toEqual([
      'Tue, 11/24172 min for 4.8 K, 1.9 K/h at -3.2 °C outside',
      'Wed, 11/25176 min for 5 K, 2 K/h at 4.0 °C outside',
    ]);
    expect(screen.getByTestId('warm-up-outdoor')).toHaveTextContent(
      'Warm-up is given at 0 °C outside and changes by 0.06 K/h per kelvin of outdoor temperature',
    );
  });

  it('says outdoor temperature made no measurable difference instead of "0 K/h per kelvin"', async () => {
    await setLanguage('de');
    const base = learned();
    open(
      learned({
        model: { ...(base.model as NonNullable<UnitWarmUp['model']>), ratePerOutdoorK: 0.003 },
        sessions: base.sessions.map((s, i) => ({ ...s, outdoor: i === 0 ? 2 : 9 })),
      }),
      'de',
    );
    expect(await screen.findByTestId('warm-up-outdoor')).toHaveTextContent(
      'Die Außentemperatur hat auf das Aufheizen dieses Raums bisher keinen messbaren Einfluss',
    );
  });

  it('says why it does not act and what applies before anything is learned, in English', async () => {
    await setLanguage('en');
    open(learned({ mode: 'off', optimumStart: false, model: null, sessions: [], mornings: [] }), 'en');
    expect(await screen.findByTestId('warm-up-mode')).toHaveTextContent(
      'This room is left out of optimum start',
    );
    expect(screen.getByTestId('warm-up-none')).toHaveTextContent(
      'the default of 30 minutes per kelvin applies',
    );
    expect(screen.getByTestId('warm-up-hits')).toHaveTextContent('No comfort time with a reading');
  });
});
