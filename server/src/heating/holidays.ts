/**
 * German public holidays from the `date-holidays` data shipped with the server (offline;
 * decision 0052). Only holidays of type `public` count. Building a `Holidays` instance parses the
 * country's rules and is slow, so instances are kept per state and region, and each year's list
 * per state, region, year and language (a bounded set: 16 states, a few regions, 2000–2100).
 */
import {
  FEDERAL_STATES,
  type FederalState,
  type Holiday,
  type HolidayRegions,
  type HolidayTreatment,
} from '@heizplan/contracts/buildings';
import type { HeatingMode } from '@heizplan/contracts/closures';
import Holidays from 'date-holidays';
import { DateTime } from 'luxon';
import type { UnitClosure } from './closure-coverage.ts';

export type HolidayLang = 'de' | 'en';

const COUNTRY = 'DE';
const OPTIONS = { types: ['public' as const] };

const calendars = new Map<string, Holidays>();
const years = new Map<string, Holiday[]>();
const regionLists = new Map<string, Map<string, string>>();

function calendar(state: string, region: string | null): Holidays {
  const key = `${state}:${region ?? ''}`;
  let hd = calendars.get(key);
  if (!hd) {
    hd = region ? new Holidays(COUNTRY, state, region, OPTIONS) : new Holidays(COUNTRY, state, OPTIONS);
    calendars.set(key, hd);
  }
  return hd;
}

/** `{date, name}` of the public holidays of `state` (and `region`) in `year`, by date. */
function rawHolidays(state: string, region: string | null, year: number, lang: HolidayLang) {
  return calendar(state, region)
    .getHolidays(year, lang)
    .filter((h) => h.type === 'public')
    .map((h) => ({ date: h.date.slice(0, 10), name: h.name }));
}

/**
 * The public holidays of `state` (and its `region`) in `year`, by date, named in `lang`;
 * `regional` marks those of the region that the state alone does not have. Cached; do not mutate.
 */
export function publicHolidays(
  state: string,
  region: string | null,
  year: number,
  lang: HolidayLang = 'de',
): Holiday[] {
  const key = `${state}:${region ?? ''}:${year}:${lang}`;
  let list = years.get(key);
  if (!list) {
    const own = rawHolidays(state, region, year, lang);
    const statewide = region
      ? new Set(rawHolidays(state, null, year, lang).map((h) => `${h.date}|${h.name}`))
      : null;
    list = own.map((h) => ({ ...h, regional: statewide !== null && !statewide.has(`${h.date}|${h.name}`) }));
    years.set(key, list);
  }
  return list;
}

/** The regions of `state` with holidays of their own: code → name in `lang`. Cached. */
export function holidayRegionsOf(state: string, lang: HolidayLang = 'de'): Map<string, string> {
  const key = `${state}:${lang}`;
  let regions = regionLists.get(key);
  if (!regions) {
    regions = new Map(Object.entries(new Holidays().getRegions(COUNTRY, state, lang) ?? {}));
    regionLists.set(key, regions);
  }
  return regions;
}

export function isHolidayRegion(state: FederalState, region: string): boolean {
  return holidayRegionsOf(state).has(region);
}

/** Every federal state with its regions, for the building form. */
export function allHolidayRegions(lang: HolidayLang): HolidayRegions {
  return {
    results: FEDERAL_STATES.map((state) => ({
      state,
      regions: [...holidayRegionsOf(state, lang)].map(([code, name]) => ({ code, name })),
    })),
  };
}

/** A building as its holidays' closures need it. */
export interface HolidayBuilding {
  id: string;
  state: string;
  region: string | null;
  publicHolidays: HolidayTreatment;
  holidayMode: HeatingMode;
  schoolHolidays: boolean;
}

const HOLIDAY_PREFIX = 'holiday:';

