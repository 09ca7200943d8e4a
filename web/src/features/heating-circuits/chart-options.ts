/**
 * The uPlot options of a circuit's chart (decision 0019, as the unit graph): the outdoor
 * temperature, the heating curve's supply temperature and the recommended supply temperature as
 * lines on a °C axis, the demand as a thin line on a right-hand % axis. Kept apart from the
 * component so they can be checked without a canvas; uPlot's helpers are passed in. Times in the
 * company's zone, numbers in the user's language.
 */
import type { CircuitReading } from '@heizplan/contracts/heating-circuits';
import type uPlot from 'uplot';

export const CIRCUIT_CHART_HEIGHT = 260;
const AXIS_TICKS_AND_GAP = 15;
const CHAR_WIDTH_ESTIMATE = 7;

const COLOURS = { outdoor: '#0f766e', curve: '#78716c', supply: '#b4411c', demand: '#1d4ed8' };

/** uPlot's aligned columns: time (Unix seconds), outdoor, curve, recommendation, demand. */
export function circuitColumns(readings: CircuitReading[]): uPlot.AlignedData {
  return [
    readings.map((r) => Date.parse(r.at) / 1000),
    readings.map((r) => r.outdoor),
    readings.map((r) => r.curveSupply),
    readings.map((r) => r.supplySetpoint),
    readings.map((r) => r.demandPercent),
  ];
}

function axisSize(_: uPlot, values: string[] | null): number {
  const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return Math.ceil(AXIS_TICKS_AND_GAP + longest.length * CHAR_WIDTH_ESTIMATE + 4);
}

export interface CircuitChartContext {
  width: number;
  language: string;
  /** Translation in the `circuits` namespace. */
  t: (key: string) => string;
  /** uPlot's `tzDate` for the company's zone. */
  tzDate: (ts: number) => Date;
  /** The window shown, epoch ms: the axis spans it even while only a few steps are in. */
  window: { from: number; to: number };
  /** The company's zone (IANA): tick labels and the legend's time are told in it. */
  timeZone: string;
}

export function circuitChartOptions({
  width,
  language,
  t,
  tzDate,
  window,
  timeZone,
}: CircuitChartContext): uPlot.Options {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  // Tick labels in the UI language and the company's zone: the date at midnight, the time of
  // day at any other tick (uPlot's own are American: "12pm", "12/3").
  const clock = new Intl.DateTimeFormat(language, {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const day = new Intl.DateTimeFormat(language, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
  });
  const moment = new Intl.DateTimeFormat(language, {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const timeLabels = (_: uPlot, splits: number[]) =>
    splits.map((ts) => {
      const date = new Date(ts * 1000);
      const time = clock.format(date);
      return time === '00:00' ? day.format(date) : time;
    });
  const celsius = {
    scale: '°C',
    value: (_: uPlot, v: number | null) => (v === null ? '—' : `${number.format(v)} °C`),
  };
  return {
    width,
    height: CIRCUIT_CHART_HEIGHT,
    tzDate,
    scales: {
      x: { time: true, range: () => [window.from / 1000, window.to / 1000] },
      '°C': { auto: true },
      '%': { range: [0, 100] },
    },
    axes: [
      { stroke: '#57534e', grid: { stroke: '#e7e5e4' }, values: timeLabels, space: 70 },
      {
        scale: '°C',
        size: axisSize,
        stroke: '#57534e',
        grid: { stroke: '#e7e5e4' },
        values: (_: uPlot, values: (number | null)[]) =>
          values.map((v) => (v === null ? '' : `${number.format(v)} °C`)),
      },
      {
        scale: '%',
        side: 1,
        size: axisSize,
        stroke: '#57534e',
        grid: { show: false },
        values: (_: uPlot, values: (number | null)[]) =>
          values.map((v) => (v === null ? '' : `${number.format(v)} %`)),
      },
    ],
    series: [
      {
        label: t('chart.time'),
        value: (_: uPlot, ts: number | null) => (ts === null ? '—' : moment.format(new Date(ts * 1000))),
      },
      { label: t('chart.outdoor'), stroke: COLOURS.outdoor, width: 1.5, ...celsius },
      { label: t('chart.curve'), stroke: COLOURS.curve, width: 2, dash: [6, 4], ...celsius },
      { label: t('chart.recommended'), stroke: COLOURS.supply, width: 2, ...celsius },
      {
        label: t('chart.demand'),
        scale: '%',
        stroke: COLOURS.demand,
        width: 1,
        value: (_: uPlot, v: number | null) => (v === null ? '—' : `${number.format(v)} %`),
      },
    ],
  };
}
