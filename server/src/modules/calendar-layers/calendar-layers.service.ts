/**
 * Calendar layers (contracts' calendar-layers.ts): what the events calendar draws behind the
 * one-time events — entered closures (their occurrences), each building's public and school
 * holidays and own days, and the heating bookings of fresh booking feeds — in one read-only
 * answer for a window of at most CALENDAR_LAYERS_MAX_DAYS. Nothing here decides heating: the
 * layers come from the same repository and calendar functions the engine's inputs use
 * (closures' occurrences, `buildingCalendar`, `companyBookingsBetween`), so the calendar shows
 * what the engine gets. Unlike the engine's inputs an entered closure does not cut a holiday it
 * overlaps: the calendar shows both.
 *
 * Membership first (404 for strangers; every member reads). Holidays are named in the member's
 * language.
 */
import { FEED_STALE_AFTER_MS } from '@heizplan/contracts/booking-feeds';
import {
  CALENDAR_LAYERS_MAX_BOOKINGS,
  type CalendarLayer,
  type CalendarLayerKind,
  type CalendarLayerList,
  type CalendarLayersQuerySchema,
  calendarRangeIssue,
} from '@heizplan/contracts/calendar-layers';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import { userLanguage } from '../../auth/accounts.repository.ts';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import {
  buildingCalendar,
  calendarClosureName,
  companyDayClosureId,
  parseCalendarClosureId,
} from '../../heating/calendar-closures.ts';
import { closuresForUnits } from '../../heating/closure-coverage.ts';
import { type HolidayLang, holidayClosureId } from '../../heating/holidays.ts';
import { buildingDaysFor, closureNames } from '../../heating/inputs.ts';
import { occurrencesWithin } from '../../heating/occurrences.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { companyBookingsBetween } from '../booking-feeds/booking-feeds.service.ts';
import { type CalendarBuilding, calendarBuildings, unitsInBuilding } from '../buildings/buildings.service.ts';
import { companyZone, listClosures, targetsOf } from '../closures/closures.service.ts';

type Query = z.output<typeof CalendarLayersQuerySchema>;

/** Closures read per page while collecting the window's. */
const CLOSURE_PAGE = 500;
/** Zone of a company whose row vanished meanwhile. */
const FALLBACK_ZONE = 'Europe/Berlin';

/** Order of kinds starting at the same instant: the broad ones first. */
const KIND_ORDER: Record<CalendarLayerKind, number> = {
  closure: 0,
  school_holiday: 1,
  holiday: 2,
  company_day: 3,
  booking: 4,
};

interface Window {
  from: Date;
  to: Date;
}

interface ClosureOccurrence {
  closureId: string;
  start: Date;
  end: Date;
}

const overlaps = (w: Window, start: Date, end: Date) => start < w.to && end > w.from;

export interface CalendarLayersDeps {
  db: Db;
  now: () => Date;
}

