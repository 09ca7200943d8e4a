/**
 * Units, groups, heating plans, setpoint preview and heating log under
 * `/api/companies/{companyId}/…`. Temperatures are °C, valve opening %, instants ISO-8601 UTC.
 * Plan semantics (time, schedule, range) are checked by the server's heating engine so the
 * messages match spec §5; these schemas only check shapes.
 */
import { z } from 'zod';
import { ExportLangSchema, ListExportFormatSchema } from './exports.ts';
import { BULK_EDIT_UNIT_MAX, BULK_UNIT_MAX } from './limits.ts';
import { OccupantCeilingSchema, OccupantLeewaySchema } from './occupant-limits.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

/**
 * The heating log's kinds, which are also the sources of a resolved setpoint (the engine's
 * `SetpointResolution.source`, `units.setpoint_source`, the outbox's `reason`). Defined here only:
 * the engine's types, the database schema's enums and the web app's labels take them from here.
 */
export const LOG_KINDS = [
  'regular_plan',
  'group_plan',
  'one_time_start',
  'one_time_end',
  'paused',
  'resumed',
  'qr_change',
  'web_change',
  /** Frost protection because no plan covers the date (decision 0041). */
  'no_plan',
  /** A closure's heating mode (decision 0051). */
  'closure',
  /** A room booking from a booking feed (decision 0053). */
  'booking',
  /** A plan's comfort setpoint sent early by optimum start (decision 0056). */
  'optimum_start',
  /** A plan's lower setpoint sent early by optimum stop (decision 0056). */
  'optimum_stop',
] as const;

export const LogKindSchema = z.enum(LOG_KINDS);
export type LogKind = z.infer<typeof LogKindSchema>;

const celsius = z.number();
const name = z.string().trim().min(1).max(120);

/** Spec §5: a temperature above the company's max °C (units, plans, events). */
export const OUT_OF_RANGE = 'Value exceeds temperature range set by your company.';
/** Spec §5's message speaks of exceeding; a temperature below the company's min °C gets its own. */
export const BELOW_RANGE = 'Value is below the temperature range set by your company.';

/**
 * The problem of a temperature (°C) outside the company's `range`, with the range as params so
 * the message can name the limit; null inside. A value that is no number counts as outside.
 */
export function temperatureRangeIssue(value: number, range: { min: number; max: number }) {
  const params = { min: range.min, max: range.max };
  if (Number.isFinite(value) && value < range.min)
    return { code: 'below_range', message: BELOW_RANGE, params } as const;
  if (!Number.isFinite(value) || value > range.max)
    return { code: 'out_of_range', message: OUT_OF_RANGE, params } as const;
  return null;
}

export const CompanyParamsSchema = z.object({ companyId: z.string() });
export const UnitParamsSchema = CompanyParamsSchema.extend({ unitId: z.uuid() });
export const GroupParamsSchema = CompanyParamsSchema.extend({ groupId: z.uuid() });
export const PlanParamsSchema = CompanyParamsSchema.extend({ planId: z.uuid() });

export const ActorSchema = z.object({ id: z.string(), name: z.string() });

// ---- units ----

export const ManualChangeSchema = z.object({
  kind: z.enum(['web_change', 'qr_change']),
  setpoint: celsius,
  at: z.iso.datetime(),
  until: z.iso.datetime().nullable(),
});

/**
 * A setpoint a unit's valves get instead of the unit's own: the device model accepts only steps
 * of `step` °C (`reason: 'step'`) or only `min`…`max` °C (`reason: 'range'`), so the downlink
 * carries the nearest value it takes. `devices` counts the valves that get it.
 */
export const DeliveredSetpointSchema = z.object({
  setpoint: celsius,
  reason: z.enum(['step', 'range']),
  step: z.number().optional(),
  min: celsius.optional(),
  max: celsius.optional(),
  devices: z.number().int(),
});
export type DeliveredSetpoint = z.infer<typeof DeliveredSetpointSchema>;

