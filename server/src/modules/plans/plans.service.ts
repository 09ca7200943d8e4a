/**
 * Heating plans of a unit or a group (spec §5): shape checked by zod, semantics by the
 * engine's `validatePlan` so the messages are the spec's ('Invalid schedule!', 'Invalid time!',
 * 'Value exceeds temperature range set by your company.'). Group plans are refused (409) while
 * any unit of the group has its own active plan (spec §2 "Groups"). Every change re-evaluates
 * the affected units in the same transaction.
 */
import type { PlanExportQuerySchema } from '@heizplan/contracts/exports';
import type { Plan, PlanInput } from '@heizplan/contracts/heating';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { validatePlan } from '../../heating/engine/engine.ts';
import { findOverlap } from '../../heating/engine/overlap.ts';
import type { HeatingPlan } from '../../heating/engine/types.ts';
import { PLAN_ISSUE_DETAILS, PLAN_ISSUE_MESSAGES } from '../../heating/engine/validate.ts';
import type { CompanyHeating } from '../../heating/inputs.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import { findGroup, unitIdsOfGroup } from '../groups/groups.service.ts';
import { findUnit } from '../units/units.service.ts';
import * as repo from './plans.repository.ts';
import { exportPlans } from './plans-export.ts';

/** Stored columns of a plan input; fields of the other kind are dropped. */
export function planColumns(input: PlanInput) {
  const seasonal = input.kind === 'seasonal';
  return {
    name: input.name,
    kind: input.kind,
    active: input.active,
    validFrom: seasonal ? (input.validFrom ?? null) : null,
    validTo: seasonal ? (input.validTo ?? null) : null,
    dates: seasonal ? null : (input.dates ?? []),
    switchPoints: input.switchPoints,
  };
}

export function draftPlan(id: string, input: PlanInput): HeatingPlan {
  const c = planColumns(input);
  return {
    id,
    kind: c.kind,
    active: c.active,
    ...(c.validFrom ? { validFrom: c.validFrom } : {}),
    ...(c.validTo ? { validTo: c.validTo } : {}),
    ...(c.dates ? { dates: c.dates } : {}),
    switchPoints: c.switchPoints,
  };
}

/** The problem code of each engine issue; `out_of_range` is shared with units and events. */
const PLAN_ISSUE_CODES = {
  invalid_schedule: 'plan_invalid_schedule',
  invalid_time: 'plan_invalid_time',
  out_of_range: 'out_of_range',
  below_range: 'below_range',
} as const;

/**
 * @throws HttpError 400 whose title/detail is the spec message of the first issue and whose
 * `errors` list every issue by field (e.g. `switchPoints.2.hour`).
 */
export function requireValidPlan(input: PlanInput, company: CompanyHeating): void {
  const issues = validatePlan(draftPlan('draft', input), {
    min: company.minTemperature,
    max: company.maxTemperature,
  });
  const first = issues[0];
  if (!first) return;
  throw new HttpError(
    400,
    PLAN_ISSUE_MESSAGES[first.code],
    PLAN_ISSUE_DETAILS[first.code],
    issues.map((i) => ({
      field: i.field,
      message: i.message,
      code: PLAN_ISSUE_CODES[i.code],
      ...(i.params ? { params: i.params } : {}),
    })),
    { code: PLAN_ISSUE_CODES[first.code], ...(first.params ? { params: first.params } : {}) },
  );
}

/**
 * Refuses an active plan that would share a day with another active plan of the same kind and
 * owner (decision 0042): the engine would let only the older one govern that day.
 * `planId` is the stored plan being changed (never in conflict with itself), null for a new one.
 * @throws HttpError 409 with code `plan_overlap_seasonal` (params plan, planId, from, to) or
 * `plan_overlap_dates` (params plan, planId, dates), naming the other plan.
 */
export async function requireNoOverlap(
  db: Db,
  companyId: string,
  owner: repo.PlanOwner,
  input: PlanInput,
  planId: string | null,
): Promise<void> {
  if (!input.active) return;
  const others = (await repo.listPlans(db, companyId, owner)).filter((p) => p.active && p.id !== planId);
  const hit = findOverlap(planColumns(input), others);
  if (!hit) return;
  const { other, dates } = hit;
  if (other.kind === 'seasonal') {
    const period = `${other.validFrom} – ${other.validTo}`;
    throw conflict(
      `This plan overlaps the active seasonal plan "${other.name || period}" (${other.validFrom} to ${other.validTo}): only one seasonal plan can apply on a day. Change the dates or deactivate one of the plans.`,
      {
        code: 'plan_overlap_seasonal',
        params: {
          plan: other.name || period,
          planId: other.id,
          from: other.validFrom ?? '',
          to: other.validTo ?? '',
        },
      },
    );
  }
  const shared = dates.join(', ');
  throw conflict(
    `This plan shares ${shared} with the active plan "${other.name || shared}": only one specific-days plan can apply on a date. Remove the date or deactivate one of the plans.`,
    { code: 'plan_overlap_dates', params: { plan: other.name || shared, planId: other.id, dates: shared } },
  );
}

