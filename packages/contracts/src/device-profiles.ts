/**
 * Device profiles under `/api/companies/{companyId}/device-profiles` (decision 0062): the
 * configuration a fleet manager wants on the valves of one model, assigned to the company, a
 * building, a group or a unit (the most specific wins). Ranges follow MClimate's Vicki command
 * set (keep-alive 0x02 in minutes, open-window detection 0x45, child lock 0x07, temperature
 * range 0x08, temperature offset 0x53).
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
