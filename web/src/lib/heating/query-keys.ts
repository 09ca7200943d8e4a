/**
 * TanStack Query keys of units, groups, buildings, plans, previews and logs, all under `heating`
 * so a change that re-evaluates setpoints (company range, plans, a building's holidays) can
 * invalidate them together.
 */
import type { UnitListQuery } from '@heizplan/contracts/heating';

export const heatingKeys = {
  all: ['heating'] as const,
  units: ['heating', 'units'] as const,
  unitList: (query: Partial<UnitListQuery>) => ['heating', 'units', 'list', query] as const,
  unit: (unitId: string) => ['heating', 'units', 'one', unitId] as const,
  log: (unitId: string) => ['heating', 'log', unitId] as const,
  groups: ['heating', 'groups'] as const,
  /** Buildings, their units' count among them (decision 0052). */
  buildings: ['heating', 'buildings'] as const,
  plans: ['heating', 'plans'] as const,
  preview: ['heating', 'preview'] as const,
};
