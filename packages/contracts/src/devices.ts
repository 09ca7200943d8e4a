/**
 * Devices and gateways API contracts (spec §3, §5), shared by server and web.
 * Validation messages follow spec §5: a device id has at most 16 characters and, for LoRaWAN,
 * exactly 16 hex digits (the DevEUI); a LoRaWAN AppKey has exactly 32 hex digits.
 */
import { z } from 'zod';
import { DeviceAirtimeSchema, DeviceConfigSyncSchema } from './device-profiles.ts';
import { ExportLangSchema, LIST_EXPORT_FORMATS } from './exports.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

/** Device model ids of the server's codec registry ("config type" in spec §3). */
export const DEVICE_MODELS = [
  'mclimate-vicki',
  'milesight-wt101',
  'micropelt-mlr003',
  'elsys-ers',
  'dragino-lt22222',
] as const;
export const DeviceModelSchema = z.enum(DEVICE_MODELS);
export type DeviceModel = z.infer<typeof DeviceModelSchema>;

/**
 * What a model is: a radiator valve, a sensor that only measures, or a relay that switches a heat
 * generator for a heating circuit (codec `kind`).
 */
export const DEVICE_KINDS = ['valve', 'sensor', 'relay'] as const;
export const DeviceKindSchema = z.enum(DEVICE_KINDS);
export type DeviceKind = z.infer<typeof DeviceKindSchema>;

export const DEVICE_PROTOCOLS = ['lorawan'] as const;
export const DeviceProtocolSchema = z.enum(DEVICE_PROTOCOLS);

const HEX16 = /^[0-9a-fA-F]{16}$/;
export const DEV_EUI_MESSAGE = 'A LoRaWAN device id is its DevEUI: exactly 16 hex digits.';
export const APP_KEY_MESSAGE = 'The AppKey of a LoRaWAN device has exactly 32 hex digits.';

/** An EUI-64 (DevEUI, JoinEUI, gateway EUI) as 16 hex digits, normalised to lowercase. */
export const euiSchema = (message: string) =>
  z
    .string()
    .trim()
    .regex(HEX16, message)
    .transform((s) => s.toLowerCase());

const AppKeySchema = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, APP_KEY_MESSAGE)
  .transform((s) => s.toLowerCase());

export const CompanyParamsSchema = z.object({ companyId: z.string() });
export const DeviceParamsSchema = CompanyParamsSchema.extend({ deviceId: z.string().max(64) });
export const DeviceByEuiParamsSchema = CompanyParamsSchema.extend({ devEui: z.string().max(64) });
export const GatewayParamsSchema = CompanyParamsSchema.extend({ gatewayId: z.uuid() });

export const DeviceCreateSchema = z
  .object({
    id: z
      .string()
      .trim()
      .min(1, 'The device id is required.')
      .max(16, 'A device id has at most 16 characters.'),
    protocol: DeviceProtocolSchema.default('lorawan'),
    model: DeviceModelSchema,
    appKey: AppKeySchema.optional(),
    joinEui: euiSchema('The JoinEUI has exactly 16 hex digits.').nullable().optional(),
    unitId: z.uuid().nullable().optional(),
  })
  .superRefine(
    (device, ctx) => {
      if (device.protocol === 'lorawan' && !HEX16.test(device.id)) {
        ctx.addIssue({ code: 'custom', path: ['id'], message: DEV_EUI_MESSAGE });
      }
    },
    // Checked even when another field is wrong, so every message shows at once.
    { when: ({ value }) => typeof (value as { id?: unknown } | null)?.id === 'string' },
  )
  .transform((device) => ({
    ...device,
    id: device.protocol === 'lorawan' ? device.id.toLowerCase() : device.id,
  }));
export type DeviceCreate = z.input<typeof DeviceCreateSchema>;

/** `unitId: null` unassigns; an AppKey given replaces the stored one. */
export const DeviceUpdateSchema = z.object({
  model: DeviceModelSchema.optional(),
  appKey: AppKeySchema.optional(),
  joinEui: euiSchema('The JoinEUI has exactly 16 hex digits.').nullable().optional(),
  unitId: z.uuid().nullable().optional(),
});
export type DeviceUpdate = z.input<typeof DeviceUpdateSchema>;

export const BatterySchema = z.object({ value: z.number(), unit: z.enum(['V', '%']) });

