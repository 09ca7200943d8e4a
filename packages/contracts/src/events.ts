/**
 * One-time heating events (issue 8, spec §2 "Events screen", §3 "Event", §5) under
 * `/api/companies/{companyId}/events`. Temperatures are °C, instants ISO-8601 UTC.
 * Rules with the spec's messages (end before start, no units, end required with
 * `preventRegular`, company range) are checked by the server so every message names its field;
 * these schemas only check shapes.
 */
import { z } from 'zod';
import { ActorSchema, CompanyParamsSchema } from './heating.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

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

/** Partial update; the merged event is validated like a new one. */
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
