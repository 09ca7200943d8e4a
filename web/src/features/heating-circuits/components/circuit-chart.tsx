/**
 * A circuit's readings drawn with uPlot: loaded lazily so uPlot stays out of every other bundle;
 * the width follows the container, so it fits a phone as well.
 */
import type { CircuitReading } from '@heizplan/contracts/heating-circuits';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CIRCUIT_CHART_HEIGHT, circuitChartOptions, circuitColumns } from '../chart-options.ts';

export default function CircuitChart({
  readings,
  language,
  timeZone,
  from,
  to,
}: {
  readings: CircuitReading[];
  language: string;
  timeZone: string;
  /** The window shown, epoch ms. */
  from: number;
  to: number;
}) {
  const { t } = useTranslation('circuits');
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const options = circuitChartOptions({
      width: element.clientWidth || 600,
      language,
      t,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
      window: { from, to },
      timeZone,
    });
    const chart = new uPlot(options, circuitColumns(readings), element);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: CIRCUIT_CHART_HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [readings, language, t, timeZone, from, to]);

  return <div ref={target} className="w-full" data-testid="circuit-chart" />;
}
