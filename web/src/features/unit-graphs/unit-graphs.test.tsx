/** Unit graphs: readings and setpoint steps aligned for uPlot; a failed load says so and retries. */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';
import { chartOptions } from './chart-options.ts';
import { isEmptySeries, toGraphColumns } from './series-data.ts';

/** The screens' clock: the unit's page reads its room temperature and last signal against it. */
const NOW = new Date('2026-11-20T01:00:00Z');

const series = (over: Partial<UnitSeries> = {}): UnitSeries => ({
  from: '2026-11-20T00:00:00.000Z',
  to: '2026-11-20T01:00:00.000Z',
  bucketSeconds: 600,
  timeZone: 'Europe/Berlin',
  buckets: {
    time: ['2026-11-20T00:00:00.000Z', '2026-11-20T00:10:00.000Z', '2026-11-20T00:30:00.000Z'],
    roomAvg: [19, null, 20],
    roomMin: [18.5, null, 19.5],
    roomMax: [19.5, null, 20.5],
    supplyAvg: [45, null, 50],
    valveAvg: [20, null, 60],
  },
  setpoint: [
    { at: '2026-11-20T00:00:00.000Z', setpoint: 17 },
    { at: '2026-11-20T00:20:00.000Z', setpoint: 21 },
  ],
  ...over,
});
const s = (iso: string) => Date.parse(iso) / 1000;

describe('graph columns', () => {
  it('add the setpoint instants and the end to the x axis and hold each setpoint until the next', () => {
    const c = toGraphColumns(series());
    expect(c.x).toEqual([
      s('2026-11-20T00:00:00Z'),
      s('2026-11-20T00:10:00Z'),
      s('2026-11-20T00:20:00Z'),
      s('2026-11-20T00:30:00Z'),
      s('2026-11-20T01:00:00Z'),
    ]);
    expect(c.setpoint).toEqual([17, 17, 21, 21, 21]);
  });

  it('keep gaps in the readings as null but skip the setpoint-only instants with undefined', () => {
    const c = toGraphColumns(series());
    expect(c.roomAvg).toEqual([19, null, undefined, 20, undefined]);
    expect(c.valveAvg).toEqual([20, null, undefined, 60, undefined]);
  });

  it('know an empty series', () => {
    const none = series({
      buckets: { time: [], roomAvg: [], roomMin: [], roomMax: [], supplyAvg: [], valveAvg: [] },
      setpoint: [],
    });
    expect(isEmptySeries(none)).toBe(true);
    expect(isEmptySeries(series())).toBe(false);
    // A unit created minutes ago has a setpoint step but no readings: nothing to draw.
    const setpointOnly = series({
      buckets: { time: [], roomAvg: [], roomMin: [], roomMax: [], supplyAvg: [], valveAvg: [] },
    });
    expect(isEmptySeries(setpointOnly)).toBe(true);
  });
});

