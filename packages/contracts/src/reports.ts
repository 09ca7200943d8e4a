/**
 * Energy and comfort reports under `/api/companies/{companyId}/reports` (decision 0061), read
 * from the telemetry rollups: per company, building, group or unit and per month or heating
 * season. Hours are hours (h), temperatures °C, shares 0–1, energy kWh; degree days G20/15 of
 * VDI 3807 from the building's outdoor temperature. Every member may read them.
 */
import { z } from 'zod';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A month `YYYY-MM`. */
export const MonthSchema = z.string().regex(MONTH, 'must be a month YYYY-MM');

/**
 * What a report covers: one month, or a heating season (`season=2026` = 1 October 2026 to
 * 30 April 2027), for the whole company or one building, group or unit (at most one of them).
 */
export const ReportQuerySchema = z
  .object({
    month: MonthSchema.optional(),
    season: z.coerce.number().int().min(2000).max(2100).optional(),
    buildingId: z.uuid().optional(),
    groupId: z.uuid().optional(),
    unitId: z.uuid().optional(),
  })
  .refine((q) => (q.month === undefined) !== (q.season === undefined), {
    message: 'give either month or season',
    path: ['month'],
  })
  .refine((q) => [q.buildingId, q.groupId, q.unitId].filter(Boolean).length <= 1, {
    message: 'give at most one of buildingId, groupId and unitId',
    path: ['buildingId'],
  });
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

export const REPORT_LOSS_KINDS = [
  'window_open_heating',
  'valve_stuck_open',
  'always_below_target',
  'sparse_reports',
  /**
   * Occupants complained repeatedly while the room's figures say comfortable (decision 0070):
   * a sensor in the wrong place, a draught, or a plan that misses the room's use.
   */
  'complaints_despite_comfort',
] as const;
export type ReportLossKind = (typeof REPORT_LOSS_KINDS)[number];

const hours = z.number();
const nullableNumber = z.number().nullable();

/** Comparable figures of a period (this one, the month or season before, the year before). */
export const ReportPeriodFiguresSchema = z.object({
  label: z.string(),
  degreeDays: nullableNumber,
  heatingHours: hours,
  /** Heating hours per room and degree day; null without degree days. */
  heatingHoursPerDegreeDay: nullableNumber,
  meterKwh: nullableNumber,
  kwhPerDegreeDay: nullableNumber,
});

export const ReportRowSchema = z.object({
  kind: z.enum(['building', 'unit']),
  id: z.string(),
  name: z.string(),
  rooms: z.number().int(),
  roomMean: nullableNumber,
  occupiedHours: hours,
  belowComfortShare: nullableNumber,
  heatingHours: hours,
  setbackHours: hours,
  windowHeatingHours: hours,
  degreeDays: nullableNumber,
  /** Occupants' "Zu warm" / "Zu kalt" presses in the period (decision 0070). */
  tooWarm: z.number().int(),
  tooCold: z.number().int(),
});
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const ReportSchema = z.object({
  period: z.object({
    kind: z.enum(['month', 'season']),
    /** `YYYY-MM` or the season's first year. */
    key: z.string(),
    from: z.iso.date(),
    /** Inclusive last day. */
    to: z.iso.date(),
  }),
  scope: z.object({
    kind: z.enum(['company', 'building', 'group', 'unit']),
    id: z.string(),
    name: z.string(),
  }),
  /** Rooms with data in the period. */
  rooms: z.number().int(),
  comfort: z.object({
    occupiedHours: hours,
    belowComfortHours: hours,
    /** Share of occupied hours more than 0.5 K below the setpoint; null without occupied hours. */
    belowComfortShare: nullableNumber,
    /** Occupied hours by EN 16798-1 winter category (I ≥ 21 °C, II ≥ 20 °C, III ≥ 19 °C, below). */
    categoryHours: z.object({ i: hours, ii: hours, iii: hours, below: hours }),
    /** Rooms that missed comfort most, worst first (at most 5). */
    worstRooms: z.array(z.object({ unitId: z.string(), name: z.string(), belowComfortShare: z.number() })),
    /** Occupants' "Zu warm" / "Zu kalt" presses in the period, over the rooms with data (decision 0070). */
    feedback: z.object({ tooWarm: z.number().int(), tooCold: z.number().int() }),
  }),
  heating: z.object({
    heatingHours: hours,
    setbackHours: hours,
    windowHeatingHours: hours,
    overrides: z.object({
      web: z.object({ count: z.number().int(), hours }),
      qr: z.object({ count: z.number().int(), hours }),
    }),
  }),
  weather: z.object({
    outdoorMean: nullableNumber,
    current: ReportPeriodFiguresSchema,
    previous: ReportPeriodFiguresSchema,
    previousYear: ReportPeriodFiguresSchema,
    /** Change of heating hours per degree day against the period before / the year before (−0.1 = 10 % less). */
    changeToPrevious: nullableNumber,
    changeToPreviousYear: nullableNumber,
  }),
  energy: z.object({
    carriers: z.array(z.object({ carrier: z.string(), kwh: z.number() })),
    kwh: nullableNumber,
    kwhPerDegreeDay: nullableNumber,
    /** kWh per m² heated area in the period (a heating season stands for the year's heating). */
    kwhPerM2: nullableNumber,
    heatedAreaM2: nullableNumber,
  }),
  /**
   * Estimated saving against a reference schedule (comfort 07:00–18:00 on weekdays, 4 K setback
   * otherwise, no closures): heat loss taken as proportional to room minus outdoor temperature.
   * An estimate, never a measurement; null without outdoor temperatures.
   */
  saving: z.object({
    share: nullableNumber,
    referenceComfortC: nullableNumber,
  }),
  losses: z.array(
    z.object({
      kind: z.enum(REPORT_LOSS_KINDS),
      unitId: z.string(),
      name: z.string(),
      /** Hours for window and valve losses; complaints (a count) for complaints despite comfort; the share (0–1) for the others. */
      value: z.number(),
    }),
  ),
  targets: z.object({
    maxHeatingHoursPerDegreeDay: nullableNumber,
    maxBelowComfortShare: nullableNumber,
    missed: z.array(z.enum(['heating_hours_per_degree_day', 'below_comfort_share'])),
  }),
  /** One row per day: the chart. */
  days: z.array(
    z.object({
      day: z.iso.date(),
      roomMean: nullableNumber,
      setpointMean: nullableNumber,
      outdoorMean: nullableNumber,
      heatingHours: hours,
      degreeDays: nullableNumber,
    }),
  ),
  /** The level below: buildings of the company, rooms of a building or group. */
  rows: z.array(ReportRowSchema),
  /** Share of the rooms' quarter hours with an uplink of their own. */
  coverage: nullableNumber,
});
export type Report = z.infer<typeof ReportSchema>;

