/**
 * The alert centre: what can go wrong in a fleet of battery valves, each condition's
 * tunable defaults, alerts with their lifecycle (open → resolved by itself, acknowledged, muted),
 * each member's mail preferences and the company's signed webhooks. Times are ISO 8601 UTC,
 * temperatures °C, durations minutes unless named otherwise.
 */
import { z } from 'zod';
import { ALERT_KINDS } from './alert-defaults.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

export { ALERT_KINDS, DEFAULT_ALERT_SETTINGS } from './alert-defaults.ts';

export const AlertKindSchema = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof AlertKindSchema>;

/**
 * What an alert is about: a device (DevEUI), a gateway (id), a unit (id), the whole company
 * (its id; setpoints not being sent at all), a booking feed (its id; `unitId` is its room), a
 * building (its id; efficiency target values) or a heating circuit (its id; writes to its heat
 * generator).
 */
export const AlertSubjectSchema = z.enum([
  'device',
  'gateway',
  'unit',
  'company',
  'booking_feed',
  'building',
  'heating_circuit',
]);
export type AlertSubject = z.infer<typeof AlertSubjectSchema>;

export const AlertStateSchema = z.enum(['open', 'resolved']);
export type AlertState = z.infer<typeof AlertStateSchema>;

const minutes = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 60);

/**
 * A company's tuning of the conditions; every field has a default (`DEFAULT_ALERT_SETTINGS`).
 * `enabled` lists the kinds that may open alerts.
 */
export const AlertSettingsSchema = z.object({
  enabled: z.array(AlertKindSchema),
  /** A device is offline after this many of its reporting intervals without an uplink. */
  offlineIntervals: z.number().int().min(2).max(50),
  /** Battery reported in % below which it is low (per-model voltages apply to V). */
  lowBatteryPercent: z.number().int().min(1).max(90),
  /** Setpoint above room by more than 2 °C with the valve ≥ 80 % for this long: not warming. */
  notWarmingMinutes: minutes,
  /** Room this far from the setpoint (°C) … */
  farFromSetpointKelvin: z.number().min(0.5).max(15),
  /** … for this long. */
  farFromSetpointMinutes: minutes,
  /** A setpoint downlink still pending after this long (or failed) is not delivered. */
  undeliveredMinutes: minutes,
  /** A cleared condition resolves its alert only after staying clear this long (hysteresis). */
  clearMinutes: minutes,
  /** Unacknowledged open alerts are mailed again after this many hours. */
  repeatHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30),
});
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;
export const AlertSettingsPatchSchema = AlertSettingsSchema.partial();

export const AlertSchema = z.object({
  id: z.uuid(),
  kind: AlertKindSchema,
  subject: AlertSubjectSchema,
  subjectId: z.string(),
  /** Name of the device (its id), gateway or unit, for display. */
  subjectName: z.string(),
  /** The device fault code for `device_fault` (e.g. `motorError`), else null. */
  code: z.string().nullable(),
  unitId: z.uuid().nullable(),
  unitName: z.string().nullable(),
  /**
   * The building and floor of the alert's unit or, a device's alert without one, of the unit its
   * device is in now — as the building filter places it (decision 0052); null when none.
   */
  buildingId: z.uuid().nullable(),
  buildingName: z.string().nullable(),
  floor: z.string().nullable(),
  state: AlertStateSchema,
  openedAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** How often the condition came back while the alert was open (1 = once). */
  occurrences: z.number().int(),
  resolvedAt: z.iso.datetime().nullable(),
  acknowledgedAt: z.iso.datetime().nullable(),
  acknowledgedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  note: z.string().nullable(),
  mutedUntil: z.iso.datetime().nullable(),
  /** Measured values behind the alert: battery, estimated days left, inferred window, … */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type Alert = z.infer<typeof AlertSchema>;
export const AlertPageSchema = pageOf(AlertSchema);

/**
 * `building` groups by place: building name, then the building's floors in its order, newest
 * first on a floor; alerts without building come last.
 */
export const AlertSortSchema = z.enum(['openedAt', 'lastSeenAt', 'kind', 'subject', 'building']);
export const AlertListQuerySchema = PageQuerySchema.extend({
  kind: AlertKindSchema.optional(),
  state: AlertStateSchema.optional(),
  unitId: z.uuid().optional(),
  groupId: z.uuid().optional(),
  /** Only alerts of units in this building: the alert's unit, or its device's unit (decision 0052). */
  buildingId: z.uuid().optional(),
  /** Only alerts of units on this floor (of `buildingId`, or of any building). */
  floor: z.string().trim().min(1).max(40).optional(),
  sort: AlertSortSchema.default('openedAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
}).strict();
export type AlertListQuery = z.infer<typeof AlertListQuerySchema>;

/** The navigation's badge and the rows' indicators: open alerts that still want attention. */
export const AlertSummarySchema = z.object({
  /** Open, unacknowledged and not muted. */
  attention: z.number().int(),
  open: z.number().int(),
  /** Open alerts (acknowledged or not) per unit id and per device id. */
  units: z.record(z.string(), z.number().int()),
  devices: z.record(z.string(), z.number().int()),
});
export type AlertSummary = z.infer<typeof AlertSummarySchema>;

export const AcknowledgeSchema = z.object({ note: z.string().trim().max(500).optional() });
/** Mute for a number of hours (1 hour to 30 days); 0 unmutes. */
export const MuteSchema = z.object({ hours: z.number().int().min(0).max(720) });

/** How a member hears of alerts of one kind: at once, in a daily digest, or not by mail. */
export const MailModeSchema = z.enum(['immediate', 'digest', 'off']);
export type MailMode = z.infer<typeof MailModeSchema>;
const modePerKind = Object.fromEntries(ALERT_KINDS.map((kind) => [kind, MailModeSchema])) as Record<
  AlertKind,
  typeof MailModeSchema
>;
export const AlertPreferencesSchema = z.object(modePerKind);
export type AlertPreferences = z.infer<typeof AlertPreferencesSchema>;
export const AlertPreferencesPatchSchema = AlertPreferencesSchema.partial();

/** A company's webhook endpoint; the secret is shown once, when the endpoint is created. */
export const WebhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  enabled: z.boolean(),
  createdAt: z.iso.datetime(),
  /** Delivery counts of the last 7 days. */
  delivered: z.number().int(),
  failing: z.number().int(),
});
export type Webhook = z.infer<typeof WebhookSchema>;
export const WebhookCreateSchema = z.object({
  url: z
    .string()
    .trim()
    .max(500)
    .pipe(z.url({ protocol: /^https?$/, error: 'A webhook needs an https:// URL.' })),
});
export const WebhookCreatedSchema = WebhookSchema.extend({
  /** HMAC-SHA256 key for the `Heizplan-Signature` header; only in this answer. */
  secret: z.string(),
});
export const WebhookPatchSchema = z.object({ enabled: z.boolean() }).partial();

export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  event: z.string(),
  alertId: z.uuid(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.object({ results: z.array(WebhookDeliverySchema) });
