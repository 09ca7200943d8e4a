/**
 * One-time heating events (spec §2 "Events screen", §3 "Event", §5) under
 * `/api/companies/{companyId}/events`. Temperatures are °C, instants ISO-8601 UTC.
 * The spec's rules of an event as a whole (end before start, end in the past, end required
 * with `preventRegular`, no units, company range) live here once, in `eventRuleIssues`: the
 * web's event dialog checks them through `eventDraftSchema` before sending, and the server's
 * service applies them to the merged event (an update is checked with the stored fields), with
 * the company's range from the database, reporting every broken rule in one 400.
 */
import { z } from 'zod';
import { ActorSchema, CompanyParamsSchema, temperatureRangeIssue } from './heating.ts';
import { PageQuerySchema, pageOf } from './problem.ts';
import type { ProblemCode, ProblemParams } from './problem-codes.ts';

export const EventParamsSchema = CompanyParamsSchema.extend({ eventId: z.uuid() });

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** `upcoming` before start, `running` from start until end (open-ended: while not ended), `past` after end (read-only). */
export const EventStatusSchema = z.enum(['upcoming', 'running', 'past']);
export type EventStatus = z.infer<typeof EventStatusSchema>;

const Ref = z.object({ id: z.uuid(), name: z.string() });

export const HeatingEventSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  note: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime().nullable(),
  /** °C */
  temperature: z.number(),
  preventRegular: z.boolean(),
  groupMode: z.boolean(),
  /** Units chosen directly (empty in group mode). */
  units: z.array(Ref),
  /** Groups chosen in group mode (empty otherwise); the event covers their current units. */
  groups: z.array(Ref),
  status: EventStatusSchema,
  createdAt: z.iso.datetime(),
  createdBy: ActorSchema.nullable(),
});
export type HeatingEvent = z.infer<typeof HeatingEventSchema>;
export const HeatingEventPageSchema = pageOf(HeatingEventSchema);
export type HeatingEventPage = z.infer<typeof HeatingEventPageSchema>;

export const EventInputSchema = z.object({
  title: z.string().trim().max(120).default(''),
  note: z.string().trim().max(2000).default(''),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }).nullable().default(null),
  /** °C, within the company range. */
  temperature: z.number(),
  preventRegular: z.boolean().default(false),
  groupMode: z.boolean().default(false),
  /** Unit ids (used when `groupMode` is false). */
  units: z.array(z.uuid()).max(1000).default([]),
  /** Group ids (used when `groupMode` is true). */
  groups: z.array(z.uuid()).max(200).default([]),
});
export type EventInput = z.input<typeof EventInputSchema>;

export const END_BEFORE_START = 'The end date must not be before the start date.';
export const END_IN_PAST = 'The end date must not be in the past.';
export const END_REQUIRED = 'An end time is required when regular events are prevented.';
export const NO_UNITS = 'No units selected';

/** The fields the rules read; instants as ISO strings or Dates, unknown ones left out. */
export interface EventRuleSubject {
  start?: string | Date | null;
  end?: string | Date | null;
  temperature?: number;
  preventRegular?: boolean;
  groupMode?: boolean;
  units?: readonly string[];
  groups?: readonly string[];
}

/** What the rules need beyond the event: the clock, whether the end changed, the company range (°C). */
export interface EventRuleContext {
  /** Without it an end in the past is not checked. */
  now?: Date;
  /** An unchanged end may lie in the past (a running event keeps its end). Default true. */
  endChanged?: boolean;
  range?: { min: number; max: number };
}

/** One broken rule: the field it concerns, the spec's English message and the problem code. */
export interface EventRuleIssue {
  field: 'end' | 'units' | 'groups' | 'temperature';
  message: string;
  code: ProblemCode;
  /** Values the code's text names (the range's limits). */
  params?: ProblemParams;
}

const instant = (value: string | Date | null | undefined): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
};

/**
 * Every rule of spec §5 the event breaks, in the order the server reports them: end before
 * start (or else a changed end in the past), a missing end while regular events are prevented,
 * no units (groups in group mode), a temperature outside the company range.
 */
export function eventRuleIssues(event: EventRuleSubject, context: EventRuleContext = {}): EventRuleIssue[] {
  const issues: EventRuleIssue[] = [];
  const start = instant(event.start);
  const end = instant(event.end);
  const { now, endChanged = true, range } = context;
  if (start !== null && end !== null && end < start)
    issues.push({ field: 'end', message: END_BEFORE_START, code: 'event_end_before_start' });
  else if (end !== null && now && endChanged && end < now.getTime())
    issues.push({ field: 'end', message: END_IN_PAST, code: 'event_end_in_past' });
  if (event.preventRegular && end === null)
    issues.push({ field: 'end', message: END_REQUIRED, code: 'event_end_required' });
  const targets = event.groupMode ? event.groups : event.units;
  if (targets?.length === 0)
    issues.push({ field: event.groupMode ? 'groups' : 'units', message: NO_UNITS, code: 'event_no_units' });
  const t = event.temperature;
  const outside =
    range && typeof t === 'number' && Number.isFinite(t) ? temperatureRangeIssue(t, range) : null;
  if (outside) issues.push({ field: 'temperature', ...outside });
  return issues;
}

/** Adds the broken rules to a zod check as issues carrying their problem code (`params.code`). */
function addRuleIssues(issues: EventRuleIssue[], ctx: z.RefinementCtx) {
  for (const issue of issues) {
    ctx.addIssue({
      code: 'custom',
      path: [issue.field],
      message: issue.message,
      params: { code: issue.code, ...(issue.params ? { params: issue.params } : {}) },
    });
  }
}

/** The rules also run when a field's own type is wrong (an empty temperature), so all show at once. */
const always = { when: ({ value }: { value: unknown }) => typeof value === 'object' && value !== null };

/**
 * A new event checked as a whole: `EventInputSchema` with the spec's rules. `context` may
 * depend on the event (whether its end changed) and is read at each parse (the clock).
 */
export const eventDraftSchema = (
  context: EventRuleContext | ((event: z.output<typeof EventInputSchema>) => EventRuleContext) = {},
) =>
  EventInputSchema.superRefine(
    (event, ctx) =>
      addRuleIssues(eventRuleIssues(event, typeof context === 'function' ? context(event) : context), ctx),
    always,
  );

/** Partial update; the merged event is validated like a new one (`eventRuleIssues` on the server). */
export const EventUpdateSchema = z.object({
  title: z.string().trim().max(120).optional(),
  note: z.string().trim().max(2000).optional(),
  start: z.iso.datetime({ offset: true }).optional(),
  end: z.iso.datetime({ offset: true }).nullable().optional(),
  temperature: z.number().optional(),
  preventRegular: z.boolean().optional(),
  groupMode: z.boolean().optional(),
  units: z.array(z.uuid()).max(1000).optional(),
  groups: z.array(z.uuid()).max(200).optional(),
});
export type EventUpdate = z.infer<typeof EventUpdateSchema>;

export const EventListQuerySchema = PageQuerySchema.extend({
  /** Only events covering this unit (directly or through its current group). */
  unitId: z.uuid().optional(),
  /** Include events that have ended; default false. */
  includePast: bool.default(false),
  /** Leave out events without an end; default false. */
  hideOpenEnded: bool.default(false),
  /** Calendar range: events overlapping [from, to). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
/** The list query as a client builds it; booleans go over the wire as 'true'/'false'. */
export interface EventListQuery {
  unitId?: string;
  includePast?: boolean;
  hideOpenEnded?: boolean;
  from?: string;
  to?: string;
  page?: number;
  size?: number;
}
