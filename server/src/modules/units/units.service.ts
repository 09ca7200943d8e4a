/**
 * Units (spec §3 "Unit"): create one or many, edit, delete, list; manual setpoint
 * change and pause/resume. Every method first checks membership (404 for strangers) and every
 * heating-relevant change re-evaluates the unit in the same transaction, so the answer already
 * carries the new setpoint and the heating log entry exists exactly once.
 */
import {
  type Unit,
  type UnitBulkCreate,
  type UnitBulkDelete,
  type UnitBulkResult,
  type UnitBulkUpdate,
  type UnitCreate,
  type UnitListQuery,
  type UnitUpdate,
  WALL_CONTROL_ORDER,
  wallControlOrderIssues,
} from '@heizplan/contracts/heating';
import {
  type AuthClaims,
  deactivated,
  issuedBeforeSignOut,
  SESSION_CLAIM,
  sessionEnded,
  signedOut,
} from '../../auth/bearer.ts';
import { isUuid, requireCapability, requireMember, secondFactorRequired } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { type Actor, resendSetpoints } from '../../heating/apply.ts';
import type { CompanyHeating } from '../../heating/inputs.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { downlinkStatusByUnit, type UnitDownlinkStatus } from '../../lorawan/downlink-status.repository.ts';
import { recordUnitsChange } from '../audit/audit.service.ts';
import { buildingFloors } from '../buildings/buildings.service.ts';
import { requireInRange } from './temperature-range.ts';
import * as repo from './units.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export {
  findUnit,
  lockUnitNames,
  lockUnitsForChange,
  ownedUnitIds,
  takenUnitNames,
} from './units.repository.ts';

/** The audit log's route of each bulk operation on units (decision 0059). */
export const BULK_UNIT_ROUTES = {
  update: '/api/companies/{companyId}/units/bulk-update',
  delete: '/api/companies/{companyId}/units/bulk-delete',
  qrCode: '/api/companies/{companyId}/units/bulk-qr-code',
} as const;

/**
 * 404 `unknown_unit` unless every id of `requested` is among `found` (the company's units): a
 * bulk change of another company's unit, or of one deleted meanwhile, changes nothing at all.
 * The answer names the positions of the unknown ids in the request only, and reads the same
 * whether an id is another company's or no unit's, so it reveals nothing of other companies.
 */
export function requireAllUnits(requested: readonly string[], found: Iterable<string>): void {
  const known = new Set(found);
  const unknown = requested.flatMap((id, index) => (known.has(id) ? [] : [index]));
  if (unknown.length === 0) return;
  const message = 'Unknown unit';
  const reason = { code: 'unknown_unit' } as const;
  throw new HttpError(
    404,
    'Not Found',
    `${unknown.length} of the units are unknown.`,
    unknown.map((index) => ({ field: `unitIds.${index}`, message, ...reason })),
    reason,
  );
}

/**
 * Refuses names the company already uses (decision 0044), naming the first; `field` is the
 * request field the names came from.
 * @throws HttpError 409 `unit_name_taken` (params name).
 */
async function requireFreeNames(
  tx: Db,
  companyId: string,
  names: string[],
  field: string,
  exceptId?: string,
) {
  const [taken] = await repo.takenUnitNames(tx, companyId, names, exceptId);
  if (taken === undefined) return;
  const message = `A unit named "${taken}" already exists in this company.`;
  const reason = { code: 'unit_name_taken', params: { name: taken } } as const;
  throw new HttpError(409, 'Conflict', message, [{ field, message, ...reason }], reason);
}

/** Answer to a setpoint change on a paused unit (409). */
export const PAUSED_MESSAGE = 'The unit is paused. Resume it before changing the setpoint.';
/** A closure outranks manual changes (decision 0051): one made now would have no effect. */
export const CLOSED_MESSAGE =
  'A closure holds the unit; its setpoint cannot be changed until the closure ends.';

/**
 * 409 when a manual change could not take effect: the unit is paused, or a running closure holds
 * it (its stored source is `closure`, set by the scheduler at the closure's start).
 */
