/**
 * The unit page shows the occupants' "zu warm" / "zu kalt" of the last 30 days (decision 0070):
 * counts, each press in the company's local time with German numbers, and an empty state.
 */
import type { UnitFeedback } from '@heizplan/contracts/occupant-feedback';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

const NOW = new Date('2026-12-02T12:00:00+01:00');

const feedback = (over: Partial<UnitFeedback> = {}): UnitFeedback => ({
  from: '2026-11-02T11:00:00.000Z',
  to: '2026-12-02T11:00:00.000Z',
  timeZone: 'Europe/Berlin',
  counts: { tooWarm: 1, tooCold: 2 },
  results: [
    {
      id: 'f3',
      at: '2026-12-02T07:15:00.000Z',
      feeling: 'too_cold',
      roomTemperature: 20.4,
      setpoint: 21.5,
      trend: -0.8,
    },
    {
      id: 'f2',
      at: '2026-12-01T13:40:00.000Z',
      feeling: 'too_warm',
      roomTemperature: 23,
      setpoint: 21,
      trend: 0.8,
    },
    {
      id: 'f1',
      at: '2026-11-20T06:05:00.000Z',
      feeling: 'too_cold',
      roomTemperature: null,
      setpoint: null,
      trend: null,
    },
  ],
  ...over,
});

function open(answer: UnitFeedback) {
  const unit = testUnit({ name: 'Klasse 5a' });
  const asked: string[] = [];
  const { session } = signIn({
    profile: testProfile({ lang: 'de' }),
    extra: heatingApi([unit], (method, url) => {
      if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
      if (method === 'GET' && url.startsWith(`/api/companies/c1/units/${unit.id}/feedback?`)) {
        asked.push(url);
        return json(200, answer);
      }
      return undefined;
    }),
  });
  renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) });
  return { asked };
}

describe("occupants' feedback on the unit page", { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('counts too warm and too cold of the last 30 days and lists each in local time, German numbers', async () => {
    const { asked } = open(feedback());
    const list = await screen.findByRole('list', { name: 'Rückmeldungen, neueste zuerst' });
    expect(screen.getByRole('heading', { name: 'Rückmeldungen der Raumnutzer' })).toBeInTheDocument();
    const counts = screen.getByLabelText('Anzahl der Rückmeldungen');
    expect(within(counts).getByText('Zu warm').nextSibling).toHaveTextContent('1');
    expect(within(counts).getByText('Zu kalt').nextSibling).toHaveTextContent('2');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '02.12.2026 08:15Zu kaltRaum 20,4 °CSoll 21,5 °CVerlauf −0,8 K/h',
      '01.12.2026 14:40Zu warmRaum 23,0 °CSoll 21,0 °CVerlauf +0,8 K/h',
      '20.11.2026 07:05Zu kaltRaum —Soll —Verlauf —',
    ]);
    // The last 30 days up to now, from the page's clock.
    const query = new URL(asked[0] ?? '', 'http://x').searchParams;
    expect(query.get('to')).toBe(NOW.toISOString());
    expect(query.get('from')).toBe(new Date(NOW.getTime() - 30 * 86_400_000).toISOString());
  });

  it('says so when no occupant gave feedback', async () => {
    open(feedback({ counts: { tooWarm: 0, tooCold: 0 }, results: [] }));
    expect(
      await screen.findByText('In den letzten 30 Tagen hat kein Raumnutzer eine Rückmeldung gegeben.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Rückmeldungen, neueste zuerst' })).toBeNull();
  });
});
