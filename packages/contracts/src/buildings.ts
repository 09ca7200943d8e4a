/**
 * Buildings under `/api/companies/{companyId}/buildings` (decision 0052): where a company's units
 * are, with the German federal state (Bundesland) and optional region whose public holidays apply
 * there, and the building's floors. A unit may belong to one building and one of its floors; a
 * company without buildings works as before. Public holidays come from the `date-holidays` data
 * shipped with the server (offline); a building either ignores them (default) or treats each as a
 * closure in a heating mode (decision 0051), from 00:00 to 24:00 in the company's time zone.
 */
import { z } from 'zod';
import { HeatingModeSchema } from './closures.ts';
import { ActorSchema, CompanyParamsSchema } from './heating.ts';
import { OccupantCeilingSchema, OccupantLeewaySchema } from './occupant-limits.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

/** ISO 3166-2 subdivision codes of the 16 federal states, without the `DE-` prefix. */
export const FEDERAL_STATES = [
  'BW',
  'BY',
  'BE',
  'BB',
  'HB',
  'HH',
  'HE',
  'MV',
  'NI',
  'NW',
  'RP',
  'SL',
  'SN',
  'ST',
  'SH',
  'TH',
] as const;
export const FederalStateSchema = z.enum(FEDERAL_STATES);
export type FederalState = z.infer<typeof FederalStateSchema>;

/**
 * `ignore`: public holidays change nothing; `closure`: each one is a closure in `holidayMode`;
 * `sunday`: on each one the seasonal plans use their Sunday switch points.
 */
export const HolidayTreatmentSchema = z.enum(['ignore', 'closure', 'sunday']);
export type HolidayTreatment = z.infer<typeof HolidayTreatmentSchema>;

export const BuildingParamsSchema = CompanyParamsSchema.extend({ buildingId: z.uuid() });

/** Most floors a building lists; names are short labels such as "EG", "1. OG". */
export const BUILDING_FLOORS_MAX = 100;

const floorName = z.string().trim().min(1).max(40);

/** WGS 84 degrees of the building, for its outdoor temperature (decision 0057). */
export const LATITUDE_LIMITS = { min: -90, max: 90 } as const;
export const LONGITUDE_LIMITS = { min: -180, max: 180 } as const;
const latitude = z.number().min(LATITUDE_LIMITS.min).max(LATITUDE_LIMITS.max);
const longitude = z.number().min(LONGITUDE_LIMITS.min).max(LONGITUDE_LIMITS.max);
/**
 * The company's device used as the building's outdoor sensor (decision 0057): a sensor model
 * (not a valve) without unit; its readings take precedence over the weather provider.
 */
const outdoorSensorId = z.string().trim().min(1).max(16);
const bothOrNeither = {
  message: 'Latitude and longitude are given together.',
  path: ['longitude'],
};

/**
 * The building's outdoor temperature now: the latest stored hour (at most 3 h old), the hourly
 * mean of its outdoor sensor (`sensor`) or from the weather provider (`observed` or a `forecast`
 * not yet replaced by a measured value).
 */
export const CurrentOutdoorSchema = z.object({
  /** °C. */
  temperature: z.number(),
  /** The hour it is for (UTC). */
  at: z.iso.datetime(),
  kind: z.enum(['sensor', 'observed', 'forecast']),
  /** `brightsky` (DWD), `open-meteo`, or `sensor` for the building's outdoor sensor. */
  provider: z.string(),
});
export type CurrentOutdoor = z.infer<typeof CurrentOutdoorSchema>;

export const BuildingSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  street: z.string(),
  postcode: z.string(),
  city: z.string(),
  state: FederalStateSchema,
  /**
   * A region of the state with holidays of its own, as `date-holidays` names it (e.g. `A` for
   * Augsburg in Bavaria, with the Augsburger Friedensfest); null for the state's holidays only.
   */
  region: z.string().nullable(),
  floors: z.array(z.string()),
  publicHolidays: HolidayTreatmentSchema,
  /** The heating mode of public holidays treated as closures and of school holidays. */
  holidayMode: HeatingModeSchema,
  /** School holidays (Ferien) of the building's state are closures in `holidayMode` (schools). */
  schoolHolidays: z.boolean(),
  /** WGS 84 degrees; null = no outdoor temperature (optimum start then runs on room data alone). */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The device id of the building's outdoor sensor; null = the weather provider alone. */
  outdoorSensorId: z.string().nullable(),
  outdoor: CurrentOutdoorSchema.nullable(),
  /** °C occupants may choose at most in its rooms; null = the company's (decision 0066). */
  occupantMaxTemperature: z.number().nullable(),
  /** K occupants may move around the plan there; null = the company's leeway. */
  occupantBand: z.number().nullable(),
  /** Units in the building. */
  unitCount: z.number().int(),
  /**
   * The earliest instant tomorrow (company zone) at which one of its rooms starts heating up, with
   * optimum start where it acts (decision 0056) — when the boiler must run; null when none does.
   */
  heatingStartTomorrow: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type Building = z.infer<typeof BuildingSchema>;
export const BuildingPageSchema = pageOf(BuildingSchema);
export type BuildingPage = z.infer<typeof BuildingPageSchema>;