export function requireChangeable(unit: { paused: boolean; setpointSource: string | null }) {
  if (unit.paused) throw conflict(PAUSED_MESSAGE, { code: 'unit_paused' });
  if (unit.setpointSource === 'closure') throw conflict(CLOSED_MESSAGE, { code: 'unit_closed' });
}

const NO_DOWNLINKS: UnitDownlinkStatus = { pending: 0, failed: 0, delivered: [] };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `r` as the API answers it; `downlinks` from downlinkStatusByUnit (none = nothing pending). */
export function toUnitResponse(r: repo.UnitRecord, downlinks: UnitDownlinkStatus = NO_DOWNLINKS): Unit {
  const u = r.unit;
  return {
    id: u.id,
    name: u.name,
    groupId: u.groupId,
    groupName: r.groupName,
    buildingId: u.buildingId,
    buildingName: r.buildingName,
    floor: u.floor,
    setpoint: u.setpoint,
    setpointSource: u.setpointSource,
    setpointSince: iso(u.setpointSince),
    ignoreWallControl: u.ignoreWallControl,
    nextChangeAt: iso(u.nextChangeAt),
    wallControlMin: u.wallControlMin,
    wallControlMax: u.wallControlMax,
    paused: u.paused,
    pausedAt: iso(u.pausedAt),
    manualChange:
      u.manualKind && u.manualSetpoint !== null && u.manualAt
        ? {
            kind: u.manualKind,
            setpoint: u.manualSetpoint,
            at: u.manualAt.toISOString(),
            until: iso(u.manualUntil),
          }
        : null,
    roomTemperature: u.roomTemperature,
    valveOpening: u.valveOpening,
    supplyTemperature: u.supplyTemperature,
    hasOwnActivePlan: Boolean(r.hasOwnActivePlan),
    optimumStart: u.optimumStart,
    downlinks,
    createdAt: u.createdAt.toISOString(),
    createdBy: u.createdBy ? { id: u.createdBy, name: r.creatorName ?? '' } : null,
  };
}

