/**
 * School holidays (Ferien) of the 16 federal states (decision 0052) from the data file shipped with
 * the server, `school-holidays.de.json`: OpenHolidays API data under the Open Database License
 * 1.0 (source, licence and the dates it covers are recorded in the file; `npm run
 * school-holidays` refreshes it from the API when the machine is online). Dates are local and
 * inclusive. A building that switches school holidays on treats each period as a closure in its
 * holiday mode from 00:00 of the first day to 00:00 after the last day, in the company's zone.
 */
import { readFileSync } from 'node:fs';
import type { FederalState, SchoolHoliday } from '@heizplan/contracts/buildings';
import { DateTime } from 'luxon';
import type { UnitClosure } from './closure-coverage.ts';
import type { HolidayBuilding, HolidayLang } from './holidays.ts';

/** One period of the data file; `end` inclusive. */
export interface SchoolHolidayPeriod {
  start: string;
  end: string;
  name: Record<HolidayLang, string>;
}

/** The data file: provenance and the periods per state, each list sorted by start. */
export interface SchoolHolidayData {
  source: string;
  licence: string;
  retrieved: string;
  /** First and last local date the file covers for every state. */
  from: string;
  to: string;
  notes: string;
  states: Record<FederalState, SchoolHolidayPeriod[]>;
}

export const SCHOOL_HOLIDAYS_FILE = new URL('./school-holidays.de.json', import.meta.url);

let loaded: SchoolHolidayData | null = null;

/** The shipped data, read once. */
export function schoolHolidayData(): SchoolHolidayData {
  loaded ??= JSON.parse(readFileSync(SCHOOL_HOLIDAYS_FILE, 'utf8')) as SchoolHolidayData;
  return loaded;
}

/** German and English names of the states, for "Weihnachtsferien (Bayern)". */
const STATE_NAMES: Record<FederalState, Record<HolidayLang, string>> = {
  BW: { de: 'Baden-Württemberg', en: 'Baden-Württemberg' },
  BY: { de: 'Bayern', en: 'Bavaria' },
  BE: { de: 'Berlin', en: 'Berlin' },
  BB: { de: 'Brandenburg', en: 'Brandenburg' },
  HB: { de: 'Bremen', en: 'Bremen' },
  HH: { de: 'Hamburg', en: 'Hamburg' },
  HE: { de: 'Hessen', en: 'Hesse' },
  MV: { de: 'Mecklenburg-Vorpommern', en: 'Mecklenburg-Western Pomerania' },
  NI: { de: 'Niedersachsen', en: 'Lower Saxony' },
  NW: { de: 'Nordrhein-Westfalen', en: 'North Rhine-Westphalia' },
  RP: { de: 'Rheinland-Pfalz', en: 'Rhineland-Palatinate' },
  SL: { de: 'Saarland', en: 'Saarland' },
  SN: { de: 'Sachsen', en: 'Saxony' },
  ST: { de: 'Sachsen-Anhalt', en: 'Saxony-Anhalt' },
  SH: { de: 'Schleswig-Holstein', en: 'Schleswig-Holstein' },
  TH: { de: 'Thüringen', en: 'Thuringia' },
};

function periodsOf(state: string): SchoolHolidayPeriod[] {
  return schoolHolidayData().states[state as FederalState] ?? [];
}

/** The school holiday periods of `state` overlapping the local dates [from, to], named in `lang`. */
export function schoolHolidays(
  state: string,
  from: string,
  to: string,
  lang: HolidayLang = 'de',
): SchoolHoliday[] {
  return periodsOf(state)
    .filter((p) => p.end >= from && p.start <= to)
    .map((p) => ({ start: p.start, end: p.end, name: p.name[lang] }));
}

const SCHOOL_PREFIX = 'school:';

/** The id of a school-holiday closure: `school:<buildingId>:<first day YYYY-MM-DD>`. */
export const schoolHolidayClosureId = (buildingId: string, start: string) =>
  `${SCHOOL_PREFIX}${buildingId}:${start}`;

/** Building id and first day of a school-holiday closure id; null for any other id. */
export function parseSchoolHolidayClosureId(id: string): { buildingId: string; start: string } | null {
  if (!id.startsWith(SCHOOL_PREFIX)) return null;
  const [buildingId, start] = id.slice(SCHOOL_PREFIX.length).split(':');
  return buildingId && start ? { buildingId, start } : null;
}

/**
 * The state's school holidays as closures of building `b` in its holiday mode when it uses school
 * holidays (else none), those overlapping [from, to): each from 00:00 of its first day to 00:00
 * after its last day in `zone`.
 */
export function schoolHolidayClosures(b: HolidayBuilding, zone: string, from: Date, to: Date): UnitClosure[] {
  if (!b.schoolHolidays) return [];
  const result: UnitClosure[] = [];
  for (const p of periodsOf(b.state)) {
    const start = DateTime.fromISO(p.start, { zone });
    const end = DateTime.fromISO(p.end, { zone }).plus({ days: 1 });
    if (end.toMillis() <= from.getTime() || start.toMillis() >= to.getTime()) continue;
    result.push({
      id: schoolHolidayClosureId(b.id, p.start),
      start: start.toJSDate(),
      end: end.toJSDate(),
      mode: b.holidayMode,
    });
  }
  return result;
}

/** "Weihnachtsferien (Bayern)" for the period of `state` starting on `start`; null when unknown. */
export function schoolHolidayNameOn(state: string, start: string, lang: HolidayLang = 'de'): string | null {
  const period = periodsOf(state).find((p) => p.start === start);
  const stateName = STATE_NAMES[state as FederalState]?.[lang];
  return period && stateName ? `${period.name[lang]} (${stateName})` : null;
}
