/**
 * Closures (Schließzeiten) under `/api/companies/{companyId}/closures`: a named period in which
 * rooms are not used — a works holiday, the Christmas break of a school, every weekend — with the
 * heating mode they keep meanwhile. A closure covers the whole company, chosen buildings (whole,
 * or one floor: their current units), chosen groups (their current units) or chosen units;
 * `exceptions` are units that stay on their normal heating (a server room, the caretaker's flat).
 * It may recur (`recurrence`, an RRULE: see recurrence.ts); `start`/`end` are then its first
 * occurrence, and every occurrence keeps their wall-clock times in the company's time zone.
 * While a closure runs it outranks plans, events and manual changes; only a pause outranks it
 * (docs/decisions/0051-closures-and-heating-modes.md). Instants are ISO-8601 UTC; temperatures °C.
 *
 * The heating modes are the tiers facility managers know from KNX and Siemens controllers:
 * frost protection (the company's frost protection setpoint), economy (the company's economy
 * setpoint, default 16 °C) and standby (default 18 °C); the company's range still bounds them.
 */
import { z } from 'zod';
import { ActorSchema, CompanyParamsSchema } from './heating.ts';
import { PageQuerySchema, pageOf } from './problem.ts';
import type { ProblemCode } from './problem-codes.ts';
import { recurrenceProblem } from './recurrence.ts';

export const HEATING_MODES = ['frost', 'economy', 'standby'] as const;
export const HeatingModeSchema = z.enum(HEATING_MODES);
export type HeatingMode = z.infer<typeof HeatingModeSchema>;

/** Defaults of the company's economy and standby setpoints (°C). */
export const DEFAULT_ECONOMY_TEMPERATURE = 16;
export const DEFAULT_STANDBY_TEMPERATURE = 18;

/**
 * `company`: every unit of the company; `buildings`: the current units of the chosen buildings
 * (or of one floor of a building); `groups`: the current units of the chosen groups; `units`:
 * the chosen units.
 */
export const ClosureScopeSchema = z.enum(['company', 'buildings', 'groups', 'units']);
export type ClosureScope = z.infer<typeof ClosureScopeSchema>;

export const ClosureParamsSchema = CompanyParamsSchema.extend({ closureId: z.uuid() });

/**
 * `upcoming` before an occurrence (also between the occurrences of a recurring closure),
 * `running` during one, `past` after the last one ended.
 */
export const ClosureStatusSchema = z.enum(['upcoming', 'running', 'past']);
export type ClosureStatus = z.infer<typeof ClosureStatusSchema>;

const Ref = z.object({ id: z.uuid(), name: z.string() });

/** A chosen building: the whole building (`floor` null) or only the units on one of its floors. */
export const ClosureBuildingSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  floor: z.string().nullable(),
});
export type ClosureBuilding = z.infer<typeof ClosureBuildingSchema>;

/** One occurrence of a closure. */
export const ClosureOccurrenceSchema = z.object({ start: z.iso.datetime(), end: z.iso.datetime() });
export type ClosureOccurrence = z.infer<typeof ClosureOccurrenceSchema>;

/** A building (and floor) as a request names it. */
export const ClosureBuildingTargetSchema = z.object({
  buildingId: z.uuid(),
  /** One of the building's floors; null (or left out) = the whole building. */
  floor: z.string().trim().min(1).max(40).nullable().default(null),
});
export type ClosureBuildingTarget = z.input<typeof ClosureBuildingTargetSchema>;

/**
 * An RRULE value without `RRULE:` (recurrence.ts), or null for a closure that does not recur;
 * the rule's own limits (at most 500 characters among them) are checked with the other rules.
 */
const RecurrenceSchema = z.string().max(4000).nullable();

export const ClosureSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  note: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  /** RRULE value (without `RRULE:`) of a recurring closure, else null; `start`/`end` are its first occurrence. */
  recurrence: z.string().nullable(),
  /** The occurrence running now or the next one; null when the last one has ended. */
  nextOccurrence: ClosureOccurrenceSchema.nullable(),
  mode: HeatingModeSchema,
  scope: ClosureScopeSchema,
  /** The chosen buildings, whole or one floor (scope `buildings`), else empty. */
  buildings: z.array(ClosureBuildingSchema),
  /** The chosen groups (scope `groups`), else empty. */
  groups: z.array(Ref),
  /** The chosen units (scope `units`), else empty. */
  units: z.array(Ref),
  /** Units that keep their normal heating although the closure covers them. */
  exceptions: z.array(Ref),
  status: ClosureStatusSchema,
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type Closure = z.infer<typeof ClosureSchema>;
export const ClosurePageSchema = pageOf(ClosureSchema);
export type ClosurePage = z.infer<typeof ClosurePageSchema>;

/** Longest closure (of a recurring one: each occurrence): a year and a day (a school year's breaks are separate closures). */
export const CLOSURE_MAX_DAYS = 366;

export const ClosureInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  note: z.string().trim().max(2000).default(''),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  recurrence: RecurrenceSchema.default(null),
  mode: HeatingModeSchema.default('frost'),
  scope: ClosureScopeSchema.default('company'),
  buildings: z.array(ClosureBuildingTargetSchema).max(200).default([]),
  groups: z.array(z.uuid()).max(200).default([]),
  units: z.array(z.uuid()).max(1000).default([]),
  exceptions: z.array(z.uuid()).max(1000).default([]),
});
export type ClosureInput = z.input<typeof ClosureInputSchema>;