export class UnitsService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * One page of the company's units. The route skips the bearer hook's user lookup
   * (`checksUser`): the page's statement reads the caller's user row and membership with the page.
   * @throws HttpError 401 for a deactivated account, a signed-out token or an ended session, 404 for
   *   a non-member or malformed id.
   */
  async list(userId: string, companyId: string, query: UnitListQuery, caller?: AuthClaims) {
    if (!isUuid(companyId)) throw notFound('Company not found.');
    const sid = caller?.[SESSION_CLAIM];
    const page = await repo.unitsPage(this.db, userId, companyId, query, typeof sid === 'string' ? sid : '');
    if (page.userActive === false) throw deactivated();
    if (caller && issuedBeforeSignOut(caller, page.tokensValidFrom)) throw signedOut();
    if (page.sessionEnded) throw sessionEnded();
    if (!page.role) throw notFound('Company not found.');
    if (page.secondFactorMissing) throw secondFactorRequired();
    requireCapability(page.role, 'read');
    const results = page.rows.map((r) => toUnitResponse(r, page.downlinks.get(r.unit.id)));
    return { results, count: page.count, page: query.page, size: query.size };
  }

  async get(userId: string, companyId: string, unitId: string): Promise<Unit> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.load(companyId, unitId);
  }

  async create(userId: string, companyId: string, input: UnitCreate): Promise<Unit> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    await this.checkGroup(companyId, input.groupId);
    await this.checkPlacement(companyId, input.buildingId ?? null, input.floor ?? null);
    checkWallControl(company, input.wallControlMin ?? null, input.wallControlMax ?? null);
    const [created] = await this.insertAndEvaluate(companyId, userId, 'name', [
      {
        name: input.name,
        groupId: input.groupId ?? null,
        buildingId: input.buildingId ?? null,
        floor: input.floor ?? null,
        wallControlMin: input.wallControlMin ?? null,
        wallControlMax: input.wallControlMax ?? null,
      },
    ]);
    if (!created) throw new Error('unit insert returned no row');
    return created;
  }

  /** Creates `count` units named by `pattern` with `{n}` = start, start+1, … in one transaction. */
  async createMany(userId: string, companyId: string, input: UnitBulkCreate): Promise<Unit[]> {
    await requireMember(this.db, userId, companyId, 'operate');
    if (input.count > 1 && !input.pattern.includes('{n}')) {
      const message = 'The name pattern must contain {n} for the running number.';
      const reason = { code: 'unit_pattern_without_n' } as const;
      throw badRequest(message, [{ field: 'pattern', message, ...reason }], reason);
    }
    await this.checkGroup(companyId, input.groupId);
    await this.checkPlacement(companyId, input.buildingId ?? null, input.floor ?? null);
    const names = Array.from({ length: input.count }, (_, i) =>
      input.pattern.replaceAll('{n}', String(input.start + i)),
    );
    return this.insertAndEvaluate(
      companyId,
      userId,
      'pattern',
      names.map((name) => ({
        name,
        groupId: input.groupId ?? null,
        buildingId: input.buildingId ?? null,
        floor: input.floor ?? null,
      })),
    );
  }

  async update(userId: string, companyId: string, unitId: string, patch: UnitUpdate): Promise<Unit> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const current = await this.load(companyId, unitId);
    if (patch.groupId !== undefined) await this.checkGroup(companyId, patch.groupId);
    const buildingChanged = patch.buildingId !== undefined && patch.buildingId !== current.buildingId;
    // Another building keeps the unit's floor when it has a floor of that name.
    const floor =
      patch.buildingId !== undefined || patch.floor !== undefined
        ? await this.checkPlacement(
            companyId,
            patch.buildingId !== undefined ? patch.buildingId : current.buildingId,
            patch.floor !== undefined ? patch.floor : current.floor,
            patch.floor === undefined,
          )
        : current.floor;
    checkWallControl(
      company,
      patch.wallControlMin !== undefined ? patch.wallControlMin : current.wallControlMin,
      patch.wallControlMax !== undefined ? patch.wallControlMax : current.wallControlMax,
    );
    const groupChanged = patch.groupId !== undefined && patch.groupId !== current.groupId;
    const optimumChanged = patch.optimumStart !== undefined && patch.optimumStart !== current.optimumStart;
    const limitsChanged =
      (patch.wallControlMin !== undefined && patch.wallControlMin !== current.wallControlMin) ||
      (patch.wallControlMax !== undefined && patch.wallControlMax !== current.wallControlMax);
    await this.db.transaction(async (tx) => {
      if (patch.name !== undefined) {
        await repo.lockUnitNames(tx, companyId);
        await requireFreeNames(tx, companyId, [patch.name], 'name', unitId);
      }
      await repo.updateUnit(tx, companyId, unitId, { ...patch, ...(buildingChanged ? { floor } : {}) });
      // Another group means other group plans, another building other public holidays, optimum
      // start on or off other switch times: the setpoint may change now.
      const changes =
        groupChanged || buildingChanged || optimumChanged
          ? await inputsChanged(tx, { companyId, unitIds: [unitId] }, this.deps.now(), { evaluate: true })
          : [];
      // Devices enforce the wall control limits, so they need them even if the setpoint stays.
      if (limitsChanged && changes.length === 0)
        await resendSetpoints(tx, companyId, [unitId], this.deps.now());
    });
    if (groupChanged || buildingChanged || limitsChanged || optimumChanged) this.deps.wake();
    return this.load(companyId, unitId);
  }

  /**
   * Sets `changes` on every unit of `unitIds` (1 … BULK_EDIT_UNIT_MAX) in one transaction, all or
   * nothing (the rooms list's bulk edit): wall control limits (°C, both together, null = none so
   * the company's safe occupant default applies, decision 0066) under the rules of a single
   * unit's PATCH — inside the company range (spec §5), min not above max — and the group (null =
   * none). Then the units' inputs changed, as after the PATCH: moved units are re-evaluated in
   * the transaction (another group means other group plans), units with new limits get their
   * setpoint sent again (devices enforce the limits), and the scheduler is woken. Each unit gets
   * an audit entry.
   * @returns how many distinct units the request named.
   * @throws HttpError 404 for a stranger or any id that is not the company's unit, 403 without
   *   `operate`, 400 `out_of_range`/`below_range` (params min, max) on `changes.wallControlMin|Max`,
   *   `unknown_group` on `changes.groupId`.
   */
  async bulkUpdate(userId: string, companyId: string, input: UnitBulkUpdate): Promise<UnitBulkResult> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const { changes } = input;
    const ids = [...new Set(input.unitIds)];
    const limits =
      changes.wallControlMin !== undefined && changes.wallControlMax !== undefined
        ? { wallControlMin: changes.wallControlMin, wallControlMax: changes.wallControlMax }
        : null;
    if (limits) checkWallControl(company, limits.wallControlMin, limits.wallControlMax, 'changes.');
    if (changes.groupId !== undefined) await this.checkGroup(companyId, changes.groupId, 'changes.groupId');
    const now = this.deps.now();
    const changed = await this.db.transaction(async (tx) => {
      const current = await repo.lockUnitsForChange(tx, companyId, ids);
      requireAllUnits(
        input.unitIds,
        current.map((u) => u.id),
      );
      await repo.updateUnits(tx, companyId, ids, {
        ...(limits ?? {}),
        ...(changes.groupId !== undefined ? { groupId: changes.groupId } : {}),
      });
      const moved = current.filter((u) => changes.groupId !== undefined && u.groupId !== changes.groupId);
      const limited = current.filter(
        (u) =>
          limits !== null &&
          (u.wallControlMin !== limits.wallControlMin || u.wallControlMax !== limits.wallControlMax),
      );
      await unitInputsChanged(
        tx,
        companyId,
        {
          evaluate: moved.map((u) => u.id),
          resend: limited.map((u) => u.id),
        },
        now,
      );
      await recordUnitsChange(tx, {
        companyId,
        actorId: userId,
        route: BULK_UNIT_ROUTES.update,
        unitIds: ids,
        fields: { ...changes },
      });
      return moved.length + limited.length;
    });
    if (changed > 0) this.deps.wake();
    return { count: ids.length };
  }

  /**
   * Deletes every unit of `unitIds` (1 … BULK_EDIT_UNIT_MAX) in one transaction, all or nothing,
   * with their plans, heating log and QR codes (their devices stay, without a unit), as the single
   * DELETE does; each unit gets an audit entry.
   * @returns how many distinct units were deleted.
   * @throws HttpError 404 for a stranger or any id that is not the company's unit, 403 without `operate`.
   */
  async bulkRemove(userId: string, companyId: string, input: UnitBulkDelete): Promise<UnitBulkResult> {
    await requireMember(this.db, userId, companyId, 'operate');
    const ids = [...new Set(input.unitIds)];
    await this.db.transaction(async (tx) => {
      const current = await repo.lockUnitsForChange(tx, companyId, ids);
      requireAllUnits(
        input.unitIds,
        current.map((u) => u.id),
      );
      await repo.deleteUnits(tx, companyId, ids);
      await recordUnitsChange(tx, {
        companyId,
        actorId: userId,
        route: BULK_UNIT_ROUTES.delete,
        unitIds: ids,
        fields: {},
      });
    });
    return { count: ids.length };
  }

  async remove(userId: string, companyId: string, unitId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    if (!(await repo.deleteUnit(this.db, companyId, unitId))) {
      throw notFound('Unknown unit', { code: 'unknown_unit' });
    }
  }

  /**
   * Manual setpoint from the units screen, logged `web_change` with the member as actor; it
   * holds until the next switch point (docs/architecture.md).
   * @throws 400 outside the company range, 409 while the unit is paused or a closure holds it.
   */
  async changeSetpoint(userId: string, companyId: string, unitId: string, setpoint: number): Promise<Unit> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    const unit = await this.load(companyId, unitId);
    requireInRange(setpoint, { min: company.minTemperature, max: company.maxTemperature }, 'setpoint');
    requireChangeable(unit);
    await this.applyManualChange(companyId, unitId, { kind: 'web_change', setpoint, until: null }, userId);
    return this.load(companyId, unitId);
  }

  /**
   * Stores a manual change and re-evaluates the unit in one transaction; it holds until the next
   * switch point or `until`, whichever comes first (docs/architecture.md). The caller has checked
   * access, range and pause; `userId` null logs the change as anonymous (the public page).
   */
  async applyManualChange(
    companyId: string,
    unitId: string,
    change: { kind: 'web_change' | 'qr_change'; setpoint: number; until: Date | null },
    userId: string | null,
  ): Promise<void> {
    const now = this.deps.now();
    await this.mutateAndEvaluate(
      companyId,
      unitId,
      now,
      userId ? { userId, kinds: [change.kind] } : undefined,
      {
        manualKind: change.kind,
        manualSetpoint: change.setpoint,
        manualAt: now,
        manualUntil: change.until,
      },
    );
  }

  /** Pauses the unit: it holds the company's frost protection setpoint (logged `paused`). Idempotent. */
  async pause(userId: string, companyId: string, unitId: string): Promise<Unit> {
    await requireMember(this.db, userId, companyId, 'operate');
    const unit = await this.load(companyId, unitId);
    if (unit.paused) return unit;
    const now = this.deps.now();
    // A pause supersedes a manual change made before it.
    await this.mutateAndEvaluate(
      companyId,
      unitId,
      now,
      { userId, kinds: ['paused'] },
      {
        paused: true,
        pausedAt: now,
        resumedAt: null,
        manualKind: null,
        manualSetpoint: null,
        manualAt: null,
        manualUntil: null,
      },
    );
    return this.load(companyId, unitId);
  }

  /** Resumes a paused unit: the plan in force applies again (logged `resumed`). Idempotent. */
  async resume(userId: string, companyId: string, unitId: string): Promise<Unit> {
    await requireMember(this.db, userId, companyId, 'operate');
    const unit = await this.load(companyId, unitId);
    if (!unit.paused) return unit;
    // One instant for both: a resume stamped after the evaluation instant would not count yet.
    const now = this.deps.now();
    await this.mutateAndEvaluate(
      companyId,
      unitId,
      now,
      { userId, kinds: ['resumed'] },
      { paused: false, resumedAt: now },
    );
    return this.load(companyId, unitId);
  }

  private async mutateAndEvaluate(
    companyId: string,
    unitId: string,
    now: Date,
    actor: Actor | undefined,
    patch: Parameters<typeof repo.updateUnit>[3],
  ) {
    await this.db.transaction(async (tx) => {
      await repo.updateUnit(tx, companyId, unitId, patch);
      await inputsChanged(tx, { companyId, unitIds: [unitId] }, now, { evaluate: true, actor });
    });
    this.deps.wake();
  }

  /** Inserts and evaluates `rows` in one transaction; `field` names where their names came from. */
  private async insertAndEvaluate(
    companyId: string,
    userId: string,
    field: string,
    rows: {
      name: string;
      groupId: string | null;
      buildingId?: string | null;
      floor?: string | null;
      wallControlMin?: number | null;
      wallControlMax?: number | null;
    }[],
  ): Promise<Unit[]> {
    const ids = await this.db.transaction(async (tx) => {
      await repo.lockUnitNames(tx, companyId);
      await requireFreeNames(
        tx,
        companyId,
        rows.map((r) => r.name),
        field,
      );
      const inserted = await repo.insertUnits(
        tx,
        rows.map((r) => ({ ...r, companyId, createdBy: userId })),
      );
      const unitIds = inserted.map((r) => r.id);
      await inputsChanged(tx, { companyId, unitIds }, this.deps.now(), { evaluate: true });
      return unitIds;
    });
    this.deps.wake();
    const order = new Map(ids.map((id, i) => [id, i]));
    const found = await repo.findUnits(this.db, companyId, ids);
    return this.responses(
      companyId,
      found.sort((a, b) => (order.get(a.unit.id) ?? 0) - (order.get(b.unit.id) ?? 0)),
    );
  }

  private async load(companyId: string, unitId: string): Promise<Unit> {
    const row = await repo.findUnit(this.db, companyId, unitId);
    if (!row) throw notFound('Unknown unit', { code: 'unknown_unit' });
    const [unit] = await this.responses(companyId, [row]);
    return unit as Unit;
  }

  /** Responses for `rows` with their downlink status, in one query. */
  private async responses(companyId: string, rows: repo.UnitRecord[]): Promise<Unit[]> {
    const status = await downlinkStatusByUnit(
      this.db,
      companyId,
      rows.map((r) => r.unit.id),
    );
    return rows.map((r) => toUnitResponse(r, status.get(r.unit.id)));
  }

  /**
   * Checks a unit's building (the company's) and floor (one the building lists); a floor without
   * a building is unknown too. With `dropUnknownFloor` (the floor was not asked for, only kept) an
   * unknown floor is dropped instead.
   * @returns the floor the unit gets.
   * @throws HttpError 400 `unknown_building` on `buildingId`, `unknown_floor` (params floor) on `floor`.
   */
  private async checkPlacement(
    companyId: string,
    buildingId: string | null,
    floor: string | null,
    dropUnknownFloor = false,
  ): Promise<string | null> {
    const floors = buildingId ? await buildingFloors(this.db, companyId, buildingId) : null;
    if (buildingId && !floors) {
      const message = 'Unknown building.';
      const reason = { code: 'unknown_building' } as const;
      throw badRequest(message, [{ field: 'buildingId', message, ...reason }], reason);
    }
    if (floor === null || floors?.includes(floor)) return floor;
    if (dropUnknownFloor) return null;
    const message = buildingId
      ? `The building has no floor "${floor}".`
      : 'A floor needs a building that lists it.';
    const reason = { code: 'unknown_floor', params: { floor } } as const;
    throw badRequest(message, [{ field: 'floor', message, ...reason }], reason);
  }

  /** @throws HttpError 400 `unknown_group` on `field` when `groupId` is not one of the company's groups. */
  private async checkGroup(companyId: string, groupId: string | null | undefined, field = 'groupId') {
    if (groupId && !(await repo.groupExists(this.db, companyId, groupId))) {
      const message = 'Unknown group.';
      const reason = { code: 'unknown_group' } as const;
      throw badRequest(message, [{ field, message, ...reason }], reason);
    }
  }
}