/** The id of a holiday closure: `holiday:<buildingId>:<YYYY-MM-DD>`. */
export const holidayClosureId = (buildingId: string, date: string) =>
  `${HOLIDAY_PREFIX}${buildingId}:${date}`;

/** Building id and local date of a holiday closure id; null for an ordinary closure's id. */
export function parseHolidayClosureId(id: string): { buildingId: string; date: string } | null {
  if (!id.startsWith(HOLIDAY_PREFIX)) return null;
  const [buildingId, date] = id.slice(HOLIDAY_PREFIX.length).split(':');
  return buildingId && date ? { buildingId, date } : null;
}

/** Distinct local dates of the building's public holidays in the local years of `from` … `to`. */
function holidayDates(b: HolidayBuilding, zone: string, from: Date, to: Date): string[] {
  const first = DateTime.fromJSDate(from, { zone }).year;
  const last = DateTime.fromJSDate(to, { zone }).year;
  const dates = new Set<string>();
  for (let year = first; year <= last; year++) {
    for (const { date } of publicHolidays(b.state, b.region, year)) dates.add(date);
  }
  return [...dates];
}

/**
 * The building's public holidays as closures in its holiday mode when it treats them as
 * closures (else none): each a whole local day of `zone` (00:00 to the next 00:00, so 23 or 25
 * hours at a clock change), of the years from `from` to `to` (local), those ending after `from`.
 * Two holidays on one date are one closure.
 */
export function holidayClosures(b: HolidayBuilding, zone: string, from: Date, to: Date): UnitClosure[] {
  if (b.publicHolidays !== 'closure') return [];
  const result: UnitClosure[] = [];
  const after = from.getTime();
  for (const date of holidayDates(b, zone, from, to)) {
    const start = DateTime.fromISO(date, { zone });
    const end = start.plus({ days: 1 });
    if (end.toMillis() <= after) continue;
    result.push({
      id: holidayClosureId(b.id, date),
      start: start.toJSDate(),
      end: end.toJSDate(),
      mode: b.holidayMode,
    });
  }
  return result;
}

/**
 * The local dates 'YYYY-MM-DD' of the building's public holidays in the local years of `from` …
 * `to` when it treats them "like a Sunday" (else none), for the engine's `sundayDates`.
 */
export function holidaySundays(b: HolidayBuilding, zone: string, from: Date, to: Date): string[] {
  return b.publicHolidays === 'sunday' ? holidayDates(b, zone, from, to) : [];
}

/** The name of the holidays on local `date` (`YYYY-MM-DD`), two joined by " / "; null for none. */
export function holidayNameOn(
  state: string,
  region: string | null,
  date: string,
  lang: HolidayLang = 'de',
): string | null {
  const names = publicHolidays(state, region, Number(date.slice(0, 4)), lang)
    .filter((h) => h.date === date)
    .map((h) => h.name);
  return names.length > 0 ? names.join(' / ') : null;
}

/**
 * `holidays` without the times `closures` cover: an entered closure
 * outranks the building's holidays, so a holiday inside the Christmas break keeps the break's
 * mode, and one the break ends in takes over only when the break has ended.
 */
export function outsideClosures(holidays: UnitClosure[], closures: UnitClosure[]): UnitClosure[] {
  if (closures.length === 0) return holidays;
  const result: UnitClosure[] = [];
  for (const holiday of holidays) {
    let pieces = [{ start: holiday.start.getTime(), end: holiday.end.getTime() }];
    for (const c of closures) {
      const cs = c.start.getTime();
      const ce = c.end.getTime();
      pieces = pieces.flatMap((p) =>
        ce <= p.start || cs >= p.end
          ? [p]
          : [
              ...(cs > p.start ? [{ start: p.start, end: cs }] : []),
              ...(ce < p.end ? [{ start: ce, end: p.end }] : []),
            ],
      );
    }
    for (const p of pieces) result.push({ ...holiday, start: new Date(p.start), end: new Date(p.end) });
  }
  return result;
}
