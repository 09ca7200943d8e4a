/**
 * 7-day setpoint preview of a unit (issue 5): the same engine the scheduler uses, run over the
 * stored plans — or with a draft plan swapped in, so a planner sees what a plan will do before
 * saving it. Each step carries its source (log kind) and the plan or event behind it.
 */
import type { PlanInput, Preview } from '@heizplan/contracts/heating';
import { requireMember } from '../../auth/membership.ts';
import { expandTimeline, resolveSetpoint } from '../../heating/engine.ts';
import type { HeatingPlan, SetpointChange, UnitHeatingInput } from '../../heating/types.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { loadHeatingInputs } from '../../jobs/heating-inputs.ts';
import { findUnit } from '../units/units.repository.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../units/units.service.ts';
import { draftPlan, requireValidPlan } from './plans.service.ts';

export interface PreviewDraft {
  scope: 'unit' | 'group';
  /** The stored plan the draft replaces; absent = the draft is an additional plan. */
  planId?: string;
  plan: PlanInput;
}

const DAY_MS = 86_400_000;
const DRAFT_ID = 'draft';

function step(c: Omit<SetpointChange, 'at'>, at: Date) {
  return {
    at: at.toISOString(),
    setpoint: c.setpoint,
    source: c.source,
    ignoreWallControl: c.ignoreWallControl,
    planId: c.planId ?? null,
    eventId: c.eventId ?? null,
  };
}

function withDraft(plans: HeatingPlan[], draft: HeatingPlan, replaces?: string): HeatingPlan[] {
  const kept = plans.filter((p) => p.id !== replaces);
  return [...kept, draft];
}

export class PreviewService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  /**
   * Setpoint in force now and every change during the next `days` days.
   * @throws 404 unknown unit, 400 invalid draft or a group draft for a unit without group.
   */
  async preview(
    userId: string,
    companyId: string,
    unitId: string,
    days: number,
    draft?: PreviewDraft,
  ): Promise<Preview> {
    const db = this.deps.db;
    const company = draft ? await requireCompanyHeating(db, userId, companyId) : null;
    if (!company) await requireMember(db, userId, companyId);
    const record = await findUnit(db, companyId, unitId);
    if (!record) throw notFound('Unknown unit');
    const from = this.deps.now();
    let input = (await loadHeatingInputs(db, [record.unit], undefined, from)).get(unitId);
    if (!input) throw notFound('Unknown unit');
    if (draft && company) {
      requireValidPlan(draft.plan, company);
      input = applyDraft(input, draft, record.unit.groupId);
    }
    const to = new Date(from.getTime() + days * DAY_MS);
    const initial = resolveSetpoint(input, from);
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      timeZone: input.timeZone,
      initial: step(initial, from),
      changes: expandTimeline(input, from, to).map((c) => step(c, c.at)),
    };
  }
}

function applyDraft(input: UnitHeatingInput, draft: PreviewDraft, groupId: string | null): UnitHeatingInput {
  const plan = draftPlan(draft.planId ?? DRAFT_ID, draft.plan);
  if (draft.scope === 'group') {
    if (!groupId) {
      const message = 'The unit belongs to no group.';
      throw badRequest(message, [{ field: 'scope', message }]);
    }
    return { ...input, groupPlans: withDraft(input.groupPlans, plan, draft.planId) };
  }
  return { ...input, ownPlans: withDraft(input.ownPlans, plan, draft.planId) };
}
