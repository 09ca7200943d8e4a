/**
 * The unit graph's text alternative: the drawing is named with the room, the range and the latest
 * room temperature against its setpoint, and "Daten als Tabelle" shows the same buckets as a table,
 * times in the company's zone and in German formats on a German screen.
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

// uPlot needs a canvas jsdom does not have; its options are checked in unit-graphs.test.tsx.
vi.mock('./components/series-chart.tsx', () => ({
  default: () => <div data-testid="unit-graph-chart" />,
}));

/** The screens' clock: the unit's page reads its room temperature and last signal against it. */
const NOW = new Date('2026-12-01T13:00:00Z');

const series: UnitSeries = {
  from: '2026-11-29T13:00:00.000Z',
  to: '2026-12-01T13:00:00.000Z',
  bucketSeconds: 3600,
  timeZone: 'Europe/Berlin',
  buckets: {
    time: ['2026-12-01T10:00:00.000Z', '2026-12-01T11:00:00.000Z', '2026-12-01T12:00:00.000Z'],
    roomAvg: [19.5, 21.5, null],
    roomMin: [19, 21, null],
    roomMax: [20, 22, null],
    supplyAvg: [45, 50, 52],
    valveAvg: [20, 60, 40],
  },
  setpoint: [
    { at: '2026-11-29T13:00:00.000Z', setpoint: 17 },
    { at: '2026-12-01T10:30:00.000Z', setpoint: 21 },
  ],
};

function open(lang: 'de' | 'en') {
  const unit = testUnit({ name: 'Büro 1.01' });
  const { session } = signIn({
    profile: testProfile({ lang }),
    extra: heatingApi([unit], (method, url) => {
      if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
      if (url.startsWith(`/api/companies/c1/units/${unit.id}/series`)) return json(200, series);
      return undefined;
    }),
  });
  renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) });
}

describe('unit graph as text', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('names the chart with its latest reading and shows its data as a table in German', async () => {
    await setLanguage('de');
    open('de');
    expect(
      await screen.findByRole('img', {
        name: 'Temperaturverlauf Büro 1.01, 48 Stunden: zuletzt 21,5 °C bei Soll 21,0 °C (01.12.2026, 12:00)',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: /Temperaturverlauf Büro 1.01/ })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Daten als Tabelle' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = screen.getByRole('table', {
      name: 'Temperaturverlauf Büro 1.01, 48 Stunden (Zeiten in Europe/Berlin)',
    });
    expect(within(table).getByRole('columnheader', { name: 'Solltemperatur' })).toBeInTheDocument();
    // 11:00 UTC is 12:00 in Berlin; the setpoint raised at 10:30 UTC is in force.
    const row = within(table).getByRole('row', { name: /01\.12\.2026, 12:00/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['21,0 °C', '21,5 °C', '21,0 °C', '22,0 °C', '50,0 °C', '60 %']);
    await userEvent.click(toggle);
    expect(screen.queryByRole('table', { name: /Temperaturverlauf/ })).not.toBeInTheDocument();
  });

  it('says the same in English', async () => {
    await setLanguage('en');
    open('en');
    expect(
      await screen.findByRole('img', {
        name: /^Temperature history Büro 1\.01, 48 hours: latest 21\.5 °C at setpoint 21\.0 °C/,
      }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show data as table' }));
    const table = screen.getByRole('table', { name: /^Temperature history Büro 1\.01/ });
    const row = within(table).getByRole('row', { name: /Dec 1, 2026, 12:00\sPM/ });
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('21.5 °C');
  });
});
