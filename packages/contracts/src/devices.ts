/**
 * Devices and gateways API contracts (spec §3, §5; issue 6), shared by server and web.
 */
import { z } from 'zod';

/** Device model ids of the server's codec registry ("config type" in spec §3). */
export const DEVICE_MODELS = ['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'elsys-ers'] as const;
export const DeviceModelSchema = z.enum(DEVICE_MODELS);
export type DeviceModel = z.infer<typeof DeviceModelSchema>;
