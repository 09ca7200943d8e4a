/**
 * The getting-started checklist of a new company:
 * `GET /api/companies/{companyId}/getting-started` says which of the steps from an empty company
 * to heated rooms are done, each read from what the company has (never from clicks), and when
 * the newest uplink of any of its devices arrived. Members who run the heating (admin, heating)
 * read it; a member who only reads gets 403, a stranger 404.
 *
 * The steps, in the order the web app lists them:
 * - `building`: the company has a building.
 * - `units`: it has a room (unit).
 * - `plan`: a unit or a group has a heating plan.
 * - `licences`: it has usable licences. Left out when the server bills nothing
 *   (`BILLING_PROVIDER=none`: licences are unlimited, there is nothing to buy).
 * - `uplinks`: an uplink of one of its devices has arrived, so the LoRaWAN network server is
 *   connected.
 * - `devices`: a device is assigned to a room.
 * - `qr_codes`: a room's QR code is enabled.
 */
import { z } from 'zod';

export const GETTING_STARTED_STEPS = [
  'building',
  'units',
  'plan',
  'licences',
  'uplinks',
  'devices',
  'qr_codes',
] as const;
export const GettingStartedStepIdSchema = z.enum(GETTING_STARTED_STEPS);
export type GettingStartedStepId = z.infer<typeof GettingStartedStepIdSchema>;

export const GettingStartedStepSchema = z.object({ id: GettingStartedStepIdSchema, done: z.boolean() });
export type GettingStartedStep = z.infer<typeof GettingStartedStepSchema>;

export const GettingStartedSchema = z.object({
  /** The steps in `GETTING_STARTED_STEPS` order; `licences` is missing without billing. */
  steps: z.array(GettingStartedStepSchema),
  /** When the newest uplink of any device of the company arrived (UTC); null = never. */
  lastUplinkAt: z.iso.datetime().nullable(),
});
export type GettingStarted = z.infer<typeof GettingStartedSchema>;
