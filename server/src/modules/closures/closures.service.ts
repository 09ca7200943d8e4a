/**
 * Closures (Schließzeiten, decision 0051): named periods with a heating mode over the whole
 * company, chosen groups or chosen units, minus exceptions. Every method checks membership first
 * (404 for strangers; reading needs `read`, writing `operate`). Rules:
 * - validation with the contracts' `closureRuleIssues` (which the web's dialog checks too) on
 *   the merged closure, all field errors in one 400, nothing written;
 * - groups, units and exceptions must be the company's (400 `unknown_group` / `unknown_unit`
 *   naming the field);
 * - only the targets of the chosen scope are kept: scope `company` has no groups or units,
 *   scope `groups` no units, scope `units` no groups and no exceptions (its units are exactly
 *   what it covers);
 * - any closure may be changed or deleted; a deleted running closure stops at once.
 * After every write the units the closure reaches (before and after) are marked due and the
 * scheduler is woken, so the engine applies the change on its normal evaluation.
 */
import {
  type Closure,
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
import { badRequest, type FieldError, HttpError, notFound } from '../../http/errors.ts';
import { markCompanyUnitsDue } from '../../scheduling/heating-apply.ts';
import type { HeatingServiceDeps } from '../../scheduling/heating-services.ts';
import { ownedUnitIds } from '../units/units.repository.ts';
import * as repo from './closures.repository.ts';

type ClosureInput = z.output<typeof ClosureInputSchema>;
type ListQuery = z.output<typeof ClosureListQuerySchema>;

export const UNKNOWN_UNIT = 'Unknown unit';
export const UNKNOWN_GROUP = 'Unknown group';

/** The closure as the service checks and stores it. */
interface Draft {
  name: string;
  note: string;
  start: Date;
  end: Date;
  mode: HeatingMode;
  scope: ClosureScope;
  unitIds: string[];
  groupIds: string[];
  exceptionIds: string[];
}

export function closureStatus(start: Date, end: Date, now: Date): ClosureStatus {
  if (start.getTime() > now.getTime()) return 'upcoming';
  if (end.getTime() <= now.getTime()) return 'past';
  return 'running';
}

/**
 * The contracts' closure rules on the merged closure.
 * @throws HttpError 400 with every broken rule as a field error.
 */
function requireValidDraft(d: Draft) {
  const errors = closureRuleIssues({ ...d, units: d.unitIds, groups: d.groupIds });
  const [first] = errors;
  if (first) throw new HttpError(400, 'Bad Request', first.message, errors, { code: first.code });
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Keeps only the targets of the chosen scope, without duplicates. */
function normalise(d: Draft): Draft {
  return {
    ...d,
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
    mode: c.mode,
    scope: c.scope,
    unitIds: c.units.map((u) => u.id),
    groupIds: c.groups.map((g) => g.id),
    exceptionIds: c.exceptions.map((u) => u.id),
  };
}

function columnsOf(d: Draft) {
  return { name: d.name, note: d.note, start: d.start, end: d.end, mode: d.mode, scope: d.scope };
}

const targetsOf = (d: Draft): repo.ClosureTargets => ({
  unitIds: d.unitIds,
  groupIds: d.groupIds,
  exceptionIds: d.exceptionIds,
});

export class ClosuresService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string, q: ListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    const now = this.deps.now();
    const { rows, count } = await repo.listClosures(
      this.db,
      companyId,
      { ...q, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined },
      now,
    );
    return { results: await this.toResponses(rows, now), count, page: q.page, size: q.size };
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
    await this.requireOwnTargets(companyId, draft);
    const now = this.deps.now();
    const closureId = await this.db.transaction(async (tx) => {
      const id = await repo.insertClosure(
        tx,
        companyId,
        { ...columnsOf(draft), createdBy: userId },
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
      mode: patch.mode ?? before.mode,
      scope: patch.scope ?? before.scope,
      unitIds: patch.units ?? before.unitIds,
      groupIds: patch.groups ?? before.groupIds,
      exceptionIds: patch.exceptions ?? before.exceptionIds,
    });
    requireValidDraft(after);
    await this.requireOwnTargets(companyId, after);
    const targetsChanged =
      patch.scope !== undefined ||
      patch.units !== undefined ||
      patch.groups !== undefined ||
      patch.exceptions !== undefined;
    const now = this.deps.now();
    await this.write(companyId, closureId, [before.scope, after.scope], now, (tx) =>
      repo.updateClosure(
        tx,
        companyId,
        closureId,
        { ...columnsOf(after), updatedAt: now },
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
        await markCompanyUnitsDue(tx, companyId, now);
        return;
      }
      const before = await repo.affectedUnitIds(tx, companyId, closureId);
      await change(tx);
      const after = await repo.affectedUnitIds(tx, companyId, closureId);
      await repo.markUnitsDue(tx, companyId, unique([...before, ...after]), now);
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
    if (scope === 'company') await markCompanyUnitsDue(tx, companyId, now);
    else await repo.markUnitsDue(tx, companyId, await repo.affectedUnitIds(tx, companyId, closureId), now);
  }

  /** @throws 400 'Unknown unit' / 'Unknown group' naming each field with ids that are not the company's. */
  private async requireOwnTargets(companyId: string, d: Draft) {
    const errors: FieldError[] = [];
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
    if (first?.code) throw badRequest(first.message, errors, { code: first.code });
  }

  private async load(companyId: string, closureId: string): Promise<Closure> {
    const row = await repo.findClosure(this.db, companyId, closureId);
    const [closure] = row ? await this.toResponses([row], this.deps.now()) : [];
    if (!closure) throw notFound('Unknown closure', { code: 'unknown_closure' });
    return closure;
  }

  private async toResponses(
    rows: { closure: repo.ClosureRow; creatorName: string | null }[],
    now: Date,
  ): Promise<Closure[]> {
    const { unitsBy, groupsBy, exceptionsBy } = await repo.targetsOf(
      this.db,
      rows.map((r) => r.closure.id),
    );
    return rows.map(({ closure: c, creatorName }) => ({
      id: c.id,
      name: c.name,
      note: c.note,
      start: c.start.toISOString(),
      end: c.end.toISOString(),
      mode: c.mode,
      scope: c.scope,
      groups: groupsBy.get(c.id) ?? [],
      units: unitsBy.get(c.id) ?? [],
      exceptions: exceptionsBy.get(c.id) ?? [],
      status: closureStatus(c.start, c.end, now),
      createdAt: c.createdAt.toISOString(),
      createdBy: c.createdBy ? { id: c.createdBy, name: creatorName ?? '' } : null,
    }));
  }
}
