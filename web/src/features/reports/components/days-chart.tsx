/**
 * The report's days drawn with uPlot (as the unit graph): loaded lazily so uPlot stays out of
 * every other bundle; the width follows the container, so it fits a phone as well.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { REPORT_CHART_HEIGHT, type ReportDay, reportChartOptions, reportColumns } from '../chart-options.ts';

export default function DaysChart({ days, language }: { days: ReportDay[]; language: string }) {
  const { t } = useTranslation('reports');
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const options = reportChartOptions({
      width: element.clientWidth || 600,
      language,
      t,
      bars: uPlot.paths.bars?.({ size: [0.6, 24] }),
      utcDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
    });
    const chart = new uPlot(options, reportColumns(days), element);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: REPORT_CHART_HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, language, t]);

  return <div ref={target} className="w-full" data-testid="report-chart" />;
}
