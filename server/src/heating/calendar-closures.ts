/**
 * A building's calendar as the heating engine sees it (decision 0052): public holidays
 * (`holiday:<buildingId>:<date>`), school holidays (`school:<buildingId>:<first day>`) and the
 * company's own days (`day:<buildingId>:<date>`) as closures in the building's holiday mode, or
 * as days like a Sunday; and how the preview names those closures.
 */
import { DateTime } from 'luxon';
import type { UnitClosure } from './closure-coverage.ts';
import {
  type HolidayBuilding,
  type HolidayLang,
  holidayClosures,
  holidayNameOn,
  holidaySundays,
  parseHolidayClosureId,
} from './holidays.ts';
import {
  parseSchoolHolidayClosureId,
  schoolHolidayClosures,
  schoolHolidayNameOn,
} from './school-holidays.ts';

const DAY_PREFIX = 'day:';

/** The id of an own day's closure: `day:<buildingId>:<YYYY-MM-DD>`. */
export const companyDayClosureId = (buildingId: string, date: string) => `${DAY_PREFIX}${buildingId}:${date}`;

/** A building's calendar for the engine: closures, and local dates 'YYYY-MM-DD' like a Sunday. */
export interface BuildingCalendar {
  closures: UnitClosure[];
  sundays: string[];
}

/**
 * The calendar of building `b` in `zone` from `from` to `to`: its school holidays (when it uses
 * them), its public holidays and its own `days` — the latter two as closures in its holiday mode,
 * or, when it treats holidays like Sundays, as Sunday dates. An own day counts even in a building
 * that ignores public holidays: someone entered it on purpose.
 */
export function buildingCalendar(
  b: HolidayBuilding,
  days: readonly { date: string }[],
  zone: string,
  from: Date,
  to: Date,
): BuildingCalendar {
  const sundayLike = b.publicHolidays === 'sunday';
  const own = sundayLike
    ? []
    : days.flatMap(({ date }) => {
        const start = DateTime.fromISO(date, { zone });
        const end = start.plus({ days: 1 });
        if (!start.isValid || end.toMillis() <= from.getTime()) return [];
        return [
          {
            id: companyDayClosureId(b.id, date),
            start: start.toJSDate(),
            end: end.toJSDate(),
            mode: b.holidayMode,
          },
        ];
      });
  return {
    closures: [...schoolHolidayClosures(b, zone, from, to), ...holidayClosures(b, zone, from, to), ...own],
    sundays: sundayLike ? [...holidaySundays(b, zone, from, to), ...days.map((d) => d.date)] : [],
  };
}

/** A calendar closure id taken apart: its building, its (first) local date and its kind. */
export interface CalendarClosureRef {
  buildingId: string;
  date: string;
  kind: 'holiday' | 'school_holiday' | 'company_day';
}

/** The parts of a calendar closure id; null for an entered closure's id. */
export function parseCalendarClosureId(id: string): CalendarClosureRef | null {
  const holiday = parseHolidayClosureId(id);
  if (holiday) return { ...holiday, kind: 'holiday' };
  const school = parseSchoolHolidayClosureId(id);
  if (school) return { buildingId: school.buildingId, date: school.start, kind: 'school_holiday' };
  if (!id.startsWith(DAY_PREFIX)) return null;
  const [buildingId, date] = id.slice(DAY_PREFIX.length).split(':');
  return buildingId && date ? { buildingId, date, kind: 'company_day' } : null;
}

/**
 * "Christi Himmelfahrt" or "Weihnachtsferien (Bayern)" for a public or school holiday closure of
 * a building in `state` and `region`, in `lang`; null when the data no longer knows the day and
 * for an own day (its name is stored: `buildingDayNames`).
 */
export function calendarClosureName(
  ref: CalendarClosureRef,
  building: { state: string; region: string | null },
  lang: HolidayLang,
): string | null {
  if (ref.kind === 'holiday') return holidayNameOn(building.state, building.region, ref.date, lang);
  if (ref.kind === 'school_holiday') return schoolHolidayNameOn(building.state, ref.date, lang);
  return null;
}