/** Partial update; the merged closure is checked like a new one (`closureRuleIssues`). */
export const ClosureUpdateSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  note: z.string().trim().max(2000).optional(),
  start: z.iso.datetime({ offset: true }).optional(),
  end: z.iso.datetime({ offset: true }).optional(),
  recurrence: RecurrenceSchema.optional(),
  mode: HeatingModeSchema.optional(),
  scope: ClosureScopeSchema.optional(),
  buildings: z.array(ClosureBuildingTargetSchema).max(200).optional(),
  groups: z.array(z.uuid()).max(200).optional(),
  units: z.array(z.uuid()).max(1000).optional(),
  exceptions: z.array(z.uuid()).max(1000).optional(),
});
export type ClosureUpdate = z.infer<typeof ClosureUpdateSchema>;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

export const ClosureListQuerySchema = PageQuerySchema.extend({
  /** Include closures that have ended; default false. */
  includePast: bool.default(false),
  /** Only closures covering this unit (not as an exception). */
  unitId: z.uuid().optional(),
  /**
   * Only closures reaching this building of the company: scope `company`, scope `buildings`
   * naming it (whole or a floor), scope `groups` with a unit in it, scope `units` with a unit in
   * it (exceptions are not subtracted). Another company's or an unknown building: 404
   * `unknown_building`.
   */
  buildingId: z.uuid().optional(),
  /** Calendar range: closures with an occurrence overlapping [from, to). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
/** The list query as a client builds it; booleans go over the wire as 'true'/'false'. */
export interface ClosureListQuery {
  includePast?: boolean;
  unitId?: string;
  buildingId?: string;
  from?: string;
  to?: string;
  page?: number;
  size?: number;
}

export const CLOSURE_END_NOT_AFTER_START = 'The end must be after the start.';
export const CLOSURE_TOO_LONG = `A closure lasts at most ${CLOSURE_MAX_DAYS} days.`;
export const CLOSURE_NO_TARGETS = 'Choose at least one building, group or unit for the closure.';

/** The fields the rules read; instants as ISO strings or Dates, unknown ones left out. */
export interface ClosureRuleSubject {
  start?: string | Date | null;
  end?: string | Date | null;
  scope?: ClosureScope;
  buildings?: readonly unknown[];
  groups?: readonly string[];
  units?: readonly string[];
  recurrence?: string | null;
}

/** One broken rule: the field it concerns, an English message and the problem code. */
export interface ClosureRuleIssue {
  field: 'end' | 'buildings' | 'groups' | 'units' | 'recurrence';
  message: string;
  code: ProblemCode;
  params?: { days: number };
}

const instant = (value: string | Date | null | undefined): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
};

/**
 * Every rule the closure breaks: an end not after its start, longer than CLOSURE_MAX_DAYS (one
 * occurrence), no building (scope `buildings`), group (scope `groups`) or unit (scope `units`)
 * chosen, a recurrence that is no valid RRULE for a closure (recurrence.ts). The web's dialog
 * and the server's service both apply them, the server to the merged closure of an update.
 */
export function closureRuleIssues(closure: ClosureRuleSubject): ClosureRuleIssue[] {
  const issues: ClosureRuleIssue[] = [];
  const start = instant(closure.start);
  const end = instant(closure.end);
  if (start !== null && end !== null && end <= start)
    issues.push({ field: 'end', message: CLOSURE_END_NOT_AFTER_START, code: 'closure_end_not_after_start' });
  else if (start !== null && end !== null && end - start > CLOSURE_MAX_DAYS * 86_400_000)
    issues.push({
      field: 'end',
      message: CLOSURE_TOO_LONG,
      code: 'closure_too_long',
      params: { days: CLOSURE_MAX_DAYS },
    });
  if (closure.scope === 'buildings' && closure.buildings?.length === 0)
    issues.push({ field: 'buildings', message: CLOSURE_NO_TARGETS, code: 'closure_no_targets' });
  if (closure.scope === 'groups' && closure.groups?.length === 0)
    issues.push({ field: 'groups', message: CLOSURE_NO_TARGETS, code: 'closure_no_targets' });
  if (closure.scope === 'units' && closure.units?.length === 0)
    issues.push({ field: 'units', message: CLOSURE_NO_TARGETS, code: 'closure_no_targets' });
  // null (or left out): the closure does not recur; a blank rule is no rule.
  const recurrence = typeof closure.recurrence === 'string' ? recurrenceProblem(closure.recurrence) : null;
  if (recurrence) issues.push({ field: 'recurrence', message: recurrence, code: 'invalid_recurrence' });
  return issues;
}

/** A closure checked as a whole: `ClosureInputSchema` with `closureRuleIssues` as coded zod issues. */
export const closureDraftSchema = ClosureInputSchema.superRefine(
  (closure, ctx) => {
    for (const issue of closureRuleIssues(closure)) {
      ctx.addIssue({
        code: 'custom',
        path: [issue.field],
        message: issue.message,
        params: { code: issue.code, ...(issue.params ? { params: issue.params } : {}) },
      });
    }
  },
  { when: ({ value }) => typeof value === 'object' && value !== null },
);