export const UnitSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  groupId: z.uuid().nullable(),
  groupName: z.string().nullable(),
  /** The building the unit is in (decision 0052), or null. */
  buildingId: z.uuid().nullable(),
  buildingName: z.string().nullable(),
  /** One of the building's floors, or null. */
  floor: z.string().nullable(),
  /** Setpoint the scheduler last applied (°C); null before the first evaluation. */
  setpoint: celsius.nullable(),
  setpointSource: LogKindSchema.nullable(),
  setpointSince: z.iso.datetime().nullable(),
  ignoreWallControl: z.boolean(),
  nextChangeAt: z.iso.datetime().nullable(),
  wallControlMin: celsius.nullable(),
  wallControlMax: celsius.nullable(),
  paused: z.boolean(),
  pausedAt: z.iso.datetime().nullable(),
  manualChange: ManualChangeSchema.nullable(),
  roomTemperature: celsius.nullable(),
  valveOpening: z.number().nullable(),
  supplyTemperature: celsius.nullable(),
  /** True while the unit has an active plan of its own (group plans then unavailable). */
  hasOwnActivePlan: z.boolean(),
  /** Whether the company's optimum start and stop applies to this unit (decision 0056). */
  optimumStart: z.boolean(),
  /**
   * Devices whose latest setpoint downlink is not yet acknowledged (`pending`: queued or sent —
   * battery valves take it after their next uplink) or failed; `delivered`: the setpoints the
   * latest downlinks (not failed) carry where the device model adjusted the unit's setpoint.
   */
  downlinks: z.object({
    pending: z.number().int(),
    failed: z.number().int(),
    delivered: z.array(DeliveredSetpointSchema),
  }),
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type Unit = z.infer<typeof UnitSchema>;

export const UnitSortSchema = z.enum([
  'name',
  'group',
  'building',
  'setpoint',
  'roomTemperature',
  'createdAt',
]);
export const UnitListQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().max(120).optional(),
  sort: UnitSortSchema.default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  groupId: z.uuid().optional(),
  /** Only the units of this building (decision 0052). */
  buildingId: z.uuid().optional(),
});
export type UnitListQuery = z.infer<typeof UnitListQuerySchema>;

/**
 * `GET …/units/export`: the units the list's filters match, as CSV — `excel` for German Excel
 * (semicolon, BOM, decimal comma, local times), `csv` for machines; headers in `lang`.
 */
export const UnitExportQuerySchema = UnitListQuerySchema.omit({ page: true, size: true }).extend({
  format: ListExportFormatSchema,
  lang: ExportLangSchema,
});
export type UnitExportQuery = z.input<typeof UnitExportQuerySchema>;
export const UnitPageSchema = pageOf(UnitSchema);
export type UnitPage = z.infer<typeof UnitPageSchema>;

export const WALL_CONTROL_ORDER = 'The minimum must not be above the maximum.';

/**
 * Spec §5: a wall control minimum above its maximum, reported on both fields so both show it.
 * Empty limits (null) mean none and break nothing.
 */
export function wallControlOrderIssues(min: number | null | undefined, max: number | null | undefined) {
  if (typeof min !== 'number' || typeof max !== 'number' || min <= max) return [];
  return (['wallControlMin', 'wallControlMax'] as const).map((field) => ({
    field,
    message: WALL_CONTROL_ORDER,
    code: 'wall_control_order' as const,
  }));
}

/** Both limits sent: min not above max (one limit alone is checked against the stored one by the server). */
const refineWallControl = (
  unit: { wallControlMin?: number | null; wallControlMax?: number | null },
  ctx: z.RefinementCtx,
) => {
  for (const issue of wallControlOrderIssues(unit.wallControlMin, unit.wallControlMax)) {
    ctx.addIssue({
      code: 'custom',
      path: [issue.field],
      message: issue.message,
      params: { code: issue.code },
    });
  }
};

/** A floor of the unit's building; the server checks it is one the building lists. */
const floor = z.string().trim().min(1).max(40).nullable().optional();

const unitFields = z.object({
  name,
  groupId: z.uuid().nullable().optional(),
  buildingId: z.uuid().nullable().optional(),
  floor,
  wallControlMin: celsius.nullable().optional(),
  wallControlMax: celsius.nullable().optional(),
  optimumStart: z.boolean().optional(),
});
export const UnitCreateSchema = unitFields.superRefine(refineWallControl);
export type UnitCreate = z.infer<typeof UnitCreateSchema>;
export const UnitUpdateSchema = unitFields.partial().superRefine(refineWallControl);
export type UnitUpdate = z.infer<typeof UnitUpdateSchema>;

