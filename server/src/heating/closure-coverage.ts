/**
 * Which closures cover which units (decision 0051), for the engine (scheduler, preview,
 * occupants' view) and the calendar layers: a closure's units are resolved when it runs — all
 * units of the company (scope `company`), the units in a chosen building or on a chosen floor of
 * it (scope `buildings`), the units whose current group is chosen (scope `groups`; so a unit moved
 * into the building or group later is covered) or the chosen units (scope `units`), never the
 * closure's exceptions. A recurring closure reaches the engine as its occurrences
 * (occurrences.ts), each with the closure's id.
 */
import type { ClosureScope, HeatingMode } from '@heizplan/contracts/closures';
import type { Db } from '../db/client.ts';
import { closureBuildingChoices, coveringClosures } from './inputs.repository.ts';
import { occurrencesWithin } from './occurrences.ts';

/** A closure as the engine's caller sees it: the mode still to be turned into °C. */
export interface UnitClosure {
  id: string;
  start: Date;
  end: Date;
  mode: HeatingMode;
}

const idList = (joined: string | null): Set<string> =>
  new Set(joined ? joined.split(',').filter((id) => id !== '') : []);

/** The units a closure covers as `closuresForUnits` resolves them. */
interface Coverage {
  scope: ClosureScope;
  groupIds: Set<string>;
  unitIds: Set<string>;
  exceptionIds: Set<string>;
  /** Building id → its chosen floors ('' = the whole building). */
  buildings: Map<string, Set<string>>;
}

/** A unit as the engine's caller loads it: its current group, building and floor decide coverage. */
export interface CoveredUnit {
  id: string;
  companyId: string;
  groupId: string | null;
  buildingId: string | null;
  floor: string | null;
}

function covers(c: Coverage, unit: CoveredUnit): boolean {
  if (c.exceptionIds.has(unit.id)) return false;
  switch (c.scope) {
    case 'company':
      return true;
    case 'groups':
      return unit.groupId !== null && c.groupIds.has(unit.groupId);
    case 'units':
      return c.unitIds.has(unit.id);
    case 'buildings': {
      const floors = unit.buildingId ? c.buildings.get(unit.buildingId) : undefined;
      return floors !== undefined && (floors.has('') || (unit.floor !== null && floors.has(unit.floor)));
    }
  }
}

/**
 * The closures covering each of the units given (any companies) with an occurrence overlapping
 * [since, until), by unit id: the closures of the units' companies with their groups, chosen
 * units and exceptions as lists (one query) and the buildings of those of scope `buildings`
 * (a second), resolved against each unit's current group, building and floor here, however many
 * units. A recurring closure is expanded once in its company's zone into its occurrences in the
 * window (at most MAX_OCCURRENCES), each a closure of its own with the closure's id. Each list is
 * ordered by start, then creation.
 */
export async function closuresForUnits(
  db: Db,
  unitRows: CoveredUnit[],
  since: Date,
  until: Date,
): Promise<Map<string, UnitClosure[]>> {
  const result = new Map<string, UnitClosure[]>();
  if (unitRows.length === 0) return result;
  const companyIds = [...new Set(unitRows.map((u) => u.companyId))];
  const rows = await coveringClosures(db, companyIds, since, until);
  if (rows.length === 0) return result;
  const buildingIds = rows.filter((r) => r.scope === 'buildings').map((r) => r.id);
  const buildingsBy = new Map<string, Map<string, Set<string>>>();
  if (buildingIds.length > 0) {
    const chosen = await closureBuildingChoices(db, buildingIds);
    for (const { closureId, buildingId, floor } of chosen) {
      const byBuilding = buildingsBy.get(closureId) ?? new Map<string, Set<string>>();
      byBuilding.set(buildingId, (byBuilding.get(buildingId) ?? new Set()).add(floor));
      buildingsBy.set(closureId, byBuilding);
    }
  }
  const byCompany = new Map<string, { occurrences: UnitClosure[]; coverage: Coverage }[]>();
  for (const row of rows) {
    const occurrences = occurrencesWithin(row, row.timeZone, since, until).map((o) => ({
      id: row.id,
      start: o.start,
      end: o.end,
      mode: row.mode,
    }));
    if (occurrences.length === 0) continue;
    const list = byCompany.get(row.companyId) ?? [];
    list.push({
      occurrences,
      coverage: {
        scope: row.scope,
        groupIds: idList(row.groupIds),
        unitIds: idList(row.unitIds),
        exceptionIds: idList(row.exceptionIds),
        buildings: buildingsBy.get(row.id) ?? new Map(),
      },
    });
    byCompany.set(row.companyId, list);
  }
  for (const unit of unitRows) {
    const covering = (byCompany.get(unit.companyId) ?? []).filter((c) => covers(c.coverage, unit));
    if (covering.length === 0) continue;
    const list = covering.flatMap((c) => c.occurrences);
    // Occurrences of several recurring closures interleave: by start, as the engine's caller expects.
    if (covering.length > 1) list.sort((a, b) => a.start.getTime() - b.start.getTime());
    result.set(unit.id, list);
  }
  return result;
}
