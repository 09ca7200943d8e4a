/**
 * What decided a setpoint, in words, for the 7-day preview and the heating log (decisions 0051 to
 * 0053): closures by name and heating mode — entered ones, public and school holidays, own days —
 * and bookings by title and times. Company-scoped; unknown ids are left out.
 */
import type { Preview } from '@heizplan/contracts/heating';
import { userLanguage } from '../auth/accounts.repository.ts';
import type { Db } from '../db/client.ts';
import { calendarClosureName, parseCalendarClosureId } from './calendar-closures.ts';
import {
  bookingDetails,
  buildingDayNames,
  buildingHolidaySettings,
  closureNames,
} from './inputs.repository.ts';

/**
 * The closures a preview or the heating log names: entered ones by start, then public and school holidays and own
 * days by date, named in the caller's language as the building's holiday list names them.
 */
export async function namedClosures(
  db: Db,
  userId: string,
  companyId: string,
  ids: string[],
): Promise<Preview['closures']> {
  const holidays = ids.flatMap((id) => {
    const parsed = parseCalendarClosureId(id);
    return parsed ? [{ id, ...parsed }] : [];
  });
  const entered = ids.filter((id) => !parseCalendarClosureId(id));
  const result: Preview['closures'] = (await closureNames(db, companyId, entered)).map((c) => ({
    ...c,
    kind: 'closure',
  }));
  if (holidays.length === 0) return result;
  const buildings = new Map(
    (await buildingHolidaySettings(db, companyId, [...new Set(holidays.map((h) => h.buildingId))])).map(
      (b) => [b.id, b],
    ),
  );
  const lang = await userLanguage(db, userId);
  const ownDays = await buildingDayNames(
    db,
    companyId,
    holidays.filter((h) => h.kind === 'company_day'),
  );
  for (const h of holidays.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id))) {
    const building = buildings.get(h.buildingId);
    if (!building) continue;
    const name =
      (h.kind === 'company_day'
        ? ownDays.get(`${h.buildingId}:${h.date}`)
        : calendarClosureName(h, building, lang)) ?? h.date;
    result.push({ id: h.id, name, mode: building.holidayMode, kind: h.kind });
  }
  return result;
}

/**
 * The bookings a preview or the heating log names (decision 0053), by start: title and the booking's own times
 * (heating starts the feed's pre-heat lead earlier).
 */
export async function namedBookings(db: Db, companyId: string, ids: string[]): Promise<Preview['bookings']> {
  return (await bookingDetails(db, companyId, ids)).map((b) => ({
    id: b.id,
    title: b.title,
    start: b.start.toISOString(),
    end: b.end.toISOString(),
  }));
}
