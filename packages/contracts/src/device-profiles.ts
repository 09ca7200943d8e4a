/**
 * Device profiles under `/api/companies/{companyId}/device-profiles` (decision 0062): the
 * configuration a fleet manager wants on the valves of one model, assigned to the company, a
 * building, a group or a unit (the most specific wins). Ranges follow MClimate's Vicki command
 * set (keep-alive 0x02 in minutes, open-window detection 0x45, child lock 0x07 and its offline
 * behaviour 0x35, temperature range 0x08, temperature offset 0x53).
 */
import { z } from 'zod';
import { CompanyParamsSchema } from './heating.ts';

/** The configuration a profile asks for. */
export const DeviceConfigSchema = z
  .object({
    /** Minutes between the device's regular uplinks (1…255). */
    keepAliveMinutes: z.number().int().min(1).max(255),
    openWindow: z.object({
      enabled: z.boolean(),
      /** Minutes the valve stays closed after a detection, steps of 5 (5…1275). */
      durationMinutes: z.number().int().min(5).max(1275).multipleOf(5),
      /** Temperature drop within a minute that counts as an open window, K (0.1…25.5). */
      deltaK: z.number().min(0.1).max(25.5),
    }),
    /** Rotary ring on the valve disabled. */
    childLock: z.boolean(),
    /**
     * The child lock stays on while the valve has lost its network; false: the valve releases it
     * until it is back online (the factory setting).
     */
    childLockKeptOffline: z.boolean().default(false),
    /** What the rotary ring may set, whole °C (5…30). */
    temperatureRange: z
      .object({ min: z.number().int().min(5).max(30), max: z.number().int().min(5).max(30) })
      .refine((r) => r.min <= r.max, { message: 'min must not be above max', path: ['max'] }),
    /** Added to the valve's own temperature reading, K (−4.9…4.9, steps of 0.176). */
    temperatureOffset: z.number().min(-4.9).max(4.9),
  })
  .strict();
export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;

/** What a device last reported of its configuration; a field is absent until it answered. */
export const ReportedConfigSchema = DeviceConfigSchema.partial();
export type ReportedConfig = z.infer<typeof ReportedConfigSchema>;

export const DeviceProfileParamsSchema = CompanyParamsSchema.extend({ profileId: z.uuid() });

/** Where a profile applies: the whole company, buildings, groups and units (the most specific wins). */
export const DeviceProfilePlacesSchema = z.object({
  company: z.boolean().default(false),
  buildingIds: z.array(z.uuid()).max(1000).default([]),
  groupIds: z.array(z.uuid()).max(1000).default([]),
  unitIds: z.array(z.uuid()).max(10_000).default([]),
});
export type DeviceProfilePlaces = z.infer<typeof DeviceProfilePlacesSchema>;

/** How many devices follow the profile and how many report its configuration. */
export const DeviceProfileSyncSchema = z.object({
  devices: z.number().int(),
  inSync: z.number().int(),
  pending: z.number().int(),
  differs: z.number().int(),
});

export const DeviceProfileSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  model: z.string(),
  config: DeviceConfigSchema,
  places: DeviceProfilePlacesSchema,
  /** The rooms of `places.unitIds` with their names, by name. */
  units: z.array(z.object({ id: z.uuid(), name: z.string() })),
  sync: DeviceProfileSyncSchema,
  updatedAt: z.iso.datetime(),
});
export type DeviceProfile = z.infer<typeof DeviceProfileSchema>;

/** A model that takes configuration commands, with its factory configuration and the fields it can set. */
export const ConfigurableModelSchema = z.object({
  model: z.string(),
  name: z.string(),
  defaults: DeviceConfigSchema,
  fields: z.array(
    z.enum([
      'keepAliveMinutes',
      'openWindow',
      'childLock',
      'childLockKeptOffline',
      'temperatureRange',
      'temperatureOffset',
    ]),
  ),
});

export const DeviceProfileListSchema = z.object({
  results: z.array(DeviceProfileSchema),
  models: z.array(ConfigurableModelSchema),
  /** Each device's daily airtime budget, s (The Things Network's fair use or the 1 % duty cycle). */
  airtimeBudgetS: z.number(),
});
export type DeviceProfileList = z.infer<typeof DeviceProfileListSchema>;

export const DeviceProfileInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  model: z.string().min(1).max(40),
  config: DeviceConfigSchema,
  places: DeviceProfilePlacesSchema.default({ company: false, buildingIds: [], groupIds: [], unitIds: [] }),
});
export type DeviceProfileInput = z.input<typeof DeviceProfileInputSchema>;

/** A PATCH changes only the fields given. */
export const DeviceProfilePatchSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    config: DeviceConfigSchema,
    places: DeviceProfilePlacesSchema,
  })
  .partial();
export type DeviceProfilePatch = z.input<typeof DeviceProfilePatchSchema>;

/** A device's configuration against its profile, as the devices table shows it. */
export const DeviceConfigSyncSchema = z.object({
  status: z.enum(['in_sync', 'pending', 'differs', 'none']),
  profileName: z.string().nullable(),
  /** Fields that differ from the profile. */
  differs: z.array(z.string()),
  /** Why what differs cannot be sent: the model or firmware lacks it, or today's airtime is spent. */
  reason: z.enum(['unsupported', 'budget']).nullable(),
  /** A motor recalibration was asked for and goes with the next downlink. */
  recalibrating: z.boolean(),
  /** The model has a motor recalibration command. */
  canRecalibrate: z.boolean(),
});

/** Up to 1,000 of the company's devices to recalibrate (their motors, with the next downlink). */
export const RecalibrateInputSchema = z.object({
  deviceIds: z.array(z.string().min(1).max(16)).min(1).max(1000),
});
export type RecalibrateInput = z.infer<typeof RecalibrateInputSchema>;

export const RecalibrateResultSchema = z.object({
  /** Devices whose recalibration is now asked for. */
  requested: z.number().int(),
  /** Devices whose model has no recalibration command. */
  unsupported: z.array(z.string()),
});
export type RecalibrateResult = z.infer<typeof RecalibrateResultSchema>;

/** A device's radio and airtime against its daily budget (AN1200.13). */
export const DeviceAirtimeSchema = z.object({
  spreadingFactor: z.number().int().nullable(),
  /** Airtime its uplinks take per day at the interval it runs, s. */
  uplinkPerDayS: z.number(),
  /** Airtime of the downlinks sent to it in the last 24 hours, s. */
  downlinkTodayS: z.number(),
  budgetS: z.number(),
  /** When the profile's keep-alive would pass the budget: the shortest interval that fits, minutes (null: none does). */
  keepAliveOverBudget: z.object({ desired: z.number().int(), fits: z.number().int().nullable() }).nullable(),
});
