/**
 * A unit's learned warm-up model for optimum start and stop (decision 0056):
 * `GET /api/companies/{companyId}/units/{unitId}/warm-up`. Temperatures °C, rates K/h (warm-up:
 * how fast the room rises once the valve opens; cooling: how fast it falls after a set-back),
 * dead time in minutes, instants ISO-8601 UTC.
 */
import { z } from 'zod';
import { OptimumStartModeSchema } from './account.ts';

export const WarmUpSessionSchema = z.object({
  /** When the setpoint stepped up. */
  start: z.iso.datetime(),
  /** Setpoint − room temperature at the step, K. */
  lift: z.number(),
  /** Mean outdoor temperature during the session; null without an outdoor source. */
  outdoor: z.number().nullable(),
  /** Minutes until the room had risen by 0.2 K. */
  deadtimeMinutes: z.number(),
  /** K/h after the dead time. */
  rate: z.number(),
  /** Minutes until setpoint − 0.3 K. */
  durationMinutes: z.number(),
});

/** A plan comfort start: was the room within 0.5 K of comfort at the switch point? */
export const ComfortStartSchema = z.object({
  at: z.iso.datetime(),
  comfort: z.number(),
  /** null: no reading within 30 minutes of the switch point. */
  room: z.number().nullable(),
  hit: z.boolean(),
});

export const UnitWarmUpSchema = z.object({
  /** What applies to this unit: `off` when the company runs it off or the unit opted out. */
  mode: OptimumStartModeSchema,
  /** The company's mode, so the page can say why the unit's is `off`. */
  companyMode: OptimumStartModeSchema,
  /** Whether the unit takes part (`optimumStart` of the unit). */
  optimumStart: z.boolean(),
  /** null until the first learning run for this unit. */
  model: z
    .object({
      /** false: fewer than 3 sessions, the default gradient (30 min/K) applies. */
      learned: z.boolean(),
      deadtimeMinutes: z.number(),
      /** K/h at 0 °C outdoor. */
      rateAt0: z.number(),
      /** K/h per K outdoor temperature; 0 without outdoor data. */
      ratePerOutdoorK: z.number(),
      /** K/h right after a set-back; null until one was seen. */
      coolRate: z.number().nullable(),
      /**
       * Minutes a switch-off keeps the room within 0.5 K (median, Class A wait included): optimum
       * stop ends comfort this much less one reporting interval early. null until one was seen.
       */
      comfortHoldMinutes: z.number().nullable(),
      /** 0…1. */
      confidence: z.number(),
      learnedAt: z.iso.datetime(),
    })
    .nullable(),
  /** The last ≤ 10 sessions the model was fitted to, oldest first. */
  sessions: z.array(WarmUpSessionSchema),
  /** Comfort starts of the last 30 days, oldest first. */
  mornings: z.array(ComfortStartSchema),
});
export type UnitWarmUp = z.infer<typeof UnitWarmUpSchema>;
