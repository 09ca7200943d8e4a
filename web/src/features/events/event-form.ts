/**
 * The event dialog's form (issue 8): its state, the rules checked before sending (spec §5:
 * end not before start, at least one unit or group, an end when regular events are prevented)
 * and the conversion between `datetime-local` values in the company's IANA time zone and the
 * API's UTC instants. Messages are i18n keys of the `events` namespace.
 */
import type { EventInput, HeatingEvent } from '@heizplan/contracts/events';
import { DateTime } from 'luxon';

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
  unitIds: string[];
  groupIds: string[];
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

/** A new event: from the next full hour for two hours, or the slot picked in the calendar. */
export function emptyForm(
  zone: string,
  slot?: { start: Date; end: Date },
  defaults: Partial<EventForm> = {},
): EventForm {
  const start = slot
    ? DateTime.fromJSDate(slot.start)
    : DateTime.now().setZone(zone).startOf('hour').plus({ hours: 1 });
  const end = slot ? DateTime.fromJSDate(slot.end) : start.plus({ hours: 2 });
  return {
    title: '',
    note: '',
    start: slot ? start.toFormat(LOCAL) : start.setZone(zone).toFormat(LOCAL),
    end: slot ? end.toFormat(LOCAL) : end.setZone(zone).toFormat(LOCAL),
    temperature: '21',
    preventRegular: false,
    groupMode: false,
    unitIds: [],
    groupIds: [],
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
    unitIds: event.units.map((u) => u.id),
    groupIds: event.groups.map((g) => g.id),
  };
}

export type FormErrors = Partial<Record<'start' | 'end' | 'temperature' | 'units' | 'groups', string>>;

/** Rules the dialog checks before sending; values are i18n keys. */
export function formErrors(form: EventForm, zone: string): FormErrors {
  const errors: FormErrors = {};
  const start = fromLocalInput(form.start, zone);
  const end = fromLocalInput(form.end, zone);
  if (!start) errors.start = 'errors.startRequired';
  if (start && end && end < start) errors.end = 'errors.endBeforeStart';
  else if (form.preventRegular && !end) errors.end = 'errors.endRequired';
  if (form.temperature.trim() === '' || Number.isNaN(Number(form.temperature))) {
    errors.temperature = 'errors.temperatureRequired';
  }
  if (form.groupMode ? form.groupIds.length === 0 : form.unitIds.length === 0) {
    errors[form.groupMode ? 'groups' : 'units'] = 'errors.noUnits';
  }
  return errors;
}

/** Request body of a form that passed `formErrors`. */
export function bodyOf(form: EventForm, zone: string): Required<EventInput> {
  return {
    title: form.title.trim(),
    note: form.note.trim(),
    start: fromLocalInput(form.start, zone) ?? '',
    end: fromLocalInput(form.end, zone),
    temperature: Number(form.temperature),
    preventRegular: form.preventRegular,
    groupMode: form.groupMode,
    units: form.groupMode ? [] : form.unitIds,
    groups: form.groupMode ? form.groupIds : [],
  };
}
