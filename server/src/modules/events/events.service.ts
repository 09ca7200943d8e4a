/**
 * One-time heating events (spec §2 "Events screen", §3 "Event", §5, docs/architecture.md
 * item 2). Every method checks membership first (404 for strangers). Rules:
 * - validation with the spec's messages (the contracts' `eventRuleIssues`), all field errors
 *   in one 400, nothing written;
 * - an upcoming event can be changed freely; a running one only shortened or ended (its title
 *   and note may change); a past one is read-only (409);
 * - deleting a running event ends it now (the row is kept, hidden, so the engine still logs
 *   `one_time_end`); deleting an upcoming one removes it.
 * After every write the units the event reaches (before and after) are marked due and the
 * scheduler is woken, so the engine applies the change on its normal evaluation.
 */
import {
  type EventInputSchema,
  type EventListQuerySchema,
  type EventStatus,
  type EventUpdate,
  eventRuleIssues,
  type HeatingEvent,
} from '@heizplan/contracts/events';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import type { TemperatureRange } from '../units/temperature-range.ts';
import { ownedUnitIds } from '../units/units.service.ts';
import * as repo from './events.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { eventTitles } from './events.repository.ts';

export const PAST_READ_ONLY = 'A past event is read-only.';
export const RUNNING_ONLY_SHORTEN = 'A running event can only be shortened or ended.';
export const NOT_RUNNING = 'Only a running event can be ended.';

type EventInput = z.output<typeof EventInputSchema>;
type ListQuery = z.output<typeof EventListQuerySchema>;

/** The event as the service checks and stores it. */
interface Draft {
  title: string;
  note: string;
  start: Date;
  end: Date | null;
  /** °C */
  temperature: number;
  preventRegular: boolean;
  groupMode: boolean;
  unitIds: string[];
  groupIds: string[];
}

export function eventStatus(start: Date, end: Date | null, now: Date): EventStatus {
  if (start.getTime() > now.getTime()) return 'upcoming';
  if (end && end.getTime() <= now.getTime()) return 'past';
  return 'running';
}

/**
 * The contracts' event rules (`eventRuleIssues`, which the web's dialog checks too) on the
 * merged event, with the company's range and the server's clock.
 * @throws HttpError 400 with every broken rule as a field error (spec §5 messages).
 */
function requireValidDraft(d: Draft, range: TemperatureRange, now: Date, endChanged: boolean) {
  const errors = eventRuleIssues({ ...d, units: d.unitIds, groups: d.groupIds }, { now, endChanged, range });
  const [first] = errors;
  if (first) throw new HttpError(400, 'Bad Request', first.message, errors, { code: first.code });
}

const sameIds = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();
const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** A running event may only get an earlier (or a first) end; everything heating-relevant stays. */
function isShorteningOnly(before: Draft, after: Draft): boolean {
  const endOk = after.end !== null && (before.end === null || after.end.getTime() <= before.end.getTime());
  return (
    (endOk || sameTime(before.end, after.end)) &&
    sameTime(before.start, after.start) &&
    before.temperature === after.temperature &&
    before.preventRegular === after.preventRegular &&
    before.groupMode === after.groupMode &&
    sameIds(before.unitIds, after.unitIds) &&
    sameIds(before.groupIds, after.groupIds)
  );
}

