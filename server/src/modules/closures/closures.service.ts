/**
 * Closures (Schließzeiten, decision 0051): named periods with a heating mode over the whole
 * company, chosen buildings or floors, chosen groups or chosen units, minus exceptions, once or
 * recurring (an RRULE, heating/occurrences.ts). Every method checks membership first (404 for
 * strangers; reading needs `read`, writing `operate`). Rules:
 * - validation with the contracts' `closureRuleIssues` (which the web's dialog checks too) on
 *   the merged closure, all field errors in one 400, nothing written; a recurrence the `rrule`
 *   package cannot expand is refused the same way (`invalid_recurrence` on `recurrence`);
 * - buildings, groups, units and exceptions must be the company's (400 `unknown_building` /
 *   `unknown_group` / `unknown_unit` naming the field), a floor one its building lists (400
 *   `unknown_floor`) — checked when they are written, so a floor the building dropped later does
 *   not block changing the closure's name;
 * - only the targets of the chosen scope are kept: scope `company` has no buildings, groups or
 *   units, scope `buildings` only buildings, scope `groups` only groups, scope `units` only
 *   units and no exceptions (its units are exactly what it covers);
 * - any closure may be changed or deleted; a deleted running closure stops at once;
 * - the list filtered by a building needs a building of the company (404 `unknown_building`).
 * After every write the units the closure reaches (before and after) are marked due and the
 * scheduler is woken, so the engine applies the change on its normal evaluation. Status and the
 * next occurrence are computed from the occurrences in the company's zone.
 */
import {
  type Closure,
  type ClosureBuildingTargetSchema,
  type ClosureInputSchema,
  type ClosureListQuerySchema,
  type ClosureScope,
  type ClosureStatus,
  type ClosureUpdate,
  closureRuleIssues,
  type HeatingMode,
} from '@heizplan/contracts/closures';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import {
  currentOrNextOccurrence,
  lastOccurrenceEnd,
  type Occurrence,
  occurrencesWithin,
  recurrenceParseProblem,
} from '../../heating/occurrences.ts';
import type { HeatingServiceDeps } from '../../heating/services.ts';
import { badRequest, type FieldError, HttpError, notFound } from '../../http/errors.ts';
import { isCompanyBuilding } from '../buildings/buildings.service.ts';
import { ownedUnitIds } from '../units/units.service.ts';
import * as repo from './closures.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { companyZone, listClosures, targetsOf } from './closures.repository.ts';

type ClosureInput = z.output<typeof ClosureInputSchema>;
type ListQuery = z.output<typeof ClosureListQuerySchema>;
type BuildingTarget = z.output<typeof ClosureBuildingTargetSchema>;

export const UNKNOWN_UNIT = 'Unknown unit';
export const UNKNOWN_GROUP = 'Unknown group';
export const UNKNOWN_BUILDING = 'Unknown building';
/** Zone of a company whose row vanished meanwhile; its closures are about to go too. */
const FALLBACK_ZONE = 'Europe/Berlin';

/** The closure as the service checks and stores it. */
interface Draft {
  name: string;
  note: string;
  start: Date;
  end: Date;
  recurrence: string | null;
  mode: HeatingMode;
  scope: ClosureScope;
  buildings: BuildingTarget[];
  unitIds: string[];
  groupIds: string[];
  exceptionIds: string[];
}

/** Status from the occurrence running at `now` or the next one (null: all have ended). */
export function closureStatus(occurrence: Occurrence | null, now: Date): ClosureStatus {
  if (!occurrence) return 'past';
  return occurrence.start.getTime() > now.getTime() ? 'upcoming' : 'running';
}

/**
 * The contracts' closure rules on the merged closure, then whether `rrule` can expand its
 * recurrence.
 * @throws HttpError 400 with every broken rule as a field error.
 */
