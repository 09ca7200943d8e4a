/**
 * The forms of a building's meters and targets (decision 0048: the contracts' schemas). The
 * settings form asks for the share below comfort in percent (0–100), as people think of it,
 * and sends the share 0–1 the API takes; the other fields are the contract's own. A meter
 * reading is the contract's `MeterReadingSchema` as it stands.
 */
import {
  type BuildingReportSettings,
  BuildingReportSettingsSchema,
  METER_CARRIERS,
} from '@heizplan/contracts/reports';
import { z } from 'zod';

export { MeterReadingSchema } from '@heizplan/contracts/reports';

export type MeterCarrier = (typeof METER_CARRIERS)[number];
export const CARRIERS: readonly MeterCarrier[] = METER_CARRIERS;

const contract = BuildingReportSettingsSchema.shape;

export interface ReportSettingsForm {
  heatedAreaM2: number | null;
  maxHeatingHoursPerDegreeDay: number | null;
  /** Percent 0–100; null for no target. */
  maxBelowComfortPercent: number | null;
}

/** Percent with at most one decimal, so 0.125 shows as 12.5 and not 12.500000000000002. */
const toPercent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

export const settingsFormOf = (settings: BuildingReportSettings): ReportSettingsForm => ({
  heatedAreaM2: settings.heatedAreaM2,
  maxHeatingHoursPerDegreeDay: settings.maxHeatingHoursPerDegreeDay,
  maxBelowComfortPercent: toPercent(settings.maxBelowComfortShare),
});

/** The form's fields checked with the contract's limits (the share's as percent), then the body. */
export const reportSettingsFormSchema = z
  .object({
    heatedAreaM2: contract.heatedAreaM2,
    maxHeatingHoursPerDegreeDay: contract.maxHeatingHoursPerDegreeDay,
    maxBelowComfortPercent: z.number().min(0).max(100).nullable(),
  })
  .transform(
    ({ maxBelowComfortPercent, ...rest }): BuildingReportSettings => ({
      ...rest,
      maxBelowComfortShare:
        maxBelowComfortPercent === null ? null : Math.round(maxBelowComfortPercent * 10) / 1000,
    }),
  )
  .pipe(BuildingReportSettingsSchema);

/** Server field name → the form's. */
export const SETTINGS_ERROR_NAMES = { maxBelowComfortShare: 'maxBelowComfortPercent' } as const;
