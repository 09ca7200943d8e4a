/**
 * The event dialog's form: its values, named as the API's fields so the contract's
 * and the server's messages land on them, and its schema: the typed values read as instants
 * in the company's IANA zone, then checked by the contracts' `eventDraftSchema` (spec §5: end
 * not before start nor, when changed, in the past; an end when regular events are prevented;
 * at least one unit or group; the company range).
 */
import { eventDraftSchema, type HeatingEvent } from '@heizplan/contracts/events';
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.tsx';

export interface EventForm {
  title: string;
  note: string;
  /** `yyyy-MM-ddTHH:mm` wall-clock time in the company's zone. */
  start: string;
  /** Same format; '' = open-ended. */
  end: string;
  /** °C as typed. */
  temperature: string;
  preventRegular: boolean;
  groupMode: boolean;
  units: string[];
  groups: string[];
}

const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** `datetime-local` value of a UTC instant in `zone`. */
export const toLocalInput = (iso: string | Date, zone: string) =>
  (typeof iso === 'string' ? DateTime.fromISO(iso) : DateTime.fromJSDate(iso)).setZone(zone).toFormat(LOCAL);

/** UTC ISO instant of a `datetime-local` value read in `zone`; null when empty or invalid. */
export function fromLocalInput(value: string, zone: string): string | null {
  if (!value) return null;
  const dt = DateTime.fromISO(value, { zone });
  return dt.isValid ? dt.toUTC().toISO() : null;
}

/**
 * A new event: from the full hour after `now` (in `zone`) for two hours, or the slot picked in
 * the calendar.
 */
export function emptyForm(
  zone: string,
  now: Date,
  slot?: { start: Date; end: Date },
  defaults: Partial<EventForm> = {},
): EventForm {
  const start = slot
    ? DateTime.fromJSDate(slot.start)
    : DateTime.fromJSDate(now).setZone(zone).startOf('hour').plus({ hours: 1 });
  const end = slot ? DateTime.fromJSDate(slot.end) : start.plus({ hours: 2 });
  return {
    title: '',
    note: '',
    start: slot ? start.toFormat(LOCAL) : start.setZone(zone).toFormat(LOCAL),
    end: slot ? end.toFormat(LOCAL) : end.setZone(zone).toFormat(LOCAL),
    temperature: '21',
    preventRegular: false,
    groupMode: false,
    units: [],
    groups: [],
    ...defaults,
  };
}

export function formOf(event: HeatingEvent, zone: string): EventForm {
  return {
    title: event.title,
    note: event.note,
    start: toLocalInput(event.start, zone),
    end: event.end ? toLocalInput(event.end, zone) : '',
    temperature: String(event.temperature),
    preventRegular: event.preventRegular,
    groupMode: event.groupMode,
    units: event.units.map((u) => u.id),
    groups: event.groups.map((g) => g.id),
  };
}

/** The request body a valid form gives. */
export type EventBody = z.output<ReturnType<typeof eventFormSchema>>;

/**
 * The form's schema: values → request body (an unreadable time stays '' and an empty
 * temperature NaN, so the contract refuses them on their fields) → the contract's rules with
 * `clock`'s instant at each check (a dialog may stay open a while). `initialEnd` is the stored
 * end: an unchanged end may lie in the past.
 */
export function eventFormSchema(
  zone: string,
  clock: Clock,
  range?: { min: number; max: number },
  initialEnd?: string,
) {
  const draft = eventDraftSchema((event) => ({
    now: clock(),
    endChanged: initialEnd === undefined || event.end !== fromLocalInput(initialEnd, zone),
    range,
  }));
  return z
    .object({
      title: z.string(),
      note: z.string(),
      start: z.string(),
      end: z.string(),
      temperature: z.string(),
      preventRegular: z.boolean(),
      groupMode: z.boolean(),
      units: z.array(z.string()),
      groups: z.array(z.string()),
    })
    .transform(
      (form): z.input<typeof draft> => ({
        title: form.title,
        note: form.note,
        start: fromLocalInput(form.start, zone) ?? '',
        end: fromLocalInput(form.end, zone),
        temperature: form.temperature.trim() === '' ? Number.NaN : Number(form.temperature.replace(',', '.')),
        preventRegular: form.preventRegular,
        groupMode: form.groupMode,
        units: form.groupMode ? [] : form.units,
        groups: form.groupMode ? form.groups : [],
      }),
    )
    .pipe(draft);
}