/** A device as the API returns it: the AppKey itself is never returned. */
export const DeviceSchema = z.object({
  id: z.string(),
  protocol: DeviceProtocolSchema,
  devEui: z.string().nullable(),
  joinEui: z.string().nullable(),
  model: DeviceModelSchema,
  appKeySet: z.boolean(),
  appKeyLast4: z.string().nullable(),
  unitId: z.uuid().nullable(),
  unitName: z.string().nullable(),
  /** The building and floor of the device's unit (decision 0052); null without unit or building. */
  buildingId: z.uuid().nullable(),
  buildingName: z.string().nullable(),
  floor: z.string().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  lastSeen: z.iso.datetime().nullable(),
  battery: BatterySchema.nullable(),
  lastRssi: z.number().nullable(),
  lastSnr: z.number().nullable(),
  /** Firmware "major.minor" as the device reported it; null until it answered. */
  firmware: z.string().nullable(),
  /**
   * Frost protection the valve runs by itself (holds while the network server is down), as the
   * device reported it: below `activation` °C it heats to `target` °C until above `deactivation`.
   */
  antiFreeze: z.object({ activation: z.number(), deactivation: z.number(), target: z.number() }).nullable(),
  /** Whether the model, and its firmware once known, has that frost protection. */
  antiFreezeSupport: z.enum(['supported', 'firmware_too_old', 'firmware_unknown', 'none']),
  /** Configuration against the device profile in force (decision 0062). */
  config: DeviceConfigSyncSchema,
  /** Spreading factor and airtime against the daily budget. */
  airtime: DeviceAirtimeSchema,
  /**
   * How the battery fell over the last 14 days (at least 3 days of readings), per week in the
   * device's unit (V or %), and the days until it reaches the low-battery threshold at that
   * pace; null without enough readings. `daysLeft` is null while it does not fall.
   */
  batteryTrend: z.object({ perWeek: z.number(), daysLeft: z.number().int().nullable() }).nullable(),
  /** The latest setpoint downlink and how far it got: queued → sent → acknowledged | failed. */
  downlink: z
    .object({
      setpoint: z.number(),
      state: z.enum(['queued', 'sent', 'acknowledged', 'failed']),
      queuedAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .nullable(),
});
export type Device = z.infer<typeof DeviceSchema>;

/**
 * `building` groups by place: building name, then the building's floors in its order, then unit
 * name; devices without building come last.
 */
export const DEVICE_SORTS = ['id', 'model', 'unit', 'building', 'createdAt', 'lastSeen', 'battery'] as const;
export const DeviceListQuerySchema = PageQuerySchema.extend({
  /** Matches id and unit name, case-insensitively. */
  q: z.string().trim().max(120).optional(),
  model: DeviceModelSchema.optional(),
  /** Only devices of models of this kind (e.g. the sensors a building may use outside). */
  kind: DeviceKindSchema.optional(),
  unitId: z.uuid().optional(),
  /** `true` = only devices without a unit. */
  unassigned: z.enum(['true', 'false']).optional(),
  /** Only devices whose unit is in this building (decision 0052). */
  buildingId: z.uuid().optional(),
  /** Only devices whose unit is on this floor (of `buildingId`, or of any building). */
  floor: z.string().trim().min(1).max(40).optional(),
  sort: z.enum(DEVICE_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type DeviceListQuery = z.input<typeof DeviceListQuerySchema>;

/**
 * The devices export's formats: the list formats (`exports.ts`) and the network servers' import
 * files — `tts` The Things Stack's end-device CSV, `chirpstack` a CSV of ChirpStack v4's API
 * `Device` fields (decision 0060).
 */
export const DEVICE_EXPORT_FORMATS = [...LIST_EXPORT_FORMATS, 'tts', 'chirpstack'] as const;
export type DeviceExportFormat = (typeof DEVICE_EXPORT_FORMATS)[number];

/**
 * `GET …/devices/export`: the devices the list's filters match, as CSV — never an AppKey.
 * `excel` for German Excel (semicolon, BOM, decimal comma, local times), `csv` for machines
 * (comma, ISO times), `xlsx` a workbook; headers in `lang` (the network servers' files keep
 * their own column names).
 */
export const DeviceExportQuerySchema = DeviceListQuerySchema.omit({ page: true, size: true }).extend({
  format: z.enum(DEVICE_EXPORT_FORMATS).default('excel'),
  lang: ExportLangSchema,
});
export type DeviceExportQuery = z.input<typeof DeviceExportQuerySchema>;
export const DevicePageSchema = pageOf(DeviceSchema);
export type DevicePage = z.infer<typeof DevicePageSchema>;

export const GatewayCreateSchema = z.object({
  gatewayEui: euiSchema('A gateway EUI has exactly 16 hex digits.'),
  name: z.string().trim().min(1, 'The name is required.').max(120),
  /** Seconds between the gateway's stats messages; ChirpStack's default is 30. */
  statsIntervalS: z.number().int().min(5).max(86_400).default(30),
});
export type GatewayCreate = z.input<typeof GatewayCreateSchema>;
export const GatewayUpdateSchema = z.object({
  name: z.string().trim().min(1, 'The name is required.').max(120).optional(),
  statsIntervalS: z.number().int().min(5).max(86_400).optional(),
});

export const GatewaySchema = z.object({
  id: z.uuid(),
  gatewayEui: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastSeen: z.iso.datetime().nullable(),
  statsIntervalS: z.number().int(),
  /** False once 2 × statsIntervalS passed without stats (or never seen). */
  online: z.boolean(),
});
export type Gateway = z.infer<typeof GatewaySchema>;

export const GATEWAY_SORTS = ['name', 'gatewayEui', 'createdAt', 'lastSeen'] as const;
export const GatewayListQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().max(120).optional(),
  sort: z.enum(GATEWAY_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export const GatewayPageSchema = pageOf(GatewaySchema);
export type GatewayPage = z.infer<typeof GatewayPageSchema>;
