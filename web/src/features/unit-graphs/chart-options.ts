/**
 * The uPlot options of a unit graph (decision 0019), kept apart from the component so they can be
 * checked without a canvas: setpoint as steps, room temperature with its min–max band, supply
 * temperature, valve opening (%) on a right-hand axis. Every word and number is in the user's
 * language and the company's zone — including the legend's time entry, which uPlot would label
 * 'Time' in English. The time axis spans the whole range asked for, so readings that
 * start minutes ago are not stretched over the width, and a tick reads as a date only at
 * midnight, so no label repeats. The y axes are as wide as their widest label
 * ("100 %" was cut off), and time ticks keep room for their labels: in English a full hour
 * reads "6 PM" rather than "06:00 PM".
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import type uPlot from 'uplot';

export const CHART_HEIGHT = 280;
/** Least space between time ticks (px): a date label ("Fri, 11/20", "Fr., 20.11.") and a margin. */
export const TIME_TICK_SPACE = 80;
/** Tick length and gap to the label of uPlot's axes (px). */
const AXIS_TICKS_AND_GAP = 10 + 5;
/** Width of an axis label when uPlot has no canvas to measure it (px per character at 12 px). */
const CHAR_WIDTH_ESTIMATE = 7;

/** A y axis's width: its ticks and its widest label, measured in the axis font. */
export function axisSize(self: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = self.axes[axisIdx] as (uPlot.Axis & { _size?: number }) | undefined;
  // uPlot asks again while the layout converges; the size it has stands, so it settles.
  if (cycleNum > 1 && axis?._size !== undefined) return axis._size;
  const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  // After setup uPlot keeps the axis font as [css font, px size] scaled by the pixel ratio.
  const font = (axis?.font as unknown as [string] | undefined)?.[0];
  const ctx = self.ctx as CanvasRenderingContext2D | undefined;
  let width = longest.length * CHAR_WIDTH_ESTIMATE;
  if (ctx && font) {
    ctx.font = font;
    width = ctx.measureText(longest).width / (globalThis.devicePixelRatio || 1);
  }
  return Math.ceil(AXIS_TICKS_AND_GAP + width + 4);
}
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
  // On a 12-hour clock a full hour drops its minutes ("6 PM"): "06:00 PM" crowds a 48 h axis.
  const twelveHours = ['h11', 'h12'].includes(clock.resolvedOptions().hourCycle ?? '');
  const hour = new Intl.DateTimeFormat(language, { timeZone: series.timeZone, hour: 'numeric' });
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
      const time = clock24.format(date);
      if (time === '00:00') return day.format(date);
      return twelveHours && time.endsWith(':00') ? hour.format(date) : clock.format(date);
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
      { stroke: '#57534e', grid: { stroke: '#e7e5e4' }, values: timeLabels, space: TIME_TICK_SPACE },
      { scale: '°C', values: degrees, size: axisSize, stroke: '#57534e', grid: { stroke: '#e7e5e4' } },
      { scale: '%', side: 1, values: percent, size: axisSize, stroke: '#57534e', grid: { show: false } },
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
