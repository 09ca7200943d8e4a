/**
 * Shapes a unit's series into uPlot's aligned columns: one x column (Unix seconds) and
 * one column per series. The x column is every bucket start plus every setpoint change, so the
 * setpoint is drawn as exact steps (its value in force at every x), while the readings are
 * `undefined` (not null) at the setpoint-only instants: uPlot spans `undefined` but breaks lines
 * at `null`, so gaps in the readings stay visible and the setpoint instants do not cut the lines.
 */
import type { UnitSeries } from '@heizplan/contracts/unit-series';

export type Column = (number | null | undefined)[];

export interface GraphColumns {
  x: number[];
  setpoint: Column;
  roomAvg: Column;
  roomMin: Column;
  roomMax: Column;
  supplyAvg: Column;
  valveAvg: Column;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * True when the series has no readings. Setpoint steps alone (a unit created minutes ago) make no
 * graph worth drawing: the empty state explains instead.
 */
export function isEmptySeries(series: UnitSeries): boolean {
  return series.buckets.time.length === 0;
}

export function toGraphColumns(series: UnitSeries): GraphColumns {
  const { buckets } = series;
  const bucketIndex = new Map(buckets.time.map((iso, i) => [seconds(iso), i]));
  const steps = series.setpoint.map((s) => ({ at: seconds(s.at), setpoint: s.setpoint }));
  const end = seconds(series.to);
  const x = [
    ...new Set([...bucketIndex.keys(), ...steps.map((s) => s.at), ...(steps.length ? [end] : [])]),
  ].sort((a, b) => a - b);
  const reading = (values: (number | null)[]) =>
    x.map((t) => {
      const i = bucketIndex.get(t);
      return i === undefined ? undefined : (values[i] ?? null);
    });
  let step = -1;
  const setpoint = x.map((t) => {
    while (step + 1 < steps.length && (steps[step + 1] as { at: number }).at <= t) step += 1;
    return step >= 0 ? (steps[step] as { setpoint: number }).setpoint : null;
  });
  return {
    x,
    setpoint,
    roomAvg: reading(buckets.roomAvg),
    roomMin: reading(buckets.roomMin),
    roomMax: reading(buckets.roomMax),
    supplyAvg: reading(buckets.supplyAvg),
    valveAvg: reading(buckets.valveAvg),
  };
}

/** One bucket of the series as the chart's table lists it, with the setpoint in force at its start. */
export interface SeriesRow {
  at: string;
  setpoint: number | null;
  roomAvg: number | null;
  roomMin: number | null;
  roomMax: number | null;
  supplyAvg: number | null;
  valveAvg: number | null;
}

/** The buckets in order, each with the setpoint in force at its start: the chart's data as rows. */
export function toSeriesRows(series: UnitSeries): SeriesRow[] {
  const { buckets } = series;
  const steps = series.setpoint.map((s) => ({ at: seconds(s.at), setpoint: s.setpoint }));
  let step = -1;
  return buckets.time.map((at, i) => {
    const t = seconds(at);
    while (step + 1 < steps.length && (steps[step + 1] as { at: number }).at <= t) step += 1;
    return {
      at,
      setpoint: step >= 0 ? (steps[step] as { setpoint: number }).setpoint : null,
      roomAvg: buckets.roomAvg[i] ?? null,
      roomMin: buckets.roomMin[i] ?? null,
      roomMax: buckets.roomMax[i] ?? null,
      supplyAvg: buckets.supplyAvg[i] ?? null,
      valveAvg: buckets.valveAvg[i] ?? null,
    };
  });
}

/** The last bucket with a room temperature, which the chart's name reports; null when there is none. */
export function latestRoomReading(rows: SeriesRow[]): SeriesRow | null {
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    const row = rows[i] as SeriesRow;
    if (row.roomAvg !== null) return row;
  }
  return null;
}
