/**
 * The closure dialog's form: its values, named as the API's fields so the contract's and the
 * server's messages land on them, and its schema: the typed times read as instants in the
 * company's IANA zone, then checked by the contracts' `closureDraftSchema` (end after start, at
 * most CLOSURE_MAX_DAYS, at least one group or unit for those scopes).
 */
import {
  type Closure,
  type ClosureScope,
  ClosureScopeSchema,
  closureDraftSchema,
  type HeatingMode,
  HeatingModeSchema,
} from '@heizplan/contracts/closures';
import { DateTime } from 'luxon';
import { z } from 'zod';

export interface ClosureForm {
  name: string;
  note: string;
  /** `yyyy-MM-ddTHH:mm` wall-clock time in the company's zone. */
  start: string;
  /** Same format. */
  end: string;
  mode: HeatingMode;
  scope: ClosureScope;
  groups: string[];
  units: string[];
  exceptions: string[];
}

const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** `datetime-local` value of a UTC instant in `zone`. */
export const toLocalInput = (iso: string, zone: string) =>
  DateTime.fromISO(iso).setZone(zone).toFormat(LOCAL);

/** UTC ISO instant of a `datetime-local` value read in `zone`; null when empty or invalid. */
export function fromLocalInput(value: string, zone: string): string | null {
  if (!value) return null;
  const dt = DateTime.fromISO(value, { zone });
  return dt.isValid ? dt.toUTC().toISO() : null;
}

/** A new closure: from tomorrow 00:00 for a week, frost protection, the whole company. */
export function emptyForm(zone: string, now: Date = new Date()): ClosureForm {
  const start = DateTime.fromJSDate(now).setZone(zone).startOf('day').plus({ days: 1 });
  return {
    name: '',
    note: '',
    start: start.toFormat(LOCAL),
    end: start.plus({ days: 7 }).toFormat(LOCAL),
    mode: 'frost',
    scope: 'company',
    groups: [],
    units: [],
    exceptions: [],
  };
}

export function formOf(closure: Closure, zone: string): ClosureForm {
  return {
    name: closure.name,
    note: closure.note,
    start: toLocalInput(closure.start, zone),
    end: toLocalInput(closure.end, zone),
    mode: closure.mode,
    scope: closure.scope,
    groups: closure.groups.map((g) => g.id),
    units: closure.units.map((u) => u.id),
    exceptions: closure.exceptions.map((u) => u.id),
  };
}

/** The request body a valid form gives. */
export type ClosureBody = z.output<ReturnType<typeof closureFormSchema>>;

/**
 * The form's schema: values → request body (an unreadable time stays '' so the contract refuses
 * it on its field; only the chosen scope's targets are sent, no exceptions for chosen units)
 * → the contract's rules.
 */
export function closureFormSchema(zone: string) {
  return z
    .object({
      name: z.string(),
      note: z.string(),
      start: z.string(),
      end: z.string(),
      mode: HeatingModeSchema,
      scope: ClosureScopeSchema,
      groups: z.array(z.string()),
      units: z.array(z.string()),
      exceptions: z.array(z.string()),
    })
    .transform(
      (form): z.input<typeof closureDraftSchema> => ({
        name: form.name,
        note: form.note,
        start: fromLocalInput(form.start, zone) ?? '',
        end: fromLocalInput(form.end, zone) ?? '',
        mode: form.mode,
        scope: form.scope,
        groups: form.scope === 'groups' ? form.groups : [],
        units: form.scope === 'units' ? form.units : [],
        exceptions: form.scope === 'units' ? [] : form.exceptions,
      }),
    )
    .pipe(closureDraftSchema);
}
