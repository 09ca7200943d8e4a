/**
 * The unit graph drawn with uPlot (decision 0019) from `chartOptions`, time axis in the company's
 * zone. Loaded lazily so uPlot stays out of every other bundle. Width follows the container.
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_HEIGHT, chartOptions } from '../chart-options.ts';
import { toGraphColumns } from '../series-data.ts';

export default function SeriesChart({ series, language }: { series: UnitSeries; language: string }) {
  const { t } = useTranslation('graphs');
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const c = toGraphColumns(series);
    const options = chartOptions({
      series,
      width: element.clientWidth || 600,
      language,
      t,
      stepped: uPlot.paths.stepped?.({ align: 1 }),
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), series.timeZone),
    });
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
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series, language, t]);

  return <div ref={target} className="w-full" data-testid="unit-graph-chart" />;
}
