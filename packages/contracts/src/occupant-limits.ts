/**
 * Occupant limits a building or a group sets for its rooms (decision 0066): the highest °C an
 * occupant may choose on the public page and the leeway in K around the plan's setpoint, each
 * null to take the next level's (group → building → company). Only rooms without wall-control
 * limits of their own follow them.
 */
import { z } from 'zod';
import { COMPANY_TEMPERATURE_LIMITS, OCCUPANT_BAND_LIMITS } from './account.ts';

/** °C; null = the building's or the company's ceiling. */
export const OccupantCeilingSchema = z
  .number()
  .min(COMPANY_TEMPERATURE_LIMITS.min)
  .max(COMPANY_TEMPERATURE_LIMITS.max)
  .nullable();

/** K, 0,5–10; null = the building's or the company's leeway. */
export const OccupantLeewaySchema = z
  .number()
  .min(OCCUPANT_BAND_LIMITS.min)
  .max(OCCUPANT_BAND_LIMITS.max)
  .nullable();

/** Where an occupant limit in force comes from, most specific first. */
export const OccupantLimitSourceSchema = z.enum(['group', 'building', 'company']);
export type OccupantLimitSource = z.infer<typeof OccupantLimitSourceSchema>;