export const REPORT_EXPORT_FORMATS = ['csv', 'excel', 'xlsx', 'pdf'] as const;
export const ReportExportQuerySchema = z
  .object({
    month: MonthSchema,
    buildingId: z.uuid().optional(),
    groupId: z.uuid().optional(),
    unitId: z.uuid().optional(),
    format: z.enum(REPORT_EXPORT_FORMATS).default('excel'),
    /** Language of the column headers and the PDF. */
    lang: z.enum(['de', 'en']).default('de'),
  })
  .refine((q) => [q.buildingId, q.groupId, q.unitId].filter(Boolean).length <= 1, {
    message: 'give at most one of buildingId, groupId and unitId',
    path: ['buildingId'],
  });

/** Export API: rollups or raw telemetry of a time range, streamed (the interface of GEG §71a). */
export const DataExportQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    buildingId: z.uuid().optional(),
    unitId: z.uuid().optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), { message: 'must be after from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 400 * 86_400_000, {
    message: 'must be at most 400 days after from',
    path: ['to'],
  });
export const RollupExportQuerySchema = DataExportQuerySchema.and(
  z.object({ resolution: z.enum(['15m', 'daily']).default('15m') }),
);

export const METER_CARRIERS = ['gas', 'district_heating', 'oil', 'heat_pump_electricity'] as const;

export const MeterReadingSchema = z.object({
  month: MonthSchema,
  carrier: z.enum(METER_CARRIERS),
  /** kWh consumed in the month. */
  kwh: z.number().min(0, 'must be at least 0 kWh').max(1e9, 'must be at most 1,000,000,000 kWh'),
});
export type MeterReading = z.infer<typeof MeterReadingSchema>;

/**
 * Meter readings as CSV text (`;` or `,`, a header row with month, carrier and kWh columns,
 * German or English names; at most 1,000 rows): all are stored, or none when a row is wrong
 * (400 with a field `csv.row.<n>.<column>` per problem, `n` counting the header as 1).
 */
export const MeterReadingImportSchema = z.object({
  csv: z.string().min(1, 'must not be empty').max(500_000, 'must be at most 500,000 characters'),
});
export const MeterReadingImportResultSchema = z.object({ imported: z.number().int() });

/** A building's heated area and efficiency target values; null clears one. */
export const BuildingReportSettingsSchema = z.object({
  heatedAreaM2: z
    .number()
    .min(1, 'must be at least 1 m²')
    .max(10_000_000, 'must be at most 10,000,000 m²')
    .nullable(),
  maxHeatingHoursPerDegreeDay: z
    .number()
    .min(0.01, 'must be at least 0.01 h')
    .max(24, 'must be at most 24 h')
    .nullable(),
  maxBelowComfortShare: z.number().min(0, 'must be at least 0 %').max(1, 'must be at most 100 %').nullable(),
});
export type BuildingReportSettings = z.infer<typeof BuildingReportSettingsSchema>;

export const BuildingReportDataSchema = z.object({
  settings: BuildingReportSettingsSchema,
  readings: z.array(MeterReadingSchema),
});
export type BuildingReportData = z.infer<typeof BuildingReportDataSchema>;

/** Whether the signed-in member gets the PDF monthly report by mail on the 1st. */
export const ReportSubscriptionSchema = z.object({ subscribed: z.boolean() });