/** `{pattern: "Raum {n}", count: 20, start: 1}` → "Raum 1" … "Raum 20". */
export const UnitBulkCreateSchema = z.object({
  pattern: name,
  count: z.number().int().min(1).max(BULK_UNIT_MAX),
  start: z.number().int().min(0).max(1_000_000).default(1),
  groupId: z.uuid().nullable().optional(),
  buildingId: z.uuid().nullable().optional(),
  floor,
});
export type UnitBulkCreate = z.infer<typeof UnitBulkCreateSchema>;
export const UnitListSchema = z.object({ results: z.array(UnitSchema) });

export const SetpointChangeRequestSchema = z.object({ setpoint: celsius });

// ---- bulk changes from the rooms list ----

/**
 * The units a bulk change names: 1 … BULK_EDIT_UNIT_MAX uuids (a repeated id counts once). Both
 * limits are contract rules with a problem code (`bulk_units_none`, `bulk_units_too_many` with
 * params max), so the web words them like the server's other answers.
 */
export const BulkUnitIdsSchema = z.array(z.uuid()).superRefine((ids, ctx) => {
  if (ids.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Name at least one unit.', params: { code: 'bulk_units_none' } });
  } else if (ids.length > BULK_EDIT_UNIT_MAX) {
    ctx.addIssue({
      code: 'custom',
      message: `At most ${BULK_EDIT_UNIT_MAX} units at once.`,
      params: { code: 'bulk_units_too_many', max: BULK_EDIT_UNIT_MAX },
    });
  }
});

/**
 * What a bulk change sets on every named unit; an absent field stays as each unit has it.
 * - `wallControlMin`/`wallControlMax` (°C, null = none: the company's safe occupant default
 *   applies, decision 0066): always both together, so every unit ends with the same pair, which
 *   the server checks against the company range like a single unit's (spec §5).
 * - `groupId`: the group the units move into, null = out of any group.
 */
export const UnitBulkChangesSchema = z
  .strictObject({
    wallControlMin: celsius.nullable().optional(),
    wallControlMax: celsius.nullable().optional(),
    groupId: z.uuid().nullable().optional(),
  })
  .superRefine((changes, ctx) => {
    if (Object.values(changes).every((value) => value === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Name at least one change.',
        params: { code: 'bulk_no_changes' },
      });
    }
    if ((changes.wallControlMin === undefined) !== (changes.wallControlMax === undefined)) {
      const field = changes.wallControlMin === undefined ? 'wallControlMin' : 'wallControlMax';
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: 'A bulk change sets both wall control limits together.',
        params: { code: 'bulk_wall_control_pair' },
      });
    }
    refineWallControl(changes, ctx);
  });
export type UnitBulkChanges = z.infer<typeof UnitBulkChangesSchema>;

/** `POST …/units/bulk-update`: `changes` for every unit of `unitIds`, all or nothing. */
export const UnitBulkUpdateSchema = z.object({ unitIds: BulkUnitIdsSchema, changes: UnitBulkChangesSchema });
export type UnitBulkUpdate = z.infer<typeof UnitBulkUpdateSchema>;

/** `POST …/units/bulk-delete`: the units go with their plans, heating log and QR codes. */
export const UnitBulkDeleteSchema = z.object({ unitIds: BulkUnitIdsSchema });
export type UnitBulkDelete = z.infer<typeof UnitBulkDeleteSchema>;

/** Answer of a bulk change or deletion: how many distinct units it covered. */
export const UnitBulkResultSchema = z.object({ count: z.number().int() });
export type UnitBulkResult = z.infer<typeof UnitBulkResultSchema>;

// ---- groups ----

