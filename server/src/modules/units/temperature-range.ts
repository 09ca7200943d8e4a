/**
 * Company temperature range checks shared by units and plans (spec §5): a value above the
 * company's max °C is refused with the spec's message as title and detail, one below its min
 * with its own; both name the range in their params.
 */
import { OUT_OF_RANGE, temperatureRangeIssue } from '@heizplan/contracts/heating';
import { HttpError } from '../../http/errors.ts';

export { OUT_OF_RANGE };

export interface TemperatureRange {
  min: number;
  max: number;
}

/** @throws HttpError 400 naming `field` and the range when `value` (°C) is outside `range`. */
export function requireInRange(value: number, range: TemperatureRange, field: string): void {
  const outside = temperatureRangeIssue(value, range);
  if (outside) {
    const reason = { code: outside.code, params: { ...outside.params } };
    throw new HttpError(
      400,
      outside.message,
      outside.message,
      [{ field, message: outside.message, ...reason }],
      reason,
    );
  }
}

/**
 * A building's or a group's occupant ceiling (°C, decision 0066) must lie inside the company
 * range; null (the next level's) and undefined (not given) pass.
 * @throws HttpError 400 naming `body.occupantMaxTemperature` and the range.
 */
export function requireOccupantCeiling(
  ceiling: number | null | undefined,
  company: { minTemperature: number; maxTemperature: number },
): void {
  if (ceiling === null || ceiling === undefined) return;
  requireInRange(
    ceiling,
    { min: company.minTemperature, max: company.maxTemperature },
    'body.occupantMaxTemperature',
  );
}