function requireValidDraft(d: Draft) {
  const errors: FieldError[] = closureRuleIssues({ ...d, units: d.unitIds, groups: d.groupIds });
  const ruleChecked = errors.some((e) => e.field === 'recurrence');
  const unreadable = d.recurrence && !ruleChecked ? recurrenceParseProblem(d.recurrence) : null;
  if (unreadable) errors.push({ field: 'recurrence', message: unreadable, code: 'invalid_recurrence' });
  const [first] = errors;
  if (first?.code) throw new HttpError(400, 'Bad Request', first.message, errors, { code: first.code });
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Each building and floor once. */
function uniqueBuildings(targets: readonly BuildingTarget[]): BuildingTarget[] {
  const seen = new Map<string, BuildingTarget>();
  for (const t of targets) seen.set(`${t.buildingId}\u0000${t.floor ?? ''}`, t);
  return [...seen.values()];
}

/** A recurrence trimmed and upper-cased (RRULE names and values are case-insensitive). */
const recurrenceOf = (value: string | null) => (value === null ? null : value.trim().toUpperCase());

/** Keeps only the targets of the chosen scope, without duplicates. */
function normalise(d: Draft): Draft {
  return {
    ...d,
    recurrence: recurrenceOf(d.recurrence),
    buildings: d.scope === 'buildings' ? uniqueBuildings(d.buildings) : [],
    unitIds: d.scope === 'units' ? unique(d.unitIds) : [],
    groupIds: d.scope === 'groups' ? unique(d.groupIds) : [],
    exceptionIds: d.scope === 'units' ? [] : unique(d.exceptionIds),
  };
}

function draftOf(c: Closure): Draft {
  return {
    name: c.name,
    note: c.note,
    start: new Date(c.start),
    end: new Date(c.end),
    recurrence: c.recurrence,
    mode: c.mode,
    scope: c.scope,
    buildings: c.buildings.map((b) => ({ buildingId: b.id, floor: b.floor })),
    unitIds: c.units.map((u) => u.id),
    groupIds: c.groups.map((g) => g.id),
    exceptionIds: c.exceptions.map((u) => u.id),
  };
}

/** The closure's columns, with the end of its last occurrence in `zone`. */
function columnsOf(d: Draft, zone: string) {
  return {
    name: d.name,
    note: d.note,
    start: d.start,
    end: d.end,
    recurrence: d.recurrence,
    lastEnd: lastOccurrenceEnd(d, zone),
    mode: d.mode,
    scope: d.scope,
  };
}

const targetsOf = (d: Draft): repo.ClosureTargets => ({
  buildings: d.buildings.map((b) => ({ buildingId: b.buildingId, floor: b.floor ?? '' })),
  unitIds: d.unitIds,
  groupIds: d.groupIds,
  exceptionIds: d.exceptionIds,
});

export class ClosuresService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** @throws 404 `unknown_building` for a `buildingId` that is not the company's. */
  async list(userId: string, companyId: string, q: ListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    if (q.buildingId && !(await isCompanyBuilding(this.db, companyId, q.buildingId)))
      throw notFound(UNKNOWN_BUILDING, { code: 'unknown_building' });
    const now = this.deps.now();
    const zone = await this.zone(companyId);
    const filter: repo.ClosureListFilter = {
      ...q,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    };
    filter.excludeIds = await this.withoutOccurrenceInRange(companyId, filter, zone, now);
    const { rows, count } = await repo.listClosures(this.db, companyId, filter, now);
    return { results: await this.toResponses(rows, zone, now), count, page: q.page, size: q.size };
  }

  /**
   * Recurring closures the list's filters pass by their first start and last end although none
   * of their occurrences overlaps the range [from or now, to): only a range with an upper bound
   * can leave such gaps.
   */
  private async withoutOccurrenceInRange(
    companyId: string,
    f: repo.ClosureListFilter,
    zone: string,
    now: Date,
  ): Promise<string[]> {
    if (!f.to) return [];
    const lower = [f.from, f.includePast ? undefined : now].filter((d): d is Date => d !== undefined);
    if (lower.length === 0) return [];
    const from = new Date(Math.max(...lower.map((d) => d.getTime())));
    const to = f.to;
    const candidates = await repo.recurringListed(this.db, companyId, f, now);
    return candidates.filter((c) => occurrencesWithin(c, zone, from, to, 1).length === 0).map((c) => c.id);
  }

  /** @throws 404 unknown closure (also another company's). */
  async get(userId: string, companyId: string, closureId: string): Promise<Closure> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.load(companyId, closureId);
  }

  /** @throws 400 (rules, or groups/units of another company). */
  async create(userId: string, companyId: string, input: ClosureInput): Promise<Closure> {
    await requireMember(this.db, userId, companyId, 'operate');
    const draft = normalise({
      ...input,
      start: new Date(input.start),
      end: new Date(input.end),
      unitIds: input.units,
      groupIds: input.groups,
      exceptionIds: input.exceptions,
    });
    requireValidDraft(draft);
    await this.requireOwnTargets(companyId, draft, true);
    const now = this.deps.now();
    const zone = await this.zone(companyId);
    const closureId = await this.db.transaction(async (tx) => {
      const id = await repo.insertClosure(
        tx,
        companyId,
        { ...columnsOf(draft, zone), createdBy: userId },
        targetsOf(draft),
      );
      await this.markAffectedDue(tx, companyId, id, draft.scope, now);
      return id;
    });
    this.deps.wake();
    return this.load(companyId, closureId);
  }

  /** Changes only the fields given. @throws 400 (rules, foreign targets), 404 unknown closure. */
  async update(userId: string, companyId: string, closureId: string, patch: ClosureUpdate): Promise<Closure> {
    await requireMember(this.db, userId, companyId, 'operate');
    const before = draftOf(await this.load(companyId, closureId));
    const after = normalise({
      name: patch.name ?? before.name,
      note: patch.note ?? before.note,
      start: patch.start ? new Date(patch.start) : before.start,
      end: patch.end ? new Date(patch.end) : before.end,
      recurrence: patch.recurrence !== undefined ? patch.recurrence : before.recurrence,
      mode: patch.mode ?? before.mode,
      scope: patch.scope ?? before.scope,
      buildings: patch.buildings ?? before.buildings,
      unitIds: patch.units ?? before.unitIds,
      groupIds: patch.groups ?? before.groupIds,
      exceptionIds: patch.exceptions ?? before.exceptionIds,
    });
    requireValidDraft(after);
    await this.requireOwnTargets(
      companyId,
      after,
      patch.buildings !== undefined || patch.scope !== undefined,
    );
    const targetsChanged =
      patch.scope !== undefined ||
      patch.buildings !== undefined ||
      patch.units !== undefined ||
      patch.groups !== undefined ||
      patch.exceptions !== undefined;
    const now = this.deps.now();
    const zone = await this.zone(companyId);
    await this.write(companyId, closureId, [before.scope, after.scope], now, (tx) =>
      repo.updateClosure(
        tx,
        companyId,
        closureId,
        { ...columnsOf(after, zone), updatedAt: now },
        targetsChanged ? targetsOf(after) : undefined,
      ),
    );
    return this.load(companyId, closureId);
  }

  /** Deletes the closure; a running one stops at once. @throws 404 unknown closure. */
  async remove(userId: string, companyId: string, closureId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, closureId);
    await this.write(companyId, closureId, [current.scope], this.deps.now(), (tx) =>
      repo.deleteClosure(tx, companyId, closureId),
    );
  }

  /**
   * Runs `change` in a transaction and marks the units the closure reaches before and after it
   * due: with scope `company` before or after, every unit of the company.
   */
  private async write(
    companyId: string,
    closureId: string,
    scopes: ClosureScope[],
    now: Date,
    change: (tx: Db) => Promise<unknown>,
  ) {
    await this.db.transaction(async (tx) => {
      if (scopes.includes('company')) {
        await change(tx);
        await inputsChanged(tx, { companyId, all: true }, now);
        return;
      }
      const before = await repo.affectedUnitIds(tx, companyId, closureId);
      await change(tx);
      const after = await repo.affectedUnitIds(tx, companyId, closureId);
      await inputsChanged(tx, { companyId, unitIds: unique([...before, ...after]) }, now);
    });
    this.deps.wake();
  }

  private async markAffectedDue(
    tx: Db,
    companyId: string,
    closureId: string,
    scope: ClosureScope,
    now: Date,
  ) {
    if (scope === 'company') await inputsChanged(tx, { companyId, all: true }, now);
    else
      await inputsChanged(
        tx,
        { companyId, unitIds: await repo.affectedUnitIds(tx, companyId, closureId) },
        now,
      );
  }

  /**
   * @throws 400 'Unknown unit' / 'Unknown group' / 'Unknown building' naming each field with ids
   * that are not the company's, `unknown_floor` for a floor its building does not list (only
   * when `buildingsWritten`: a floor removed from the building later does not block changes).
   */
  private async requireOwnTargets(companyId: string, d: Draft, buildingsWritten: boolean) {
    const errors: FieldError[] = [];
    if (buildingsWritten && d.buildings.length > 0) {
      const floors = await repo.ownedBuildingFloors(
        this.db,
        companyId,
        unique(d.buildings.map((b) => b.buildingId)),
      );
      const unknown = d.buildings.find((b) => !floors.has(b.buildingId));
      const badFloor = d.buildings.find(
        (b) => b.floor !== null && !floors.get(b.buildingId)?.includes(b.floor),
      );
      if (unknown) errors.push({ field: 'buildings', message: UNKNOWN_BUILDING, code: 'unknown_building' });
      else if (badFloor?.floor)
        errors.push({
          field: 'buildings',
          message: `The building has no floor "${badFloor.floor}".`,
          code: 'unknown_floor',
          params: { floor: badFloor.floor },
        });
    }
    const ownedGroups = await repo.ownedGroupIds(this.db, companyId, d.groupIds);
    if (ownedGroups.length !== d.groupIds.length)
      errors.push({ field: 'groups', message: UNKNOWN_GROUP, code: 'unknown_group' });
    for (const [field, ids] of [
      ['units', d.unitIds],
      ['exceptions', d.exceptionIds],
    ] as const) {
      const owned = await ownedUnitIds(this.db, companyId, ids);
      if (owned.length !== ids.length) errors.push({ field, message: UNKNOWN_UNIT, code: 'unknown_unit' });
    }
    const [first] = errors;
    if (first?.code)
      throw badRequest(first.message, errors, {
        code: first.code,
        ...(first.params ? { params: first.params } : {}),
      });
  }

  /**
   * After the company's time zone changed: the last occurrence of a recurring closure with an
   * UNTIL or COUNT ends at another instant, which decides whether it still counts (`endsAfter`).
   * @returns how many closures changed.
   */
  async zoneChanged(companyId: string): Promise<number> {
    const zone = await this.zone(companyId);
    const changed = (await repo.recurringClosures(this.db, companyId))
      .map((c) => ({ id: c.id, before: c.lastEnd, lastEnd: lastOccurrenceEnd(c, zone) }))
      .filter((c) => c.before?.getTime() !== c.lastEnd?.getTime());
    await repo.setLastEnds(this.db, companyId, changed);
    return changed.length;
  }

  private async zone(companyId: string): Promise<string> {
    return (await repo.companyZone(this.db, companyId)) ?? FALLBACK_ZONE;
  }

  private async load(companyId: string, closureId: string): Promise<Closure> {
    const row = await repo.findClosure(this.db, companyId, closureId);
    const [closure] = row ? await this.toResponses([row], await this.zone(companyId), this.deps.now()) : [];
    if (!closure) throw notFound('Unknown closure', { code: 'unknown_closure' });
    return closure;
  }

  private async toResponses(
    rows: { closure: repo.ClosureRow; creatorName: string | null }[],
    zone: string,
    now: Date,
  ): Promise<Closure[]> {
    const { unitsBy, groupsBy, exceptionsBy, buildingsBy } = await repo.targetsOf(
      this.db,
      rows.map((r) => r.closure.id),
    );
    return rows.map(({ closure: c, creatorName }) => {
      const next = currentOrNextOccurrence(c, zone, now);
      return {
        id: c.id,
        name: c.name,
        note: c.note,
        start: c.start.toISOString(),
        end: c.end.toISOString(),
        recurrence: c.recurrence,
        nextOccurrence: next ? { start: next.start.toISOString(), end: next.end.toISOString() } : null,
        mode: c.mode,
        scope: c.scope,
        buildings: buildingsBy.get(c.id) ?? [],
        groups: groupsBy.get(c.id) ?? [],
        units: unitsBy.get(c.id) ?? [],
        exceptions: exceptionsBy.get(c.id) ?? [],
        status: closureStatus(next, now),
        createdAt: c.createdAt.toISOString(),
        createdBy: c.createdBy ? { id: c.createdBy, name: creatorName ?? '' } : null,
      };
    });
  }
}