export class EventsService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string, q: ListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    const now = this.deps.now();
    const { rows, count } = await repo.listEvents(
      this.db,
      companyId,
      { ...q, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined },
      now,
    );
    return { results: await this.toResponses(rows, now), count, page: q.page, size: q.size };
  }

  async get(userId: string, companyId: string, eventId: string): Promise<HeatingEvent> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.load(companyId, eventId);
  }

  /** @throws 400 (field errors), 404 unknown unit or group. */
  async create(userId: string, companyId: string, input: EventInput): Promise<HeatingEvent> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const draft = normalise({
      ...input,
      start: new Date(input.start),
      end: input.end ? new Date(input.end) : null,
      unitIds: input.units,
      groupIds: input.groups,
    });
    const now = this.deps.now();
    requireValidDraft(draft, { min: company.minTemperature, max: company.maxTemperature }, now, true);
    await this.requireOwnTargets(companyId, draft);
    const eventId = await this.db.transaction(async (tx) => {
      const id = await repo.insertEvent(
        tx,
        companyId,
        { ...columnsOf(draft), createdBy: userId },
        draft.unitIds,
        draft.groupIds,
      );
      await inputsChanged(tx, { companyId, unitIds: await repo.affectedUnitIds(tx, companyId, id) }, now);
      return id;
    });
    this.deps.wake();
    return this.load(companyId, eventId);
  }

  /** @throws 400 (field errors), 404 unknown event/unit/group, 409 past or not only shortening a running event. */
  async update(
    userId: string,
    companyId: string,
    eventId: string,
    patch: EventUpdate,
  ): Promise<HeatingEvent> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, eventId);
    const now = this.deps.now();
    const before = draftOf(current);
    const after = normalise({
      title: patch.title ?? before.title,
      note: patch.note ?? before.note,
      start: patch.start ? new Date(patch.start) : before.start,
      end: patch.end === undefined ? before.end : patch.end === null ? null : new Date(patch.end),
      temperature: patch.temperature ?? before.temperature,
      preventRegular: patch.preventRegular ?? before.preventRegular,
      groupMode: patch.groupMode ?? before.groupMode,
      unitIds: patch.units ?? before.unitIds,
      groupIds: patch.groups ?? before.groupIds,
    });
    const status = eventStatus(before.start, before.end, now);
    if (status === 'past') throw conflict(PAST_READ_ONLY, { code: 'event_past_read_only' });
    if (status === 'running' && !isShorteningOnly(before, after))
      throw conflict(RUNNING_ONLY_SHORTEN, { code: 'event_running_only_shorten' });
    const range = { min: company.minTemperature, max: company.maxTemperature };
    requireValidDraft(after, range, now, !sameTime(before.end, after.end));
    await this.requireOwnTargets(companyId, after);
    await this.write(companyId, eventId, now, async (tx) =>
      repo.updateEvent(tx, companyId, eventId, { ...columnsOf(after), updatedAt: now }, after),
    );
    return this.load(companyId, eventId);
  }

  /** Ends a running event now. @throws 404, 409 when the event is not running. */
  async endNow(userId: string, companyId: string, eventId: string): Promise<HeatingEvent> {
    await requireMember(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, eventId);
    const now = this.deps.now();
    if (current.status !== 'running') throw conflict(NOT_RUNNING, { code: 'event_not_running' });
    await this.write(companyId, eventId, now, (tx) =>
      repo.updateEvent(tx, companyId, eventId, { end: now, updatedAt: now }),
    );
    return this.load(companyId, eventId);
  }

  /** @throws 404, 409 for a past event. */
  async remove(userId: string, companyId: string, eventId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, eventId);
    const now = this.deps.now();
    if (current.status === 'past') throw conflict(PAST_READ_ONLY, { code: 'event_past_read_only' });
    await this.write(companyId, eventId, now, (tx) =>
      current.status === 'running'
        ? repo.updateEvent(tx, companyId, eventId, { end: now, deletedAt: now, updatedAt: now })
        : repo.deleteEvent(tx, companyId, eventId),
    );
  }

  /** Runs `change` in a transaction and marks the units reached before and after it due. */
  private async write(companyId: string, eventId: string, now: Date, change: (tx: Db) => Promise<unknown>) {
    await this.db.transaction(async (tx) => {
      const before = await repo.affectedUnitIds(tx, companyId, eventId);
      await change(tx);
      const after = await repo.affectedUnitIds(tx, companyId, eventId);
      await inputsChanged(tx, { companyId, unitIds: [...new Set([...before, ...after])] }, now);
    });
    this.deps.wake();
  }

  /** @throws 404 'Unknown unit' / 'Unknown group' for ids that are not the company's. */
  private async requireOwnTargets(companyId: string, d: Draft) {
    const owned = d.groupMode
      ? await repo.ownedGroupIds(this.db, companyId, d.groupIds)
      : await ownedUnitIds(this.db, companyId, d.unitIds);
    const ids = d.groupMode ? d.groupIds : d.unitIds;
    if (owned.length !== ids.length) {
      throw d.groupMode
        ? notFound('Unknown group', { code: 'unknown_group' })
        : notFound('Unknown unit', { code: 'unknown_unit' });
    }
  }

  private async load(companyId: string, eventId: string): Promise<HeatingEvent> {
    const row = await repo.findEvent(this.db, companyId, eventId);
    if (!row) throw notFound('Unknown event', { code: 'unknown_event' });
    const [event] = await this.toResponses([row], this.deps.now());
    if (!event) throw notFound('Unknown event', { code: 'unknown_event' });
    return event;
  }

  private async toResponses(
    rows: { event: repo.EventRow; creatorName: string | null }[],
    now: Date,
  ): Promise<HeatingEvent[]> {
    const { unitsBy, groupsBy } = await repo.targetsOf(
      this.db,
      rows.map((r) => r.event.id),
    );
    return rows.map(({ event: e, creatorName }) => ({
      id: e.id,
      title: e.title,
      note: e.note,
      start: e.start.toISOString(),
      end: e.end?.toISOString() ?? null,
      temperature: e.temperature,
      preventRegular: e.preventRegular,
      groupMode: e.groupMode,
      units: unitsBy.get(e.id) ?? [],
      groups: groupsBy.get(e.id) ?? [],
      status: eventStatus(e.start, e.end, now),
      createdAt: e.createdAt.toISOString(),
      createdBy: e.createdBy ? { id: e.createdBy, name: creatorName ?? '' } : null,
    }));
  }
}

/** Keeps only the targets of the chosen mode, without duplicates. */
function normalise(d: Draft): Draft {
  return {
    ...d,
    unitIds: d.groupMode ? [] : [...new Set(d.unitIds)],
    groupIds: d.groupMode ? [...new Set(d.groupIds)] : [],
  };
}

function draftOf(e: HeatingEvent): Draft {
  return {
    title: e.title,
    note: e.note,
    start: new Date(e.start),
    end: e.end ? new Date(e.end) : null,
    temperature: e.temperature,
    preventRegular: e.preventRegular,
    groupMode: e.groupMode,
    unitIds: e.units.map((u) => u.id),
    groupIds: e.groups.map((g) => g.id),
  };
}

function columnsOf(d: Draft) {
  return {
    title: d.title,
    note: d.note,
    start: d.start,
    end: d.end,
    temperature: d.temperature,
    preventRegular: d.preventRegular,
    groupMode: d.groupMode,
  };
}