function toPlanResponse(r: repo.PlanRow): Plan {
  return {
    id: r.id,
    unitId: r.unitId,
    groupId: r.groupId,
    name: r.name,
    kind: r.kind,
    active: r.active,
    validFrom: r.validFrom,
    validTo: r.validTo,
    dates: r.dates,
    switchPoints: r.switchPoints,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function inputOf(r: repo.PlanRow): PlanInput {
  return {
    name: r.name,
    kind: r.kind,
    active: r.active,
    validFrom: r.validFrom,
    validTo: r.validTo,
    dates: r.dates,
    switchPoints: r.switchPoints,
  };
}

export class PlansService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string, owner: repo.PlanOwner): Promise<Plan[]> {
    await requireMember(this.db, userId, companyId, 'read');
    await this.requireOwner(companyId, owner);
    return (await repo.listPlans(this.db, companyId, owner)).map(toPlanResponse);
  }

  /** Every plan of the company as a file (`plans-export.ts`). @throws HttpError 404 for a stranger. */
  export(userId: string, companyId: string, query: z.output<typeof PlanExportQuerySchema>) {
    return exportPlans(this.db, userId, companyId, query);
  }

  async get(userId: string, companyId: string, planId: string): Promise<Plan> {
    await requireMember(this.db, userId, companyId, 'read');
    return toPlanResponse(await this.load(companyId, planId));
  }

  /** @throws 400 invalid plan, 404 unknown unit/group, 409 group plans unavailable or an overlap. */
  async create(userId: string, companyId: string, owner: repo.PlanOwner, input: PlanInput): Promise<Plan> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    await this.requireOwner(companyId, owner);
    requireValidPlan(input, company);
    if ('groupId' in owner) await this.requireGroupPlansAvailable(companyId, owner.groupId);
    await requireNoOverlap(this.db, companyId, owner, input, null);
    const row = await this.db.transaction(async (tx) => {
      const created = await repo.insertPlan(tx, { companyId, ...owner, ...planColumns(input) });
      await this.evaluateOwner(tx, companyId, owner);
      return created;
    });
    this.deps.wake();
    return toPlanResponse(row);
  }

  async update(userId: string, companyId: string, planId: string, patch: Partial<PlanInput>): Promise<Plan> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, planId);
    const merged: PlanInput = { ...inputOf(current), ...patch };
    requireValidPlan(merged, company);
    const owner = ownerOf(current);
    // Switching a group plan off is always allowed; anything that keeps it in force is not.
    if ('groupId' in owner && merged.active) await this.requireGroupPlansAvailable(companyId, owner.groupId);
    await requireNoOverlap(this.db, companyId, owner, merged, planId);
    await this.db.transaction(async (tx) => {
      await repo.updatePlan(tx, companyId, planId, planColumns(merged));
      await this.evaluateOwner(tx, companyId, owner);
    });
    this.deps.wake();
    return toPlanResponse(await this.load(companyId, planId));
  }

  async remove(userId: string, companyId: string, planId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, planId);
    await this.db.transaction(async (tx) => {
      await repo.deletePlan(tx, companyId, planId);
      await this.evaluateOwner(tx, companyId, ownerOf(current));
    });
    this.deps.wake();
  }

  private async evaluateOwner(tx: Db, companyId: string, owner: repo.PlanOwner) {
    const unitIds = 'unitId' in owner ? [owner.unitId] : await unitIdsOfGroup(tx, companyId, owner.groupId);
    await inputsChanged(tx, { companyId, unitIds }, this.deps.now(), { evaluate: true });
  }

  private async requireGroupPlansAvailable(companyId: string, groupId: string) {
    const blocking = await repo.unitsWithOwnActivePlan(this.db, companyId, groupId);
    if (blocking.length > 0) {
      throw conflict(
        `No group plan can be added or saved as active while a unit of the group has its own active plan (${blocking.join(', ')}); the active group plans keep applying to the other units. Deactivate or delete those units' own plans first.`,
        { code: 'group_plans_unavailable', params: { units: blocking.join(', ') } },
      );
    }
  }

  private async requireOwner(companyId: string, owner: repo.PlanOwner) {
    if ('unitId' in owner) {
      if (!(await findUnit(this.db, companyId, owner.unitId)))
        throw notFound('Unknown unit', { code: 'unknown_unit' });
    } else if (!(await findGroup(this.db, companyId, owner.groupId))) {
      throw notFound('Unknown group', { code: 'unknown_group' });
    }
  }

  private async load(companyId: string, planId: string): Promise<repo.PlanRow> {
    const row = await repo.findPlan(this.db, companyId, planId);
    if (!row) throw notFound('Unknown plan', { code: 'unknown_plan' });
    return row;
  }
}

function ownerOf(row: repo.PlanRow): repo.PlanOwner {
  if (row.unitId) return { unitId: row.unitId };
  if (row.groupId) return { groupId: row.groupId };
  throw new Error(`plan ${row.id} has no owner`);
}
