/**
 * An audit entry in words (decision 0059): what was done ("Solltemperatur gesetzt" for a POST to
 * `/units/{unitId}/setpoint`), from the method and the route below the company, else the kind of
 * object with "angelegt"/"geändert"/"gelöscht"; and each field the change set with its label and
 * its value as a person reads it (21,5 °C, Ja, a local time), not as JSON, with the value it
 * replaced where the log knows it.
 */
import type { AuditEntry } from '@heizplan/contracts/audit';

/** The route below `/api/companies/{id}`: `/units/{unitId}/setpoint`. */
export const routeTail = (route: string) => route.replace(/^\/api\/companies\/\{(companyId|id)\}/, '') || '/';

/** The key of an entry's action in the locale's `actions` map: `POST /units/{unitId}/setpoint`. */
export const actionKey = (entry: AuditEntry) => `${entry.method} ${routeTail(entry.route)}`;

/**
 * What a change did when no action names it: `create` for a POST to the collection itself
 * (`/units`), `action` for a POST to something else, else by method.
 */
export function changeOf(entry: AuditEntry): string {
  if (entry.method !== 'POST') return entry.method;
  return routeTail(entry.route) === `/${entry.resource}` ? 'create' : 'action';
}

/** Fields holding a temperature in °C. */
const CELSIUS =
  /^(setpoint|temperature|wall_?control_?(Min|Max)|min(imum)?_?Temperature|max(imum)?_?Temperature|frost_?Protection|economy(_temperature)?|standby(_temperature)?|occupant_?Max_?Temperature)$/i;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export interface ValueFormat {
  celsius(value: number): string;
  plain(value: number): string;
  dateTime(iso: string): string;
  yes: string;
  no: string;
  empty: string;
  /** A text value in the language's quotation marks. */
  quote(text: string): string;
  /** "3 entries" for a list too long to name. */
  items(count: number): string;
}

/** One field's value as a person reads it. */
export function valueText(field: string, value: unknown, format: ValueFormat): string {
  if (value === null || value === undefined || value === '') return format.empty;
  if (typeof value === 'boolean') return value ? format.yes : format.no;
  if (typeof value === 'number') return CELSIUS.test(field) ? format.celsius(value) : format.plain(value);
  if (typeof value === 'string')
    return ISO_INSTANT.test(value) ? format.dateTime(value) : format.quote(value);
  if (Array.isArray(value)) {
    const simple = value.every((item) => typeof item === 'string' || typeof item === 'number');
    return simple && value.length <= 3 && value.length > 0
      ? value.map((item) => valueText(field, item, format)).join(', ')
      : format.items(value.length);
  }
  return format.items(Object.keys(value as object).length);
}

/**
 * One field of an entry as a person reads it: "Name: „Klasse 5b“", or with the value it replaced,
 * when the log knows it and it differs, through `changed` ("Name: von „Klasse 5a“ auf „Klasse 5b“").
 */
export function fieldText(
  field: string,
  value: unknown,
  previous: Record<string, unknown> | null,
  format: ValueFormat & { label(field: string): string; changed(from: string, to: string): string },
): string {
  const now = valueText(field, value, format);
  const known = previous !== null && Object.hasOwn(previous, field);
  if (!known || JSON.stringify(previous[field]) === JSON.stringify(value))
    return `${format.label(field)}: ${now}`;
  return `${format.label(field)}: ${format.changed(valueText(field, previous[field], format), now)}`;
}
