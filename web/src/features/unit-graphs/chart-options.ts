/**
 * The uPlot options of a unit graph (decision 0019), kept apart from the component so they can be
 * checked without a canvas: setpoint as steps, room temperature with its min–max band, supply
 * temperature, valve opening (%) on a right-hand axis. Every word and number is in the user's
 * language and the company's zone — including the legend's time entry, which uPlot would label
 * 'Time' in English (issue 14.2). The time axis spans the whole range asked for, so readings that
 * start minutes ago are not stretched over the width, and a tick reads as a date only at
 * midnight, so no label repeats (issue 14.5).
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import type uPlot from 'uplot';

export const CHART_HEIGHT = 280;
const COLOURS = {
  setpoint: '#b4411c',
  room: '#1d4ed8',
  band: 'rgba(29, 78, 216, 0.12)',
  supply: '#d97706',
  valve: '#15803d',
};

export interface ChartContext {
  series: UnitSeries;
  width: number;
  language: string;
  /** Translation in the `graphs` namespace. */
  t: (key: string) => string;
  /** uPlot's helpers, passed in so this module does not load uPlot (it needs a browser). */
  stepped: uPlot.Series.PathBuilder | undefined;
  tzDate: (ts: number) => Date;
}

export function chartOptions({ series, width, language, t, stepped, tzDate }: ChartContext): uPlot.Options {
  const from = Date.parse(series.from) / 1000;
  const to = Date.parse(series.to) / 1000;
  const celsius = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const degrees = (_: uPlot, values: (number | null)[]) =>
    values.map((v) => (v === null ? '' : `${celsius.format(v)} °C`));
  // Tick labels: the date at midnight, the time of day at any other tick.
  const clock = new Intl.DateTimeFormat(language, {
    timeZone: series.timeZone,
    hour: '2-digit',
    minute: '2-digit',
  });
  const day = new Intl.DateTimeFormat(language, {
    timeZone: series.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
  });
  const clock24 = new Intl.DateTimeFormat('en-GB', {
    timeZone: series.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const moment = new Intl.DateTimeFormat(language, {
    timeZone: series.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  const timeLabels = (_: uPlot, splits: number[]) =>
    splits.map((ts) => {
      const date = new Date(ts * 1000);
      return clock24.format(date) === '00:00' ? day.format(date) : clock.format(date);
    });
  const percent = (_: uPlot, values: (number | null)[]) => values.map((v) => (v === null ? '' : `${v} %`));
  const temperature = {
    scale: '°C',
    value: (_: uPlot, v: number | null) => (v === null ? '—' : `${celsius.format(v)} °C`),
  };
  return {
    width,
    height: CHART_HEIGHT,
    tzDate,
    scales: { x: { time: true, range: [from, to] }, '°C': { auto: true }, '%': { range: [0, 100] } },
    axes: [
      { stroke: '#57534e', grid: { stroke: '#e7e5e4' }, values: timeLabels, space: 60 },
      { scale: '°C', values: degrees, size: 64, stroke: '#57534e', grid: { stroke: '#e7e5e4' } },
      { scale: '%', side: 1, values: percent, size: 48, stroke: '#57534e', grid: { show: false } },
    ],
    series: [
      {
        label: t('time'),
        value: (_: uPlot, ts: number | null) => (ts === null ? '—' : moment.format(new Date(ts * 1000))),
      },
      { label: t('setpoint'), stroke: COLOURS.setpoint, width: 2, paths: stepped, ...temperature },
      { label: t('room'), stroke: COLOURS.room, width: 2, ...temperature },
      { label: t('roomMin'), stroke: 'transparent', show: true, ...temperature },
      { label: t('roomMax'), stroke: 'transparent', show: true, ...temperature },
      { label: t('supply'), stroke: COLOURS.supply, width: 1.5, dash: [6, 4], ...temperature },
      {
        label: t('valve'),
        scale: '%',
        stroke: COLOURS.valve,
        width: 1,
        fill: 'rgba(21, 128, 61, 0.08)',
        value: (_: uPlot, v: number | null) => (v === null ? '—' : `${Math.round(v)} %`),
      },
    ],
    bands: [{ series: [4, 3], fill: COLOURS.band }],
    legend: { live: true },
    cursor: { points: { size: 6 } },
  };
}