describe('unit graph', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it("says 'Data could not be loaded' and loads again on retry", async () => {
    const unit = testUnit({ name: 'Aula' });
    let recovered = false;
    const { session } = signIn({
      profile: testProfile({ lang: 'en' }),
      extra: heatingApi([unit], (method, url) => {
        if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
        if (!url.startsWith(`/api/companies/c1/units/${unit.id}/series`)) return undefined;
        return !recovered
          ? problem(503, 'Service Unavailable', 'Database down.')
          : json(
              200,
              series({
                buckets: { time: [], roomAvg: [], roomMin: [], roomMax: [], supplyAvg: [], valveAvg: [] },
                setpoint: [],
              }),
            );
      }),
    });
    renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) });
    // The query retries once first; the setup's 10 s wait covers that on a loaded machine.
    expect(await screen.findByTestId('unit-graph-error')).toHaveTextContent('Data could not be loaded');
    recovered = true;
    await userEvent.click(screen.getByTestId('unit-graph-retry'));
    expect(await screen.findByTestId('unit-graph-empty')).toHaveTextContent('No readings yet');
    await userEvent.click(screen.getByTestId('unit-graph-range-14d'));
    expect(screen.getByTestId('unit-graph-range-14d')).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('chart options', () => {
  const german = (key: string) => i18n.getFixedT('de', 'graphs')(key);
  const options = () =>
    chartOptions({
      series: series(),
      width: 600,
      language: 'de',
      t: german,
      stepped: undefined,
      tzDate: (ts) => new Date(ts * 1000),
    });

  // UPlot labels its time entry 'Time' and formats it in English unless told otherwise.
  it('name and format the legend time entry in the user language', () => {
    const time = options().series[0];
    expect(time?.label).toBe('Zeit');
    const value = time?.value as (u: unknown, ts: number) => string;
    expect(value(null, s('2026-11-20T05:30:00.000Z'))).toBe('Fr., 20.11., 06:30');
  });

  // Readings that start minutes ago were drawn over two minutes with repeated labels.
  it('span the whole range asked for, whatever the data covers', () => {
    const range = options().scales?.x?.range;
    expect(range).toEqual([s('2026-11-20T00:00:00.000Z'), s('2026-11-20T01:00:00.000Z')]);
  });

  it('never repeat a tick label, also over two weeks', () => {
    const twoWeeks = chartOptions({
      series: series({ from: '2026-11-06T23:00:00.000Z', to: '2026-11-20T23:00:00.000Z' }),
      width: 600,
      language: 'de',
      t: german,
      stepped: undefined,
      tzDate: (ts) => new Date(ts * 1000),
    });
    const labels = twoWeeks.axes?.[0]?.values as (u: unknown, splits: number[]) => string[];
    const splits = ['2026-11-09T23:00:00.000Z', '2026-11-10T11:00:00.000Z', '2026-11-10T23:00:00.000Z'].map(
      s,
    );
    const shown = labels(null, splits);
    expect(new Set(shown).size).toBe(3);
    expect(shown[0]).toBe('Di., 10.11.');
  });
});

describe('chart axes', () => {
  const options = (language: string, over: Partial<UnitSeries> = {}) =>
    chartOptions({
      series: series(over),
      width: 600,
      language,
      t: (key) => key,
      stepped: undefined,
      tzDate: (ts) => new Date(ts * 1000),
    });
  /** A uPlot stand-in whose canvas measures 7 px per character at 12 px. */
  const measured = {
    axes: [{}, { font: ['12px sans-serif'] }, { font: ['12px sans-serif'] }],
    ctx: { font: '', measureText: (text: string) => ({ width: text.length * 7 }) },
  };
  type Labels = (u: unknown, values: number[]) => string[];
  /** Axis `index` of `language`'s options: its labels for `values` and its width for them. */
  const axisOf = (language: string, index: number, over: Partial<UnitSeries> = {}) => {
    const axis = options(language, over).axes?.[index];
    if (!axis) throw new Error(`no axis ${index}`);
    const labels = (values: number[]) => (axis.values as Labels)(null, values);
    const width = (shown: string[]) =>
      typeof axis.size === 'function' ? axis.size(measured as never, shown, index, 0) : axis.size;
    return { axis, labels, width };
  };

  // "100 %" was cut off at the right edge: the axis was narrower than ticks, gap and label.
  it('give each y axis room for its widest label', () => {
    const valve = axisOf('de', 2);
    const percent = valve.labels([0, 50, 100]);
    expect(percent).toContain('100 %');
    expect(valve.width(percent)).toBeGreaterThanOrEqual(10 + 5 + '100 %'.length * 7);
    const celsius = axisOf('de', 1);
    expect(celsius.width(celsius.labels([18, 22.5]))).toBeGreaterThanOrEqual(10 + 5 + '22,5 °C'.length * 7);
  });

  // English labels over 48 h ran into each other ("06:00 PM" next to "Fri, 11/20").
  it('keep English time ticks short and far enough apart for their labels over 48 h', () => {
    const twoDays = { from: '2026-11-19T23:00:00.000Z', to: '2026-11-21T23:00:00.000Z' };
    const time = axisOf('en', 0, twoDays);
    const hourly = Array.from({ length: 48 }, (_, h) => s(twoDays.from) + h * 3600);
    const shown = time.labels(hourly);
    expect(shown[0]).toBe('Fri, 11/20');
    expect(shown[18]).toBe('6 PM');
    const widest = Math.max(...shown.map((label) => label.length * 7));
    expect(time.axis.space).toBeGreaterThanOrEqual(widest + 8);
    // German keeps its 24-hour clock.
    expect(axisOf('de', 0, twoDays).labels(hourly)[18]).toBe('18:00');
  });
});
