/** The reports screen's period and scope as kept in the address, and the chart's options. */
import { describe, expect, it } from 'vitest';
import i18n from '../../app/i18n.ts';
import { reportChartOptions, reportColumns } from './chart-options.ts';
import { testReport } from './report-fixtures.ts';
import {
  defaultMonth,
  drillDown,
  isLatest,
  requestOfView,
  searchOfView,
  seasonOfMonth,
  shiftMonth,
  viewOfSearch,
  withPeriodKind,
} from './report-view.ts';

const day = (iso: string) => new Date(`${iso}T12:00:00`);

describe('report period', () => {
  it('opens the previous month during the first five days of a month, else the current one', () => {
    expect(defaultMonth(day('2026-12-05'))).toBe('2026-11');
    expect(defaultMonth(day('2026-12-06'))).toBe('2026-12');
    expect(defaultMonth(day('2027-01-02'))).toBe('2026-12');
  });

  it('moves months across years and puts May to September in the season before', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(seasonOfMonth('2026-11')).toBe(2026);
    expect(seasonOfMonth('2027-03')).toBe(2026);
    expect(seasonOfMonth('2027-07')).toBe(2026);
  });

  it('switches between a month and the season holding it', () => {
    const today = day('2027-02-10');
    const season = withPeriodKind({ period: { kind: 'month', month: '2026-11' } }, 'season', today);
    expect(season.period).toEqual({ kind: 'season', season: 2026 });
    expect(withPeriodKind(season, 'month', today).period).toEqual({ kind: 'month', month: '2027-02' });
    const older = withPeriodKind({ period: { kind: 'season', season: 2024 } }, 'month', today);
    expect(older.period).toEqual({ kind: 'month', month: '2025-04' });
  });

  it('offers no period after the current one', () => {
    const today = day('2026-11-20');
    expect(isLatest({ period: { kind: 'month', month: '2026-11' } }, today)).toBe(true);
    expect(isLatest({ period: { kind: 'month', month: '2026-10' } }, today)).toBe(false);
    expect(isLatest({ period: { kind: 'season', season: 2026 } }, today)).toBe(true);
  });
});

describe('report scope in the address', () => {
  const today = day('2026-11-20');

  it('reads and writes period and scope, and asks the API for the deepest scope only', () => {
    const view = viewOfSearch(new URLSearchParams('month=2026-10&buildingId=b1&unitId=u1'), today);
    expect(searchOfView(view)).toBe('?month=2026-10&buildingId=b1&unitId=u1');
    expect(requestOfView(view)).toEqual({ month: '2026-10', unitId: 'u1' });
    expect(viewOfSearch(new URLSearchParams('season=2025'), today).period).toEqual({
      kind: 'season',
      season: 2025,
    });
    expect(viewOfSearch(new URLSearchParams('month=2026-13'), today).period).toEqual({
      kind: 'month',
      month: '2026-11',
    });
  });

  it('drills into a building, then a room of it, keeping the period', () => {
    const company = viewOfSearch(new URLSearchParams('season=2026'), today);
    const building = drillDown(company, { kind: 'building', id: 'b1' });
    expect(searchOfView(building)).toBe('?season=2026&buildingId=b1');
    expect(searchOfView(drillDown(building, { kind: 'unit', id: 'u1' }))).toBe(
      '?season=2026&buildingId=b1&unitId=u1',
    );
    expect(searchOfView(drillDown(company, { kind: 'unit', id: 'u1' }))).toBe('?season=2026&unitId=u1');
  });
});

describe('report chart', () => {
  it('aligns the days as UTC midnights and labels every series in German', () => {
    const report = testReport();
    const [x, room, , , hours] = reportColumns(report.days);
    expect(x).toEqual([Date.parse('2026-11-01T00:00:00Z') / 1000, Date.parse('2026-11-02T00:00:00Z') / 1000]);
    expect(room).toEqual([20.5, 21]);
    expect(hours).toEqual([40, 35]);
    const options = reportChartOptions({
      width: 600,
      language: 'de',
      t: (key) => i18n.getFixedT('de', 'reports')(key),
      bars: undefined,
      utcDate: (ts) => new Date(ts * 1000),
    });
    expect(options.series.map((s) => s.label)).toEqual([
      'Tag',
      'Raumtemperatur',
      'Solltemperatur',
      'Außentemperatur',
      'Heizstunden',
    ]);
    const value = options.series[1]?.value as (u: unknown, v: number) => string;
    expect(value(null, 21.5)).toBe('21,5 °C');
    const ticks = options.axes?.[0]?.values as (u: unknown, splits: number[]) => string[];
    expect(ticks(null, [Date.parse('2026-11-26T00:00:00Z') / 1000])).toEqual(['26.11.']);
    // Whole days only, so a short period repeats no date.
    expect(Math.min(...((options.axes?.[0]?.incrs as number[] | undefined) ?? []))).toBe(86_400);
  });
});
