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
import { formatMonthDay } from '../../lib/format.ts';

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
  // Shown as a clock shows it: "06" and "00", not "6" and "0".
  return {
    day,
    hour: String(hour).padStart(2, '0'),
    minute: String(minute).padStart(2, '0'),
    temperature: String(temperature),
    ignoreWallControl,
  } satisfies SwitchPointRow;
}

/**
 * A new plan to start from: seasonal = heating season 1 Oct – 30 Apr with 21 °C from 06:00 and
 * 17 °C from 22:00 every day; specific days = the same day curve, no dates yet. Season bounds
 * are written as a reader of `locale` writes them (`formatMonthDay`).
 */
export function templateDraft(kind: PlanKind, name: string, locale: string): PlanDraft {
  const days = kind === 'seasonal' ? WEEKDAYS : [1];
  return {
    name,
    kind,
    active: true,
    validFrom: kind === 'seasonal' ? formatMonthDay('10-01', locale) : '',
    validTo: kind === 'seasonal' ? formatMonthDay('04-30', locale) : '',
    dates: [],
    switchPoints: days.flatMap((day) => [newRow(day, 6, 0, 21), newRow(day, 22, 0, 17)]),
  };
}

/** The editor's values of a stored plan, season bounds as a reader of `locale` writes them. */
export function draftOf(plan: Plan, locale: string): PlanDraft {
  return {
    name: plan.name,
    kind: plan.kind,
    active: plan.active,
    validFrom: plan.validFrom ? formatMonthDay(plan.validFrom, locale) : '',
    validTo: plan.validTo ? formatMonthDay(plan.validTo, locale) : '',
    dates: plan.dates ?? [],
    switchPoints: [...plan.switchPoints]
      .sort((a, b) => a.day - b.day || a.hour - b.hour || a.minute - b.minute)
      .map((p) => newRow(p.day, p.hour, p.minute, p.temperature, p.ignoreWallControl)),
  };
}

/** Typed text as a number; an empty field becomes NaN, sent as null so the server names the field. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.replace(',', '.')));

const twoDigits = (text: string) => text.padStart(2, '0');

/**
 * A typed season bound as the API's "MM-DD": day first with dots ("1.10.", "01.10"), as Germans
 * write it; month first with a slash ("10/1"), as English does; or the API's own "10-01". Anything
 * else is sent as typed, so the server names the field.
 */
export function monthDayOf(text: string): string {
  const typed = text.trim();
  const dayFirst = /^(\d{1,2})\.(\d{1,2})\.?$/.exec(typed);
  if (dayFirst) return `${twoDigits(dayFirst[2] ?? '')}-${twoDigits(dayFirst[1] ?? '')}`;
  const monthFirst = /^(\d{1,2})[/-](\d{1,2})$/.exec(typed);
  if (monthFirst) return `${twoDigits(monthFirst[1] ?? '')}-${twoDigits(monthFirst[2] ?? '')}`;
  return typed;
}

export function inputOf(draft: PlanDraft): PlanInput {
  const seasonal = draft.kind === 'seasonal';
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    active: draft.active,
    validFrom: seasonal ? monthDayOf(draft.validFrom) : null,
    validTo: seasonal ? monthDayOf(draft.validTo) : null,
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
