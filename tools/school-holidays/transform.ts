/**
 * Turns OpenHolidays API answers (`GET https://openholidaysapi.org/SchoolHolidays`, one per
 * federal state) into Heizplan's school-holiday data file (server/src/modules/buildings/
 * school-holidays.de.json). Pure: the refresh command does the fetching and writing.
 */
import { FEDERAL_STATES, type FederalState } from '@heizplan/contracts/buildings';
import type { SchoolHolidayData, SchoolHolidayPeriod } from '../../server/src/heating/school-holidays.ts';

/** One entry of the API's answer (only the fields used). */
export interface ApiSchoolHoliday {
  startDate: string;
  endDate: string;
  name: { language: string; text: string }[];
  subdivisions?: { code: string; shortName?: string }[];
}

export const SOURCE =
  'OpenHolidays API, https://www.openholidaysapi.org (data: https://github.com/openpotato/openholidaysapi.data)';
export const LICENCE =
  'Open Database License (ODbL) v1.0, https://opendatacommons.org/licenses/odbl/1-0/ — this file is a derived database under the same licence';

/**
 * The subdivision whose periods count for a state: the state itself, except in
 * Mecklenburg-Vorpommern, whose general schools (MV-ABS) and vocational schools (MV-BBS) differ.
 * Schleswig-Holstein's North Sea islands (SH-INS) have breaks of their own and are left out.
 */
export function subdivisionOf(state: FederalState): string {
  return state === 'MV' ? 'DE-MV-ABS' : `DE-${state}`;
}

/** Heizplan's English names of the German period names; others keep the source's English name. */
const ENGLISH: Record<string, string> = {
  Sommerferien: 'Summer holidays',
  Herbstferien: 'Autumn holidays',
  Weihnachtsferien: 'Christmas holidays',
  Osterferien: 'Easter holidays',
  Pfingstferien: 'Whitsun holidays',
  Winterferien: 'Winter holidays',
  Frühjahrsferien: 'Spring holidays',
  Fastnachtsferien: 'Carnival holidays',
  Halbjahresferien: 'Mid-year holidays',
  Halbjahrespause: 'Mid-year break',
  Reformationsfest: 'Reformation Day',
  Gründonnerstag: 'Maundy Thursday',
  'Buß- und Bettag': 'Day of Repentance',
  'Unterrichtsfreier Tag': 'Day off school',
  'Variabler Ferientag': 'Variable day off',
  'Tag nach Himmelfahrt': 'Day after Ascension',
  'Tag vor dem 3. Oktober': 'Day before 3 October',
  'Tag vor dem 1. Mai': 'Day before 1 May',
  Brückentag: 'Bridge day',
  'Zusätzlicher Ferientag': 'Additional day off',
  Schulfrei: 'Day off school',
  Ferientag: 'Day off school',
  Himmelfahrt: 'Day after Ascension',
  'Schulfreier Tag': 'Day off school',
};

function text(entry: ApiSchoolHoliday, language: string): string | undefined {
  return entry.name.find((n) => n.language.toUpperCase() === language)?.text.trim();
}

/**
 * The periods of one state from its API answer: entries of the state's subdivision (or without
 * any, i.e. statewide), sorted by start, duplicates dropped. @throws Error for an entry without a
 * German name or with an end before its start.
 */
export function periodsFrom(state: FederalState, entries: ApiSchoolHoliday[]): SchoolHolidayPeriod[] {
  const code = subdivisionOf(state);
  const seen = new Set<string>();
  const periods: SchoolHolidayPeriod[] = [];
  for (const entry of entries) {
    const codes = entry.subdivisions?.map((s) => s.code) ?? [];
    if (codes.length > 0 && !codes.includes(code)) continue;
    const de = text(entry, 'DE');
    if (!de) throw new Error(`${state}: a period from ${entry.startDate} has no German name`);
    const start = entry.startDate.slice(0, 10);
    const end = (entry.endDate || entry.startDate).slice(0, 10);
    if (end < start) throw new Error(`${state}: the period from ${start} ends before it starts`);
    const key = `${start}|${end}|${de}`;
    if (seen.has(key)) continue;
    seen.add(key);
    periods.push({ start, end, name: { de, en: ENGLISH[de] ?? text(entry, 'EN') ?? de } });
  }
  return periods.sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end));
}

/**
 * The whole data file from one API answer per state, covering [from, to] (local dates).
 * @throws Error when a state is missing or has no period at all.
 */
export function toSchoolHolidayData(
  answers: Partial<Record<FederalState, ApiSchoolHoliday[]>>,
  from: string,
  to: string,
  retrieved: string,
): SchoolHolidayData {
  const states = {} as Record<FederalState, SchoolHolidayPeriod[]>;
  for (const state of FEDERAL_STATES) {
    const periods = periodsFrom(state, answers[state] ?? []);
    if (periods.length === 0)
      throw new Error(`${state}: the source has no school holidays from ${from} to ${to}`);
    states[state] = periods;
  }
  return {
    source: SOURCE,
    licence: LICENCE,
    retrieved,
    from,
    to,
    notes:
      "Dates are local, both inclusive. Mecklenburg-Vorpommern: general schools (MV-ABS), not vocational schools; Schleswig-Holstein: the mainland, not the North Sea islands. English names are Heizplan's. Refresh: npm run school-holidays -- --from YYYY-MM-DD --to YYYY-MM-DD.",
    states,
  };
}