/**
 * Wall control limits (°C, null = none) must lie inside the company range, min not above max
 * (spec §5); `prefix` goes before the field names in the answer (`changes.` of a bulk change).
 * @throws HttpError 400 `out_of_range`/`below_range` (params min, max) or `wall_control_order`.
 */
function checkWallControl(company: CompanyHeating, min: number | null, max: number | null, prefix = '') {
  const range = { min: company.minTemperature, max: company.maxTemperature };
  if (min !== null) requireInRange(min, range, `${prefix}wallControlMin`);
  if (max !== null) requireInRange(max, range, `${prefix}wallControlMax`);
  const order = wallControlOrderIssues(min, max).map((issue) => ({
    ...issue,
    field: `${prefix}${issue.field}`,
  }));
  if (order.length > 0) throw badRequest(WALL_CONTROL_ORDER, order, { code: 'wall_control_order' });
}

/**
 * The step after a change to units' heating inputs, in the change's transaction: `evaluate` are
 * re-evaluated now (their setpoint may change: another group's plans), `resend` get the setpoint
 * they have sent again (new wall control limits the devices enforce) unless the evaluation just
 * queued one. The caller wakes the scheduler after the commit, which delivers the outbox.
 * The same as the single unit's PATCH does, for many units at once.
 */
async function unitInputsChanged(
  tx: Db,
  companyId: string,
  units: { evaluate: string[]; resend: string[] },
  now: Date,
): Promise<void> {
  const applied = new Set(
    (await inputsChanged(tx, { companyId, unitIds: units.evaluate }, now, { evaluate: true })).map(
      (c) => c.unitId,
    ),
  );
  await resendSetpoints(
    tx,
    companyId,
    units.resend.filter((id) => !applied.has(id)),
    now,
  );
}
