/**
 * The company's own days per building (decision 0052): bridge days and movable days off, entered
 * one by one or imported from an ICS file, each a whole local day that counts like a public
 * holiday (`buildingCalendar`). Membership first (404 for strangers; reading needs `read`,
 * writing `operate`); a building of another company is unknown (404 `unknown_building`). Every
 * change marks the building's units due and wakes the scheduler.
 */
import {
  BUILDING_DAYS_MAX,
  type BuildingDay,
  type BuildingDayImportResult,
  type BuildingDayInput,
  type BuildingDayList,
} from '@heizplan/contracts/buildings';
import { DateTime } from 'luxon';
import { requireMember } from '../../auth/membership.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import type { HeatingServiceDeps } from '../../heating/services.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { FeedParseError, parseBookings } from '../booking-feeds/ics.ts';
import * as repo from './building-days.repository.ts';
import { findBuilding } from './buildings.repository.ts';

/** An import reads events from a year ago to three years ahead. */
const IMPORT_BACK_DAYS = 366;
const IMPORT_AHEAD_DAYS = 3 * 366;
/** Name of an imported day whose event has no title. */
const UNTITLED = 'Schließtag';

function toResponse({
  day,
  creatorName,
}: {
  day: repo.BuildingDayRow;
  creatorName: string | null;
}): BuildingDay {
  return {
    id: day.id,
    date: day.date,
    name: day.name,
    createdAt: day.createdAt.toISOString(),
    createdBy: day.createdBy ? { id: day.createdBy, name: creatorName ?? '' } : null,
  };
}

/** The local dates 'YYYY-MM-DD' an event from `start` to `end` (exclusive) touches in `zone`. */
export function localDates(start: Date, end: Date, zone: string): string[] {
  const dates: string[] = [];
  let day = DateTime.fromJSDate(start, { zone }).startOf('day');
  const last = DateTime.fromJSDate(new Date(end.getTime() - 1), { zone }).startOf('day');
  while (day <= last && dates.length <= BUILDING_DAYS_MAX) {
    dates.push(day.toISODate() as string);
    day = day.plus({ days: 1 });
  }
  return dates;
}

export class BuildingDaysService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** The building's own days in `year`. @throws 404 unknown building. */
  async list(userId: string, companyId: string, buildingId: string, year: number): Promise<BuildingDayList> {
    await requireMember(this.db, userId, companyId, 'read');
    await this.requireBuilding(companyId, buildingId);
    const rows = await repo.listBuildingDays(
      this.db,
      companyId,
      buildingId,
      `${year}-01-01`,
      `${year}-12-31`,
    );
    return { results: rows.map(toResponse) };
  }

  /**
   * Adds one own day.
   * @throws 404 unknown building, 409 `building_day_exists` (params date), 400 `building_days_full`.
   */
  async add(
    userId: string,
    companyId: string,
    buildingId: string,
    input: BuildingDayInput,
  ): Promise<BuildingDay> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireBuilding(companyId, buildingId);
    await this.requireRoom(companyId, buildingId, 1);
    const [id] = await this.db.transaction(async (tx) => {
      const ids = await repo.insertBuildingDays(tx, companyId, buildingId, [input], userId);
      if (ids.length > 0) await inputsChanged(tx, { companyId, buildingId }, this.deps.now());
      return ids;
    });
    if (!id)
      throw conflict(`The building already has an own day on ${input.date}.`, {
        code: 'building_day_exists',
        params: { date: input.date },
      });
    this.deps.wake();
    const row = await repo.findBuildingDay(this.db, companyId, buildingId, id);
    if (!row) throw notFound('Unknown day', { code: 'unknown_building_day' });
    return toResponse(row);
  }

  /** Deletes an own day. @throws 404 unknown building or day. */
  async remove(userId: string, companyId: string, buildingId: string, dayId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireBuilding(companyId, buildingId);
    const deleted = await this.db.transaction(async (tx) => {
      const gone = await repo.deleteBuildingDay(tx, companyId, buildingId, dayId);
      if (gone) await inputsChanged(tx, { companyId, buildingId }, this.deps.now());
      return gone;
    });
    if (!deleted) throw notFound('Unknown day', { code: 'unknown_building_day' });
    this.deps.wake();
  }

  /**
   * Adds the local days of every event in an ICS file (a year back to three years ahead, in the
   * company's zone; recurring events expanded, cancelled ones left out), named by the event's
   * title; dates the building already has are skipped.
   * @throws 404 unknown building, 400 `invalid_ics`, 400 `building_days_full` (nothing added).
   */
  async import(
    userId: string,
    companyId: string,
    buildingId: string,
    ics: string,
  ): Promise<BuildingDayImportResult> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireBuilding(companyId, buildingId);
    const company = await findCompanyHeating(this.db, companyId);
    if (!company) throw notFound('Unknown company');
    const now = this.deps.now();
    const from = new Date(now.getTime() - IMPORT_BACK_DAYS * 86_400_000);
    const to = new Date(now.getTime() + IMPORT_AHEAD_DAYS * 86_400_000);
    let events: ReturnType<typeof parseBookings>;
    try {
      events = parseBookings(buildingId, [ics], company.timeZone, from, to);
    } catch (err) {
      if (!(err instanceof FeedParseError)) throw err;
      const message = `The file is no readable iCalendar data: ${err.message}`;
      throw badRequest(message, [{ field: 'ics', message, code: 'invalid_ics' }], { code: 'invalid_ics' });
    }
    const byDate = new Map<string, string>();
    for (const event of events) {
      for (const date of localDates(event.start, event.end, company.timeZone)) {
        if (!byDate.has(date)) byDate.set(date, event.title || UNTITLED);
      }
    }
    const days = [...byDate].map(([date, name]) => ({ date, name: name.slice(0, 120) }));
    await this.requireRoom(companyId, buildingId, days.length);
    const added = await this.db.transaction(async (tx) => {
      const ids = await repo.insertBuildingDays(tx, companyId, buildingId, days, userId);
      if (ids.length > 0) await inputsChanged(tx, { companyId, buildingId }, now);
      return ids.length;
    });
    if (added > 0) this.deps.wake();
    return { imported: added, skipped: days.length - added };
  }

  private async requireBuilding(companyId: string, buildingId: string) {
    if (!(await findBuilding(this.db, companyId, buildingId)))
      throw notFound('Unknown building', { code: 'unknown_building' });
  }

  /** @throws 400 `building_days_full` when `adding` more days could exceed BUILDING_DAYS_MAX. */
  private async requireRoom(companyId: string, buildingId: string, adding: number) {
    const existing = await repo.countBuildingDays(this.db, companyId, buildingId);
    if (existing + adding <= BUILDING_DAYS_MAX) return;
    const message = `A building has at most ${BUILDING_DAYS_MAX} own days.`;
    const reason = { code: 'building_days_full', params: { max: BUILDING_DAYS_MAX } } as const;
    throw badRequest(message, [{ field: 'date', message, ...reason }], reason);
  }
}