export const GroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  unitCount: z.number().int(),
  /** False while any unit of the group has its own active plan (spec §2 "Groups"). */
  groupPlansAvailable: z.boolean(),
  /** Units whose own active plan makes group plans unavailable. */
  blockingUnits: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** °C occupants may choose at most in its rooms; null = the building's or company's. */
  occupantMaxTemperature: z.number().nullable(),
  /** K occupants may move around the plan there; null = the building's or company's. */
  occupantBand: z.number().nullable(),
  createdAt: z.iso.datetime(),
});
export type Group = z.infer<typeof GroupSchema>;
export const GroupPageSchema = pageOf(GroupSchema);
export type GroupPage = z.infer<typeof GroupPageSchema>;
export const GroupListQuerySchema = PageQuerySchema.extend({ q: z.string().trim().max(120).optional() });
export const GroupCreateSchema = z.object({
  name,
  occupantMaxTemperature: OccupantCeilingSchema.optional(),
  occupantBand: OccupantLeewaySchema.optional(),
});
export const GroupUpdateSchema = GroupCreateSchema.partial();
export const GroupAssignSchema = z.object({ unitIds: z.array(z.uuid()).min(1).max(BULK_UNIT_MAX) });

// ---- plans ----

export const SwitchPointSchema = z.object({
  /** ISO weekday 1 = Monday … 7 = Sunday; use 1 for specific_days. */
  day: z.number().int(),
  hour: z.number().int(),
  minute: z.number().int(),
  temperature: celsius,
  ignoreWallControl: z.boolean().default(false),
});
export type SwitchPoint = z.infer<typeof SwitchPointSchema>;

/** The writable fields of a plan, without defaults (a patch must not reset what it omits). */
const planFields = {
  name: z.string().trim().max(120),
  kind: z.enum(['seasonal', 'specific_days']),
  active: z.boolean(),
  /** seasonal: 'MM-DD', inclusive; validTo before validFrom crosses New Year. */
  validFrom: z.string().nullable().optional(),
  validTo: z.string().nullable().optional(),
  /** specific_days: local dates 'YYYY-MM-DD'. */
  dates: z.array(z.string()).max(366).nullable().optional(),
  switchPoints: z.array(SwitchPointSchema).max(7 * 48),
};
export const PlanInputSchema = z.object({
  ...planFields,
  name: planFields.name.default(''),
  active: planFields.active.default(true),
});
export type PlanInput = z.infer<typeof PlanInputSchema>;
/**
 * Changes only the fields given (decision 0030). Not `PlanInputSchema.partial()`: zod applies
 * a field's default even when the field is optional, so `{}` would reset the name and activate.
 */
export const PlanUpdateSchema = z.object(planFields).partial();

export const PlanSchema = z.object({
  id: z.uuid(),
  unitId: z.uuid().nullable(),
  groupId: z.uuid().nullable(),
  name: z.string(),
  kind: z.enum(['seasonal', 'specific_days']),
  active: z.boolean(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  dates: z.array(z.string()).nullable(),
  switchPoints: z.array(SwitchPointSchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Plan = z.infer<typeof PlanSchema>;
export const PlanListSchema = z.object({ results: z.array(PlanSchema) });
export type PlanList = z.infer<typeof PlanListSchema>;

// ---- preview ----

/** How far from now a preview may start: next winter or the next DST change, not a century. */
export const PREVIEW_FROM_MAX_YEARS = 2;
/** An instant with its offset, e.g. `2027-03-22T00:00:00+01:00`; absent = now. */
const previewFrom = z.iso.datetime({ offset: true }).optional();
/**
 * `?days=7&from=…`. Strict: an unknown parameter (a misspelt `from`) is refused with 400
 * instead of silently previewing from now.
 */
export const PreviewQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(14).default(7),
  from: previewFrom,
});
/**
 * Draft for `POST …/units/{id}/preview`: `plan` replaces the plan with `planId` (or is added
 * when no id) on the unit (`scope: 'unit'`) or on its group (`scope: 'group'`).
 */
export const PreviewRequestSchema = z.object({
  days: z.number().int().min(1).max(14).default(7),
  from: previewFrom,
  scope: z.enum(['unit', 'group']).default('unit'),
  planId: z.uuid().optional(),
  plan: PlanInputSchema,
});
export const PreviewStepSchema = z.object({
  at: z.iso.datetime(),
  setpoint: celsius,
  source: LogKindSchema,
  ignoreWallControl: z.boolean(),
  planId: z.string().nullable(),
  eventId: z.string().nullable(),
  /** The running closure when `source` is `closure`, else null. */
  closureId: z.string().nullable(),
  /** The running booking when `source` is `booking`, else null. */
  bookingId: z.string().nullable(),
});
/** A closure a preview names: its name and heating mode, so a step can say "Betriebsurlaub — Frostschutz". */
export const PreviewClosureSchema = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(['frost', 'economy', 'standby']),
  /**
   * `holiday`: a public holiday of the unit's building treated as a closure (decision 0052);
   * `school_holiday`: a school holiday period of the building's state (named with the state);
   * `company_day`: a day the company entered for the building (a bridge day).
   */
  kind: z.enum(['closure', 'holiday', 'school_holiday', 'company_day']),
});
/** A booking a preview names, so a step can say "Buchung: Elternabend 19:00–21:00". */
export const PreviewBookingSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The booking's own times (heating starts its feed's pre-heat lead earlier). */
  start: z.iso.datetime(),
  end: z.iso.datetime(),
});
/**
 * A plan switch point moved earlier by optimum start or stop (decision 0056), with how it was
 * computed: "Vorheizen ab 06:12 — 16,8 → 21 °C, gelernt 1,9 K/h, Sicherheit 85 %".
 */
