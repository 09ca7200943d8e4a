/**
 * The unit graph drawn with uPlot (decision 0019): setpoint as steps, room temperature with its
 * min–max band, supply temperature, valve opening (%) on a right-hand axis, time axis in the
 * company's zone. Loaded lazily so uPlot stays out of every other bundle. Width follows the
 * container.
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { toGraphColumns } from '../series-data.ts';

const HEIGHT = 280;
const COLOURS = {
  setpoint: '#b4411c',
  room: '#1d4ed8',
  band: 'rgba(29, 78, 216, 0.12)',
  supply: '#d97706',
  valve: '#15803d',
};

export default function SeriesChart({ series, language }: { series: UnitSeries; language: string }) {
  const { t } = useTranslation('graphs');
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const c = toGraphColumns(series);
    const celsius = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
    const degrees = (_: uPlot, values: (number | null)[]) =>
      values.map((v) => (v === null ? '' : `${celsius.format(v)} °C`));
    // Tick labels in the user's language and the company's zone: times over two days, dates beyond.
    const span = (c.x.at(-1) ?? 0) - (c.x[0] ?? 0);
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
    const timeLabels = (_: uPlot, splits: number[]) =>
      splits.map((ts) => {
        const date = new Date(ts * 1000);
        return span > 3 * 86_400 || clock24.format(date) === '00:00' ? day.format(date) : clock.format(date);
      });
    const percent = (_: uPlot, values: (number | null)[]) => values.map((v) => (v === null ? '' : `${v} %`));
    const temperature = {
      scale: '°C',
      value: (_: uPlot, v: number | null) => (v === null ? '—' : `${celsius.format(v)} °C`),
    };
    const options: uPlot.Options = {
      width: element.clientWidth || 600,
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), series.timeZone),
      scales: { x: { time: true }, '°C': { auto: true }, '%': { range: [0, 100] } },
      axes: [
        { stroke: '#57534e', grid: { stroke: '#e7e5e4' }, values: timeLabels, space: 60 },
        { scale: '°C', values: degrees, size: 64, stroke: '#57534e', grid: { stroke: '#e7e5e4' } },
        { scale: '%', side: 1, values: percent, size: 48, stroke: '#57534e', grid: { show: false } },
      ],
      series: [
        {},
        {
          label: t('setpoint'),
          stroke: COLOURS.setpoint,
          width: 2,
          paths: uPlot.paths.stepped?.({ align: 1 }),
          ...temperature,
        },
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
    const data = [
      c.x,
      c.setpoint,
      c.roomAvg,
      c.roomMin,
      c.roomMax,
      c.supplyAvg,
      c.valveAvg,
    ] as uPlot.AlignedData;
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series, language, t]);

  return <div ref={target} className="w-full" data-testid="unit-graph-chart" />;
}
