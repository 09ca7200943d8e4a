/**
 * Whether a monthly meter reading is far from the building's reading before it: a typing slip
 * (a thousands dot read as a decimal point, a digit too many) changes a month's kWh by a factor of
 * ten or more, while real months of one carrier differ by less than three (a cold January against a
 * mild October of a school: about 2 ×). The form then asks before saving instead of refusing: a
 * new boiler or a building part taken into use can make a month rightly differ.
 */
import type { MeterReading } from '@heizplan/contracts/reports';

/** A reading more than this many times the previous one, or less than its inverse, is asked about. */
export const FAR_FACTOR = 3;

export interface FarReading {
  /** The same carrier's reading of the latest month before the new one. */
  previous: MeterReading;
  direction: 'higher' | 'lower';
}

/**
 * The earlier reading `reading` is far from, or null: compared with the same carrier's latest
 * month before `reading.month` (months 'YYYY-MM'); null when there is none or it is 0 kWh.
 */
export function farFromPrevious(readings: MeterReading[], reading: MeterReading): FarReading | null {
  const previous = readings
    .filter((r) => r.carrier === reading.carrier && r.month < reading.month)
    .sort((a, b) => b.month.localeCompare(a.month))[0];
  if (!previous || previous.kwh <= 0) return null;
  if (reading.kwh > previous.kwh * FAR_FACTOR) return { previous, direction: 'higher' };
  if (reading.kwh < previous.kwh / FAR_FACTOR) return { previous, direction: 'lower' };
  return null;
}