export class CalendarLayersService {
  constructor(private readonly deps: CalendarLayersDeps) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * The layers overlapping `[from, to)`, sorted by start.
   * @throws 404 stranger or unknown building (also another company's); 400 a window whose end is
   * not after its start (`calendar_range_end_not_after_start`) or longer than
   * CALENDAR_LAYERS_MAX_DAYS (`calendar_range_too_long`), on the field `to`.
   */
  async list(userId: string, companyId: string, q: Query): Promise<CalendarLayerList> {
    await requireMember(this.db, userId, companyId, 'read');
    const issue = calendarRangeIssue(q.from, q.to);
    if (issue) {
      const reason = { code: issue.code, ...(issue.params ? { params: issue.params } : {}) };
      throw badRequest(issue.message, [{ field: issue.field, message: issue.message, ...reason }], reason);
    }
    const window: Window = { from: new Date(q.from), to: new Date(q.to) };
    const buildings = await calendarBuildings(this.db, companyId, q.buildingId);
    if (q.buildingId && buildings.length === 0)
      throw notFound('Unknown building', { code: 'unknown_building' });
    const zone = (await companyZone(this.db, companyId)) ?? FALLBACK_ZONE;
    const lang = await userLanguage(this.db, userId);
    const bookings = await this.bookings(companyId, window, q.buildingId);
    const results = [
      ...(await this.closures(companyId, window, zone, q.buildingId)),
      ...(await this.calendars(buildings, window, zone, lang)),
      ...bookings.layers,
    ].sort(
      (a, b) =>
        a.start.localeCompare(b.start) ||
        KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        a.name.localeCompare(b.name) ||
        (a.building?.name ?? '').localeCompare(b.building?.name ?? '') ||
        a.id.localeCompare(b.id),
    );
    return { results, truncated: bookings.truncated };
  }

  /** Entered closures: each occurrence in the window, named, with the one building it names. */
  private async closures(
    companyId: string,
    window: Window,
    zone: string,
    buildingId: string | undefined,
  ): Promise<CalendarLayer[]> {
    const occurrences = buildingId
      ? await this.closuresOfBuilding(companyId, buildingId, window)
      : await this.closuresOfCompany(companyId, window, zone);
    if (occurrences.length === 0) return [];
    const ids = [...new Set(occurrences.map((o) => o.closureId))];
    const named = new Map((await closureNames(this.db, companyId, ids)).map((c) => [c.id, c]));
    const { buildingsBy } = await targetsOf(this.db, ids);
    return occurrences.flatMap((o) => {
      const closure = named.get(o.closureId);
      if (!closure) return [];
      const chosen = [...new Map((buildingsBy.get(o.closureId) ?? []).map((b) => [b.id, b])).values()];
      const [only] = chosen;
      return [
        {
          id: `closure:${o.closureId}:${o.start.toISOString()}`,
          kind: 'closure' as const,
          name: closure.name,
          start: o.start.toISOString(),
          end: o.end.toISOString(),
          mode: closure.mode,
          building: chosen.length === 1 && only ? { id: only.id, name: only.name } : null,
          unit: null,
        },
      ];
    });
  }

  /** Every closure of the company with its occurrences overlapping the window. */
  private async closuresOfCompany(
    companyId: string,
    window: Window,
    zone: string,
  ): Promise<ClosureOccurrence[]> {
    const result: ClosureOccurrence[] = [];
    const filter = { includePast: true, from: window.from, to: window.to, size: CLOSURE_PAGE };
    for (let page = 1; ; page++) {
      const { rows, count } = await listClosures(this.db, companyId, { ...filter, page }, this.deps.now());
      for (const { closure } of rows) {
        for (const o of occurrencesWithin(closure, zone, window.from, window.to))
          result.push({ closureId: closure.id, start: o.start, end: o.end });
      }
      if (rows.length < CLOSURE_PAGE || page * CLOSURE_PAGE >= count) return result;
    }
  }

  /** The closures covering any unit of the building (as the engine resolves them), each occurrence once. */
  private async closuresOfBuilding(
    companyId: string,
    buildingId: string,
    window: Window,
  ): Promise<ClosureOccurrence[]> {
    const unitRows = await unitsInBuilding(this.db, companyId, buildingId);
    const byUnit = await closuresForUnits(this.db, unitRows, window.from, window.to);
    const seen = new Map<string, ClosureOccurrence>();
    for (const list of byUnit.values()) {
      for (const c of list) {
        if (!overlaps(window, c.start, c.end)) continue;
        seen.set(`${c.id}|${c.start.toISOString()}`, { closureId: c.id, start: c.start, end: c.end });
      }
    }
    return [...seen.values()];
  }

  /** Each building's public and school holidays and own days in the window, named in `lang`. */
  private async calendars(
    buildings: CalendarBuilding[],
    window: Window,
    zone: string,
    lang: HolidayLang,
  ): Promise<CalendarLayer[]> {
    if (buildings.length === 0) return [];
    const localDate = (at: Date, days: number) =>
      DateTime.fromJSDate(at, { zone }).plus({ days }).toISODate() ?? '';
    const daysBy = await buildingDaysFor(
      this.db,
      buildings.map((b) => b.id),
      localDate(window.from, -1),
      localDate(window.to, 1),
    );
    return buildings.flatMap((b) => {
      const days = daysBy.get(b.id) ?? [];
      const dayNames = new Map(days.map((d) => [d.date, d.name]));
      const calendar = buildingCalendar(b, days, zone, window.from, window.to);
      const building = { id: b.id, name: b.name };
      const layers: CalendarLayer[] = [];
      for (const c of calendar.closures) {
        const ref = parseCalendarClosureId(c.id);
        if (!ref || !overlaps(window, c.start, c.end)) continue;
        const name =
          (ref.kind === 'company_day' ? dayNames.get(ref.date) : calendarClosureName(ref, b, lang)) ??
          ref.date;
        layers.push({
          id: c.id,
          kind: ref.kind,
          name,
          start: c.start.toISOString(),
          end: c.end.toISOString(),
          mode: c.mode,
          building,
          unit: null,
        });
      }
      // A building that treats holidays like Sundays: the days themselves, without a heating mode.
      for (const date of new Set(calendar.sundays)) {
        const start = DateTime.fromISO(date, { zone });
        const end = start.plus({ days: 1 });
        if (!start.isValid || !overlaps(window, start.toJSDate(), end.toJSDate())) continue;
        const day = {
          start: start.toJSDate().toISOString(),
          end: end.toJSDate().toISOString(),
          mode: null,
          building,
        };
        const holiday = calendarClosureName({ buildingId: b.id, date, kind: 'holiday' }, b, lang);
        if (holiday)
          layers.push({
            ...day,
            id: holidayClosureId(b.id, date),
            kind: 'holiday',
            name: holiday,
            unit: null,
          });
        const own = dayNames.get(date);
        if (own !== undefined)
          layers.push({
            ...day,
            id: companyDayClosureId(b.id, date),
            kind: 'company_day',
            name: own,
            unit: null,
          });
      }
      return layers;
    });
  }

  /** Heating bookings of fresh feeds, at most CALENDAR_LAYERS_MAX_BOOKINGS. */
  private async bookings(
    companyId: string,
    window: Window,
    buildingId: string | undefined,
  ): Promise<{ layers: CalendarLayer[]; truncated: boolean }> {
    const rows = await companyBookingsBetween(this.db, companyId, {
      ...window,
      now: this.deps.now(),
      staleAfterMs: FEED_STALE_AFTER_MS,
      ...(buildingId ? { buildingId } : {}),
      limit: CALENDAR_LAYERS_MAX_BOOKINGS + 1,
    });
    const layers = rows.slice(0, CALENDAR_LAYERS_MAX_BOOKINGS).map((b) => ({
      id: `booking:${b.id}`,
      kind: 'booking' as const,
      name: b.title,
      start: b.start.toISOString(),
      end: b.end.toISOString(),
      mode: null,
      building: b.buildingId && b.buildingName !== null ? { id: b.buildingId, name: b.buildingName } : null,
      unit: { id: b.unitId, name: b.unitName },
    }));
    return { layers, truncated: rows.length > CALENDAR_LAYERS_MAX_BOOKINGS };
  }
}