export const PreviewOptimumSchema = z.object({
  kind: z.enum(['optimum_start', 'optimum_stop']),
  /** The plan's switch point. */
  switchAt: z.iso.datetime(),
  /** When the new setpoint is sent. */
  start: z.iso.datetime(),
  /** °C the room is expected at when pre-heating starts; for a stop the comfort setpoint. */
  from: celsius,
  /** °C of the switch point. */
  to: celsius,
  /** °C outside at the switch point; null: the model runs on indoor data alone. */
  outdoor: celsius.nullable(),
  /** K/h: the warm-up rate used (start) or the learned cool-down rate (stop). */
  rate: z.number(),
  /** Minutes of the lead that wait for the valve's next uplink (LoRaWAN Class A). */
  classADelayMinutes: z.number(),
  /** 0…1; 0 while the default gradient (30 min/K) applies. */
  confidence: z.number(),
  learned: z.boolean(),
  /** false in shadow mode: shown, not sent. */
  applied: z.boolean(),
});
export type PreviewOptimum = z.infer<typeof PreviewOptimumSchema>;

/** `initial` is the setpoint in force at `from`; `changes` are the steps in (from, to]. */
export const PreviewSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  timeZone: z.string(),
  initial: PreviewStepSchema,
  changes: z.array(PreviewStepSchema),
  /** The closures the steps name by `closureId`. */
  closures: z.array(PreviewClosureSchema),
  /** The bookings the steps name by `bookingId`. */
  bookings: z.array(PreviewBookingSchema),
  /** Optimum start and stop of the window's switch points, in shadow mode too. */
  optimum: z.array(PreviewOptimumSchema),
});
export type Preview = z.infer<typeof PreviewSchema>;

// ---- heating log ----

export const LogQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const LogEntrySchema = z.object({
  id: z.string(),
  kind: LogKindSchema,
  oldSetpoint: celsius.nullable(),
  newSetpoint: celsius,
  at: z.iso.datetime(),
  /** The member who made the change (web shows "you" when it is the caller); null = anonymous/scheduler. */
  actor: ActorSchema.nullable(),
  /** Present when the change's downlinks carried another setpoint than `newSetpoint` (device step or range). */
  delivered: z.array(DeliveredSetpointSchema).optional(),
  /** The closure (or holiday) that decided a `closure` entry, named as the preview names it. */
  closure: PreviewClosureSchema.optional(),
  /** The booking that decided a `booking` entry. */
  booking: PreviewBookingSchema.optional(),
  /** The event that started (`one_time_start`) or ended (`one_time_end`) with the entry. */
  event: z.object({ id: z.string(), title: z.string() }).optional(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;
export const LogPageSchema = z.object({
  results: z.array(LogEntrySchema),
  nextCursor: z.string().nullable(),
});
export type LogPage = z.infer<typeof LogPageSchema>;