export const BuildingInputSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    street: z.string().trim().max(200).default(''),
    postcode: z
      .string()
      .trim()
      .regex(/^(\d{5})?$/, 'A German postcode has five digits.')
      .default(''),
    city: z.string().trim().max(120).default(''),
    state: FederalStateSchema,
    region: z.string().trim().min(1).max(10).nullable().default(null),
    floors: z.array(floorName).max(BUILDING_FLOORS_MAX).default([]),
    publicHolidays: HolidayTreatmentSchema.default('ignore'),
    holidayMode: HeatingModeSchema.default('frost'),
    schoolHolidays: z.boolean().default(false),
    latitude: latitude.nullable().default(null),
    longitude: longitude.nullable().default(null),
    outdoorSensorId: outdoorSensorId.nullable().default(null),
    occupantMaxTemperature: OccupantCeilingSchema.default(null),
    occupantBand: OccupantLeewaySchema.default(null),
  })
  .refine((b) => (b.latitude === null) === (b.longitude === null), bothOrNeither);
export type BuildingInput = z.input<typeof BuildingInputSchema>;

/** Partial update: only the fields given change. */
export const BuildingUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    street: z.string().trim().max(200).optional(),
    postcode: z
      .string()
      .trim()
      .regex(/^(\d{5})?$/, 'A German postcode has five digits.')
      .optional(),
    city: z.string().trim().max(120).optional(),
    state: FederalStateSchema.optional(),
    region: z.string().trim().min(1).max(10).nullable().optional(),
    floors: z.array(floorName).max(BUILDING_FLOORS_MAX).optional(),
    publicHolidays: HolidayTreatmentSchema.optional(),
    holidayMode: HeatingModeSchema.optional(),
    schoolHolidays: z.boolean().optional(),
    latitude: latitude.nullable().optional(),
    longitude: longitude.nullable().optional(),
    outdoorSensorId: outdoorSensorId.nullable().optional(),
    occupantMaxTemperature: OccupantCeilingSchema.optional(),
    occupantBand: OccupantLeewaySchema.optional(),
  })
  .refine(
    (b) =>
      (b.latitude === undefined) === (b.longitude === undefined) &&
      (b.latitude === null) === (b.longitude === null),
    bothOrNeither,
  );
export type BuildingUpdate = z.infer<typeof BuildingUpdateSchema>;

export const BuildingListQuerySchema = PageQuerySchema;

/** The regions of a state that have holidays of their own, for the building form. */
export const HolidayRegionSchema = z.object({ code: z.string(), name: z.string() });
export const FederalStateRegionsSchema = z.object({
  state: FederalStateSchema,
  regions: z.array(HolidayRegionSchema),
});
/** `GET /api/holiday-regions?lang=` — every state with its regions. */
export const HolidayRegionsSchema = z.object({ results: z.array(FederalStateRegionsSchema) });
export type HolidayRegions = z.infer<typeof HolidayRegionsSchema>;

export const HolidayQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  lang: z.enum(['de', 'en']).default('de'),
});

/** One public holiday of a building's state (and region), a whole local day. */
export const HolidaySchema = z.object({
  /** Local date `YYYY-MM-DD`. */
  date: z.string(),
  name: z.string(),
  /** True for a holiday of the region only (not the whole state). */
  regional: z.boolean(),
});
export type Holiday = z.infer<typeof HolidaySchema>;

/** One school holiday period (Ferien) of a federal state; local dates, both inclusive. */
export const SchoolHolidaySchema = z.object({
  start: z.string(),
  end: z.string(),
  name: z.string(),
});
export type SchoolHoliday = z.infer<typeof SchoolHolidaySchema>;

/**
 * `GET …/buildings/{buildingId}/holidays?year=`: the public holidays of the year and the school
 * holiday periods overlapping it (whether or not the building uses them; `schoolHolidaysUntil`
 * is the last date the shipped school-holiday data covers).
 */
export const HolidayListSchema = z.object({
  results: z.array(HolidaySchema),
  schoolHolidays: z.array(SchoolHolidaySchema),
  schoolHolidaysUntil: z.string(),
});
export type HolidayList = z.infer<typeof HolidayListSchema>;

// ---- the company's own days (bridge days, movable days off) ----

/** Most own days a building keeps. */
export const BUILDING_DAYS_MAX = 500;
/** Largest ICS file an import reads (bytes of text). */
export const BUILDING_DAYS_ICS_MAX = 1_000_000;

export const BuildingDayParamsSchema = BuildingParamsSchema.extend({ dayId: z.uuid() });

/**
 * A day the company closes a building on its own (a bridge day, a movable day off): a whole local
 * day that counts like a public holiday — a closure in the building's holiday mode, or "like a
 * Sunday" when the building treats holidays so.
 */
export const BuildingDaySchema = z.object({
  id: z.uuid(),
  /** Local date `YYYY-MM-DD`. */
  date: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type BuildingDay = z.infer<typeof BuildingDaySchema>;
/** `GET …/buildings/{buildingId}/days?year=`: the year's own days by date. */
export const BuildingDayListSchema = z.object({ results: z.array(BuildingDaySchema) });
export type BuildingDayList = z.infer<typeof BuildingDayListSchema>;
export const BuildingDayQuerySchema = z.object({ year: z.coerce.number().int().min(2000).max(2100) });

export const BuildingDayInputSchema = z.object({
  date: z.iso.date(),
  name: z.string().trim().min(1).max(120),
});
export type BuildingDayInput = z.infer<typeof BuildingDayInputSchema>;

/** `POST …/days/import`: the text of an ICS file; each event's local days become own days. */
export const BuildingDayImportSchema = z.object({ ics: z.string().min(1).max(BUILDING_DAYS_ICS_MAX) });
/** Days added, and days left out because the building already had them. */
export const BuildingDayImportResultSchema = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
});
export type BuildingDayImportResult = z.infer<typeof BuildingDayImportResultSchema>;
