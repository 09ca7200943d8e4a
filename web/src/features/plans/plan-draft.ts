/**
 * The plan editor's form values, their schema and their mapping to the API's `PlanInput`
 * (packages/contracts heating.ts). Number fields are kept as typed text so an empty or
 * impossible entry reaches the server, whose engine answers with the spec §5 message for
 * exactly that field; the form itself checks the name: the contract's length, and not empty —
 * an empty name would be listed as the plan's kind ("Saisonplan"), which nobody chose.
 */
import { type Plan, type PlanInput, PlanInputSchema } from '@heizplan/contracts/heating';
import { z } from 'zod';
import type { FieldError } from '../../lib/api-client.ts';

export type PlanKind = PlanInput['kind'];

/** One switch point as typed; rows keep their order, so the n-th is `switchPoints.n` on the server. */
export interface SwitchPointRow {
  day: number;
  hour: string;
  minute: string;
  temperature: string;
  ignoreWallControl: boolean;
}

export interface PlanDraft {
  name: string;
  kind: PlanKind;
  active: boolean;
  validFrom: string;
  validTo: string;
  dates: string[];
  switchPoints: SwitchPointRow[];
}

/** The editor's values as the form checks them: the contract's name, everything else as typed. */
export const PlanDraftSchema = z.object({
  name: PlanInputSchema.shape.name.unwrap().min(1),
  kind: PlanInputSchema.shape.kind,
  active: z.boolean(),
  validFrom: z.string(),
  validTo: z.string(),
  dates: z.array(z.string()),
  switchPoints: z.array(
    z.object({
      day: z.number(),
      hour: z.string(),
      minute: z.string(),
      temperature: z.string(),
      ignoreWallControl: z.boolean(),
    }),
  ),
});

/** ISO weekdays 1 = Monday … 7 = Sunday, as the API numbers them. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Monday to Friday. */
export const WORKDAYS = [1, 2, 3, 4, 5] as const;

/**
 * The rows with every day of `to` (except `from` itself) replaced by copies of `from`'s rows,
 * ordered by day; the other days keep theirs.
 */
export function copyDayTo(
  rows: readonly SwitchPointRow[],
  from: number,
  to: readonly number[],
): SwitchPointRow[] {
  const source = rows.filter((row) => row.day === from);
  return WEEKDAYS.flatMap((day) =>
    day !== from && to.includes(day)
      ? source.map((row) => ({ ...row, day }))
      : rows.filter((row) => row.day === day),
  );
}

export function newRow(
  day: number,
  hour: number,
  minute: number,
  temperature: number,
  ignoreWallControl = false,
) {
  return {
    day,
    hour: String(hour),
    minute: String(minute),
    temperature: String(temperature),
    ignoreWallControl,
  } satisfies SwitchPointRow;
}

/**
 * A new plan to start from: seasonal = heating season 1 Oct – 30 Apr with 21 °C from 06:00 and
 * 17 °C from 22:00 every day; specific days = the same day curve, no dates yet.
 */
export function templateDraft(kind: PlanKind, name: string): PlanDraft {
  const days = kind === 'seasonal' ? WEEKDAYS : [1];
  return {
    name,
    kind,
    active: true,
    validFrom: kind === 'seasonal' ? '10-01' : '',
    validTo: kind === 'seasonal' ? '04-30' : '',
    dates: [],
    switchPoints: days.flatMap((day) => [newRow(day, 6, 0, 21), newRow(day, 22, 0, 17)]),
  };
}

export function draftOf(plan: Plan): PlanDraft {
  return {
    name: plan.name,
    kind: plan.kind,
    active: plan.active,
    validFrom: plan.validFrom ?? '',
    validTo: plan.validTo ?? '',
    dates: plan.dates ?? [],
    switchPoints: [...plan.switchPoints]
      .sort((a, b) => a.day - b.day || a.hour - b.hour || a.minute - b.minute)
      .map((p) => newRow(p.day, p.hour, p.minute, p.temperature, p.ignoreWallControl)),
  };
}

/** Typed text as a number; an empty field becomes NaN, sent as null so the server names the field. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.replace(',', '.')));

export function inputOf(draft: PlanDraft): PlanInput {
  const seasonal = draft.kind === 'seasonal';
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    active: draft.active,
    validFrom: seasonal ? draft.validFrom.trim() : null,
    validTo: seasonal ? draft.validTo.trim() : null,
    dates: seasonal ? null : draft.dates,
    switchPoints: draft.switchPoints.map((row) => ({
      day: seasonal ? row.day : 1,
      hour: numberOf(row.hour),
      minute: numberOf(row.minute),
      temperature: numberOf(row.temperature),
      ignoreWallControl: row.ignoreWallControl,
    })),
  };
}

/**
 * The server's problems for `field` and anything below it (`switchPoints.2` also finds
 * `switchPoints.2.hour`), one per code. Request-validation errors come as `body.switchPoints.2.hour`.
 */
export function problemsFor(errors: readonly FieldError[], field: string): FieldError[] {
  const found = errors.filter((error) => {
    const name = error.field.replace(/^body\./, '');
    return name === field || name.startsWith(`${field}.`);
  });
  return found.filter((error, i) => found.findIndex((other) => other.code === error.code) === i);
}

/** True when the server named exactly `field` (for `aria-invalid` on one input). */
export const hasError = (errors: readonly FieldError[], field: string) =>
  errors.some((error) => error.field.replace(/^body\./, '') === field);
