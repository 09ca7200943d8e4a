/**
 * The circuit chart's options, checked without a canvas: the time axis spans the chosen window
 * and says its ticks in the UI language and the company's zone, not uPlot's American defaults.
 */
import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { circuitChartOptions } from './chart-options.ts';

const FROM = Date.parse('2026-12-01T23:00:00Z');
const TO = Date.parse('2026-12-03T23:00:00Z');

function options(language: string) {
  return circuitChartOptions({
    width: 600,
    language,
    t: (key) => key,
    tzDate: (ts) => new Date(ts * 1000),
    window: { from: FROM, to: TO },
    timeZone: 'Europe/Berlin',
  });
}

describe('circuit chart options', () => {
  it('spans the whole window, however few steps are in it', () => {
    const range = options('de').scales?.x?.range as () => [number, number];
    expect(range()).toEqual([FROM / 1000, TO / 1000]);
  });

  it('labels midnight with the day and other ticks with the 24-hour time, in Berlin', () => {
    const axis = options('de').axes?.[0] as { values: (u: uPlot, splits: number[]) => string[] };
    // 23:00 UTC is midnight in Berlin; 11:00 UTC is noon.
    const labels = axis.values({} as uPlot, [FROM / 1000, Date.parse('2026-12-02T11:00:00Z') / 1000]);
    expect(labels).toEqual(['Mi., 2.12.', '12:00']);
    const legend = options('de').series[0] as { value: (u: uPlot, ts: number) => string };
    expect(legend.value({} as uPlot, Date.parse('2026-12-02T11:05:00Z') / 1000)).toBe('02.12., 12:05');
  });
});
