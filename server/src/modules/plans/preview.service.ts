/**
 * 7-day setpoint preview of a unit: the same engine the scheduler uses, run over the
 * stored plans — or with a draft plan swapped in, so a planner sees what a plan will do before
 * saving it. Each step carries its source (log kind) and the plan, event, closure or booking behind it;
 * the closures named come with their name and mode, the public holidays of the unit's building
 * that count as closures (decision 0052) with their name in the caller's language and the
 * building's holiday mode, the room bookings (decision 0053) with their title and own times.
 */
import {
  type PlanInput,
  PREVIEW_FROM_MAX_YEARS,
  type Preview,
  type PreviewOptimum,
} from '@heizplan/contracts/heating';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { expandTimeline, resolveSetpoint } from '../../heating/engine/engine.ts';
import type { HeatingPlan, SetpointChange, UnitHeatingInput } from '../../heating/engine/types.ts';
import { loadHeatingInputs, type UnitRow } from '../../heating/inputs.ts';
import { namedBookings, namedClosures } from '../../heating/named-sources.ts';
import { applyOptimum, loadUnitOptimum } from '../../heating/optimum-inputs.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { findUnit } from '../units/units.service.ts';
import { draftPlan, requireNoOverlap, requireValidPlan } from './plans.service.ts';

export interface PreviewWindow {
  days: number;
  /** ISO instant with offset the preview starts at; absent = now. */
  from?: string;
}

export interface PreviewDraft {
  scope: 'unit' | 'group';
  /** The stored plan the draft replaces; absent = the draft is an additional plan. */
  planId?: string;
  plan: PlanInput;
}

const DAY_MS = 86_400_000;
const MAX_OFFSET_MS = PREVIEW_FROM_MAX_YEARS * 366 * DAY_MS;

/**
 * The instant a preview starts: `from` (ISO with offset) or now.
 * @throws HttpError 400 (code `preview_from_out_of_range`, on `field`) further than two years away.
 */
function startOf(from: string | undefined, now: Date, field: string): Date {
  if (from === undefined) return now;
  const start = new Date(from);
  if (Math.abs(start.getTime() - now.getTime()) <= MAX_OFFSET_MS) return start;
  const message = `The preview can start at most ${PREVIEW_FROM_MAX_YEARS} years before or after now.`;
  const reason = { code: 'preview_from_out_of_range', params: { years: PREVIEW_FROM_MAX_YEARS } } as const;
  throw badRequest(message, [{ field, message, ...reason }], reason);
}
const DRAFT_ID = 'draft';

function step(c: Omit<SetpointChange, 'at'>, at: Date) {
  return {
    at: at.toISOString(),
    setpoint: c.setpoint,
    source: c.source,
    ignoreWallControl: c.ignoreWallControl,
    planId: c.planId ?? null,
    eventId: c.eventId ?? null,
    closureId: c.closureId ?? null,
    bookingId: c.bookingId ?? null,
  };
}

function withDraft(plans: HeatingPlan[], draft: HeatingPlan, replaces?: string): HeatingPlan[] {
  const kept = plans.filter((p) => p.id !== replaces);
  return [...kept, draft];
}

export class PreviewService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  /**
   * Setpoint in force at the window's start (now unless `from` is given) and every change during
   * the following `days` days. Events, manual changes and pauses are taken as they stand now:
   * a preview of another week shows what the plans will (or would) do.
   * @throws 400 a `from` further than two years from now (`preview_from_out_of_range`).
   * @throws 404 unknown unit, 400 invalid draft or a group draft for a unit without group,
   * 409 a draft overlapping another active plan of its kind (see `requireNoOverlap`).
   */
  async preview(
    userId: string,
    companyId: string,
    unitId: string,
    window: PreviewWindow,
    draft?: PreviewDraft,
  ): Promise<Preview> {
    const db = this.deps.db;
    const company = draft ? await requireCompanyHeating(db, userId, companyId, 'read') : null;
    if (!company) await requireMember(db, userId, companyId, 'read');
    const record = await findUnit(db, companyId, unitId);
    if (!record) throw notFound('Unknown unit', { code: 'unknown_unit' });
    const now = this.deps.now();
    const from = startOf(window.from, now, draft ? 'body.from' : 'querystring.from');
    const to = new Date(from.getTime() + window.days * DAY_MS);
    // Read as of now (fresh feeds, what is in force), evaluated for the window: the same answer
    // the scheduler gives when the window comes.
    let input = (await loadHeatingInputs(db, [record.unit], undefined, now, { from, to })).get(unitId);
    if (!input) throw notFound('Unknown unit', { code: 'unknown_unit' });
    if (draft && company) {
      requireValidPlan(draft.plan, company);
      input = applyDraft(input, draft, record.unit.groupId);
      // The editor shows a refused overlap while typing, not only when saving.
      const owner =
        draft.scope === 'group' && record.unit.groupId ? { groupId: record.unit.groupId } : { unitId };
      await requireNoOverlap(db, companyId, owner, draft.plan, draft.planId ?? null);
    }
    const optimum = await previewOptimum(db, record.unit, input, from, to, now);
    const initial = step(resolveSetpoint(input, from), from);
    const changes = expandTimeline(input, from, to).map((c) => step(c, c.at));
    const closureIds = new Set([initial, ...changes].flatMap((s) => (s.closureId ? [s.closureId] : [])));
    const bookingIds = new Set([initial, ...changes].flatMap((s) => (s.bookingId ? [s.bookingId] : [])));
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      timeZone: input.timeZone,
      initial,
      changes,
      closures: await namedClosures(db, userId, companyId, [...closureIds]),
      bookings: await namedBookings(db, companyId, [...bookingIds]),
      optimum,
    };
  }
}

/** Switch points start their shifts this long before the window at most (longest lead + Class A). */
const SHIFT_LOOKBACK_MS = 7 * 3_600_000;

/**
 * Optimum start and stop in the window (decision 0056): in `on` mode the shifts and learned
 * booking leads go into `input` (changed in place), so the steps show them; in `shadow` mode they
 * are only explained.
 */
async function previewOptimum(
  db: Db,
  unit: UnitRow,
  input: UnitHeatingInput,
  from: Date,
  to: Date,
  now: Date,
): Promise<PreviewOptimum[]> {
  const optimum = (await loadUnitOptimum(db, [unit], undefined, now)).get(unit.id);
  if (!optimum) return [];
  const explanations = applyOptimum(
    input,
    optimum,
    new Date(from.getTime() - SHIFT_LOOKBACK_MS),
    new Date(to.getTime() + SHIFT_LOOKBACK_MS),
    now,
  );
  const applied = optimum.mode === 'on';
  return explanations
    .filter((e) => e.start.getTime() < to.getTime() && e.switchAt.getTime() > from.getTime())
    .map((e) => ({
      kind: e.kind,
      switchAt: e.switchAt.toISOString(),
      start: e.start.toISOString(),
      from: Math.round(e.from * 10) / 10,
      to: e.to,
      outdoor: e.outdoor,
      rate: Math.round(e.rate * 10) / 10,
      classADelayMinutes: e.classADelayMinutes,
      confidence: e.confidence,
      learned: e.learned,
      applied,
    }));
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
