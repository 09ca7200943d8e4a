/**
 * The closure dialog's form: its values, named as the API's fields so the contract's and the
 * server's messages land on them, and its schema: the typed times read as instants in the
 * company's IANA zone, the repeat choice turned into an RRULE (closure-repeat.ts), then checked
 * by the contracts' `closureDraftSchema` (end after start, at most CLOSURE_MAX_DAYS, at least one
 * building, group or unit for those scopes, a valid recurrence).
 */
import {
  type Closure,
  type ClosureScope,
  ClosureScopeSchema,
  closureDraftSchema,
  type HeatingMode,
  HeatingModeSchema,
} from '@heizplan/contracts/closures';
import { RECURRENCE_WEEKDAYS } from '@heizplan/contracts/recurrence';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { REPEAT_CHOICES, type RepeatFields, recurrenceOf, repeatFieldsOf } from './closure-repeat.ts';

/** A chosen building; `floor` '' = the whole building. */
export interface BuildingRow {
  buildingId: string;
  floor: string;
}

export interface ClosureForm extends RepeatFields {
  name: string;
  note: string;
  /** `yyyy-MM-ddTHH:mm` wall-clock time in the company's zone. */
  start: string;
  /** Same format. */
  end: string;
  mode: HeatingMode;
  scope: ClosureScope;
  buildings: BuildingRow[];
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

/** A new closure: from the day after `now` (in `zone`), 00:00, for a week, frost protection, the whole company. */
export function emptyForm(zone: string, now: Date): ClosureForm {
  const start = DateTime.fromJSDate(now).setZone(zone).startOf('day').plus({ days: 1 });
  return {
    name: '',
    note: '',
    start: start.toFormat(LOCAL),
    end: start.plus({ days: 7 }).toFormat(LOCAL),
    ...repeatFieldsOf(null, start.toFormat(LOCAL)),
    mode: 'frost',
    scope: 'company',
    buildings: [],
    groups: [],
    units: [],
    exceptions: [],
  };
}

export function formOf(closure: Closure, zone: string): ClosureForm {
  const start = toLocalInput(closure.start, zone);
  return {
    name: closure.name,
    note: closure.note,
    start,
    end: toLocalInput(closure.end, zone),
    ...repeatFieldsOf(closure.recurrence, start),
    mode: closure.mode,
    scope: closure.scope,
    buildings: closure.buildings.map((b) => ({ buildingId: b.id, floor: b.floor ?? '' })),
    groups: closure.groups.map((g) => g.id),
    units: closure.units.map((u) => u.id),
    exceptions: closure.exceptions.map((u) => u.id),
  };
}

/** The request body a valid form gives. */
export type ClosureBody = z.output<ReturnType<typeof closureFormSchema>>;

/**
 * The form's schema: values → request body (an unreadable time stays '' so the contract refuses
 * it on its field; the repeat choice as an RRULE or null; only the chosen scope's targets are
 * sent, no exceptions for chosen units) → the contract's rules.
 */
export function closureFormSchema(zone: string) {
  return z
    .object({
      name: z.string(),
      note: z.string(),
      start: z.string(),
      end: z.string(),
      repeat: z.enum(REPEAT_CHOICES),
      weekdays: z.array(z.enum(RECURRENCE_WEEKDAYS)),
      until: z.string(),
      recurrence: z.string(),
      mode: HeatingModeSchema,
      scope: ClosureScopeSchema,
      buildings: z.array(z.object({ buildingId: z.string(), floor: z.string() })),
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
        recurrence: recurrenceOf(form, form.start),
        mode: form.mode,
        scope: form.scope,
        buildings:
          form.scope === 'buildings'
            ? form.buildings.map((b) => ({ buildingId: b.buildingId, floor: b.floor || null }))
            : [],
        groups: form.scope === 'groups' ? form.groups : [],
        units: form.scope === 'units' ? form.units : [],
        exceptions: form.scope === 'units' ? [] : form.exceptions,
      }),
    )
    .pipe(closureDraftSchema);
}
