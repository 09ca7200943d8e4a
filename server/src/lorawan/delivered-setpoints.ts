/**
 * The setpoint a unit's valves really get when their model cannot take the unit's own: the
 * downlink queue clamps every setpoint to the device's range and rounds it to its step
 * (`deviceSetpoint`), so a Milesight WT101 (whole degrees) gets 24 °C for 23.5 °C. The units
 * screen and the heating log show it with the reason.
 */
import type { DeliveredSetpoint } from '@heizplan/contracts/heating';
import { deviceSetpoint } from './codecs/codec.ts';
import { getCodec, isModelId } from './codecs/registry.ts';

/** A downlink's setpoint (°C) and its device's model; null when the device no longer exists. */
export interface CarriedSetpoint {
  setpoint: number;
  model: string | null;
}

/** Setpoints are `real` columns: values closer than this are the same. */
const SAME_C = 1e-3;

/**
 * The setpoints of `carried` that are what a device's range and step made of `unitSetpoint`
 * (°C), with the reason and the model's step or range, one entry per value and reason. A
 * downlink carrying anything else (still an older setpoint's) or the unit's own value is left
 * out, as are devices without a setpoint codec.
 */
export function deliveredSetpoints(
  unitSetpoint: number | null,
  carried: readonly CarriedSetpoint[],
): DeliveredSetpoint[] {
  if (unitSetpoint === null) return [];
  const byValue = new Map<string, DeliveredSetpoint>();
  for (const { setpoint, model } of carried) {
    if (!model || !isModelId(model)) continue;
    const range = getCodec(model).setpoint;
    if (!range) continue;
    const expected = deviceSetpoint(range, unitSetpoint);
    if (Math.abs(expected - setpoint) > SAME_C || Math.abs(expected - unitSetpoint) <= SAME_C) continue;
    const entry: DeliveredSetpoint =
      unitSetpoint < range.min || unitSetpoint > range.max
        ? { setpoint: expected, reason: 'range', min: range.min, max: range.max, devices: 0 }
        : { setpoint: expected, reason: 'step', step: range.step, devices: 0 };
    const key = JSON.stringify({ ...entry, devices: undefined });
    const known = byValue.get(key) ?? entry;
    known.devices += 1;
    byValue.set(key, known);
  }
  return [...byValue.values()].sort((a, b) => a.setpoint - b.setpoint);
}

/**
 * `json_agg(json_build_array(setpoint, model))` as the driver returns it: parsed or as text;
 * null (no rows) is none.
 */
export function parseCarried(raw: unknown): CarriedSetpoint[] {
  const rows: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) =>
    Array.isArray(row) && row[0] !== null
      ? [{ setpoint: Number(row[0]), model: typeof row[1] === 'string' ? row[1] : null }]
      : [],
  );
}
