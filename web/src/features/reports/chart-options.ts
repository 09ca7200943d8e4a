/**
 * The uPlot options of the report's daily chart (decision 0019, as the unit graph): room, setpoint
 * and outdoor means as lines on a °C axis, heating hours as bars on a right-hand hour axis. Kept
 * apart from the component so they can be checked without a canvas; uPlot's helpers are passed
 * in. Every label is in the user's language; days are calendar dates, drawn in UTC so none moves,
 * with at most one tick per day.
 */
import type { Report } from '@heizplan/contracts/reports';
import type uPlot from 'uplot';

export const REPORT_CHART_HEIGHT = 260;
/** Tick length and gap to the label (px), and a label's width per character without a canvas. */
const AXIS_TICKS_AND_GAP = 15;
const CHAR_WIDTH_ESTIMATE = 7;

const COLOURS = {
  room: '#1d4ed8',
  setpoint: '#b4411c',
  outdoor: '#0f766e',
  heating: 'rgba(217, 119, 6, 0.35)',
  heatingStroke: '#d97706',
};

export type ReportDay = Report['days'][number];

/** uPlot's aligned columns: day (Unix seconds, UTC midnight), the three means and the heating hours. */
export function reportColumns(days: ReportDay[]): uPlot.AlignedData {
  return [
    days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
    days.map((d) => d.roomMean),
    days.map((d) => d.setpointMean),
    days.map((d) => d.outdoorMean),
    days.map((d) => d.heatingHours),
  ];
}

/** A y axis as wide as its widest label ("22,5 °C"), so none is cut off. */
function axisSize(_: uPlot, values: string[] | null): number {
  const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return Math.ceil(AXIS_TICKS_AND_GAP + longest.length * CHAR_WIDTH_ESTIMATE + 4);
}

export interface ReportChartContext {
  width: number;
  language: string;
  /** Translation in the `reports` namespace. */
  t: (key: string) => string;
  bars: uPlot.Series.PathBuilder | undefined;
  /** uPlot's `tzDate` for UTC (days are calendar dates at UTC midnight), passed in like `bars`. */
  utcDate: (ts: number) => Date;
}

const DAY = 86_400;
/** Tick steps of whole days only: one day, two, a week, two weeks, a month. */
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];

export function reportChartOptions({ width, language, t, bars, utcDate }: ReportChartContext): uPlot.Options {
  const celsius = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const hours = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const day = new Intl.DateTimeFormat(language, { day: '2-digit', month: '2-digit', timeZone: 'UTC' });
  const fullDay = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const temperature = {
    scale: '°C',
    value: (_: uPlot, v: number | null) => (v === null ? '—' : `${celsius.format(v)} °C`),
  };
  return {
    width,
    height: REPORT_CHART_HEIGHT,
    tzDate: utcDate,
    scales: {
      // Half a day either side, so the first and last day's bars are whole.
      x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
      '°C': { auto: true },
      h: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [
      {
        stroke: '#57534e',
        grid: { stroke: '#e7e5e4' },
        space: 60,
        // A tick per day at most, so no date repeats over a short period.
        incrs: DAY_STEPS,
        values: (_: uPlot, splits: number[]) => splits.map((ts) => day.format(new Date(ts * 1000))),
      },
      {
        scale: '°C',
        size: axisSize,
        stroke: '#57534e',
        grid: { stroke: '#e7e5e4' },
        values: (_: uPlot, values: (number | null)[]) =>
          values.map((v) => (v === null ? '' : `${celsius.format(v)} °C`)),
      },
      {
        scale: 'h',
        side: 1,
        size: axisSize,
        stroke: '#57534e',
        grid: { show: false },
        values: (_: uPlot, values: (number | null)[]) =>
          values.map((v) => (v === null ? '' : `${hours.format(v)} h`)),
      },
    ],
    series: [
      {
        label: t('chart.day'),
        value: (_: uPlot, ts: number | null) => (ts === null ? '—' : fullDay.format(new Date(ts * 1000))),
      },
      { label: t('chart.room'), stroke: COLOURS.room, width: 2, ...temperature },
      { label: t('chart.setpoint'), stroke: COLOURS.setpoint, width: 2, dash: [6, 4], ...temperature },
      { label: t('chart.outdoor'), stroke: COLOURS.outdoor, width: 1.5, ...temperature },
      {
        label: t('chart.heatingHours'),
        scale: 'h',
        stroke: COLOURS.heatingStroke,
        fill: COLOURS.heating,
        width: 1,
        paths: bars,
        points: { show: false },
        value: (_: uPlot, v: number | null) => (v === null ? '—' : `${hours.format(v)} h`),
      },
    ],
    legend: { live: true },
    cursor: { points: { size: 6 } },
  };
}
