/**
 * Company temperature range checks shared by units and plans (spec §5): a value outside the
 * company's min/max °C is refused with the spec's message as title and detail.
 */
import { OUT_OF_RANGE } from '@heizplan/contracts/heating';
import { HttpError } from '../../http/errors.ts';

export { OUT_OF_RANGE };

export interface TemperatureRange {
  min: number;
  max: number;
}

/** @throws HttpError 400 naming `field` when `value` (°C) is outside `range`. */
export function requireInRange(value: number, range: TemperatureRange, field: string): void {
  if (value < range.min || value > range.max) {
    const reason = { code: 'out_of_range' } as const;
    throw new HttpError(
      400,
      OUT_OF_RANGE,
      OUT_OF_RANGE,
      [{ field, message: OUT_OF_RANGE, ...reason }],
      reason,
    );
  }
}
