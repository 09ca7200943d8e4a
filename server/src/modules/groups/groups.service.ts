/**
 * Groups (spec §2 "Groups"): named sets of units sharing group plans. A unit belongs
 * to at most one group (`units.group_id`). Group plans are unavailable while any unit of the
 * group has its own active plan; the group answer names those units so the UI can say why.
 */
import type { Group, GroupCreateSchema, GroupUpdateSchema } from '@heizplan/contracts/heating';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { requireOccupantCeiling } from '../units/temperature-range.ts';
import { ownedUnitIds } from '../units/units.service.ts';
import * as repo from './groups.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { findGroup, unitIdsOfGroup } from './groups.repository.ts';

type GroupCreate = z.infer<typeof GroupCreateSchema>;
type GroupUpdate = z.infer<typeof GroupUpdateSchema>;

const DUPLICATE = 'A group with this name already exists.';
const NAME_TAKEN = { code: 'group_name_taken' } as const;

/** A concurrent request may win the race for a name; its unique violation becomes a 409 too. */
function rethrowDuplicate(err: unknown): never {
  const e = err as { code?: string; cause?: { code?: string } };
  if (e?.code === '23505' || e?.cause?.code === '23505') throw conflict(DUPLICATE, NAME_TAKEN);
  throw err;
}

export class GroupsService {
  constructor(private readonly deps: HeatingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string, query: { q?: string; page: number; size: number }) {
    await requireMember(this.db, userId, companyId, 'read');
    const { rows, count } = await repo.listGroups(this.db, companyId, query);
    return { results: await this.toResponses(rows), count, page: query.page, size: query.size };
  }

  async get(userId: string, companyId: string, groupId: string): Promise<Group> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.load(companyId, groupId);
  }

  /**
   * A group with its name and, optionally, its rooms' occupant limits (null = the building's or
   * the company's). @throws 400 for a ceiling outside the company range (see update), 409 when
   * the company already has a group of that name.
   */
  async create(userId: string, companyId: string, input: GroupCreate): Promise<Group> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    requireOccupantCeiling(input.occupantMaxTemperature, company);
    const { name } = input;
    if (await repo.findGroupByName(this.db, companyId, name)) throw conflict(DUPLICATE, NAME_TAKEN);
    const row = await repo
      .insertGroup(this.db, companyId, {
        name,
        occupantMaxTemperature: input.occupantMaxTemperature ?? null,
        occupantBand: input.occupantBand ?? null,
      })
      .catch(rethrowDuplicate);
    return this.load(companyId, row.id);
  }

  /**
   * Renames the group and sets its occupant limits; only the fields given change.
   * @throws 400 `out_of_range`/`below_range` for a ceiling outside the company range, 409 when
   * another group has that name.
   */
  async update(userId: string, companyId: string, groupId: string, patch: GroupUpdate): Promise<Group> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    await this.load(companyId, groupId);
    const { name, occupantMaxTemperature, occupantBand } = patch;
    requireOccupantCeiling(occupantMaxTemperature, company);
    if (name !== undefined) {
      const same = await repo.findGroupByName(this.db, companyId, name);
      if (same && same.id !== groupId) throw conflict(DUPLICATE, NAME_TAKEN);
    }
    const fields = Object.fromEntries(
      Object.entries({ name, occupantMaxTemperature, occupantBand }).filter(([, v]) => v !== undefined),
    ) as Partial<repo.GroupFields>;
    // Occupant limits act on the public page when it is read: no setpoint changes with them.
    if (Object.keys(fields).length > 0) {
      await repo.updateGroup(this.db, companyId, groupId, fields).catch(rethrowDuplicate);
    }
    return this.load(companyId, groupId);
  }

  /** Deletes the group and its plans; its units stay, without group, and are re-evaluated. */
  async remove(userId: string, companyId: string, groupId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.load(companyId, groupId);
    await this.db.transaction(async (tx) => {
      const unitIds = await repo.unitIdsOfGroup(tx, companyId, groupId);
      await repo.deleteGroup(tx, companyId, groupId);
      await inputsChanged(tx, { companyId, unitIds }, this.deps.now(), { evaluate: true });
    });
    this.deps.wake();
  }

  /**
   * Moves units into the group (out of any other group) and re-evaluates them.
   * @throws 400 naming `unitIds` when an id is not a unit of this company.
   */
  async assign(userId: string, companyId: string, groupId: string, unitIds: string[]): Promise<Group> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.load(companyId, groupId);
    await this.moveUnits(companyId, unitIds, groupId);
    return this.load(companyId, groupId);
  }

  /** Takes one unit out of the group. @throws 404 when the unit is not in this group. */
  async unassign(userId: string, companyId: string, groupId: string, unitId: string): Promise<Group> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.load(companyId, groupId);
    if (!(await repo.unitIdsOfGroup(this.db, companyId, groupId)).includes(unitId)) {
      throw notFound('Unknown unit', { code: 'unknown_unit' });
    }
    await this.moveUnits(companyId, [unitId], null);
    return this.load(companyId, groupId);
  }

  private async moveUnits(companyId: string, unitIds: string[], groupId: string | null) {
    const unique = [...new Set(unitIds)];
    const owned = new Set(await ownedUnitIds(this.db, companyId, unique));
    const unknown = unique.filter((id) => !owned.has(id));
    if (unknown.length > 0) {
      const message = 'Unknown unit';
      const reason = { code: 'unknown_unit' } as const;
      throw badRequest(
        message,
        unknown.map((id) => ({ field: `unitIds.${unitIds.indexOf(id)}`, message, ...reason })),
        reason,
      );
    }
    await this.db.transaction(async (tx) => {
      await repo.setUnitsGroup(tx, companyId, unique, groupId);
      await inputsChanged(tx, { companyId, unitIds: unique }, this.deps.now(), { evaluate: true });
    });
    this.deps.wake();
  }

  private async load(companyId: string, groupId: string): Promise<Group> {
    const row = await repo.findGroup(this.db, companyId, groupId);
    if (!row) throw notFound('Unknown group', { code: 'unknown_group' });
    const [group] = await this.toResponses([row]);
    if (!group) throw notFound('Unknown group', { code: 'unknown_group' });
    return group;
  }

  private async toResponses(rows: repo.GroupRow[]): Promise<Group[]> {
    const { counts, blocking } = await repo.groupMembership(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => {
      const blockingUnits = blocking.get(r.id) ?? [];
      return {
        id: r.id,
        name: r.name,
        unitCount: counts.get(r.id) ?? 0,
        groupPlansAvailable: blockingUnits.length === 0,
        blockingUnits,
        occupantMaxTemperature: r.occupantMaxTemperature,
        occupantBand: r.occupantBand,
        createdAt: r.createdAt.toISOString(),
      };
    });
  }
}
