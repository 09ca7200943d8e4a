/**
 * "Nach Gebäude und Etage gruppieren" for a server-paged list whose API sorts by `building`
 * (building name, then the floor's place in the building's list of floors, rows without a
 * building last): the checkbox switches the list's sort to it and back, and `groupBy` labels
 * each row's group for the table's group headings ("Schule · 1. OG", "Ohne Gebäude"). Clicking
 * another column's sort ends the grouping, as it ends the building order.
 */
import { useTranslation } from 'react-i18next';
import type { PagedList } from './paged-list/use-paged-list.ts';
import type { SortState } from './ui/table-sort.ts';

/** Where a row is: its unit's building and floor (null when it has none). */
export interface RowPlace {
  buildingName: string | null;
  floor: string | null;
}

export interface BuildingGrouping<T> {
  on: boolean;
  setOn: (on: boolean) => void;
  /** The group label of a row while grouping; undefined otherwise. */
  groupBy: ((row: T) => string) | undefined;
}

/** Grouping for `list`; turning it off returns to `fallback` (the list's first sort). */
export function useBuildingGrouping<T extends RowPlace>(
  list: PagedList,
  fallback: SortState,
): BuildingGrouping<T> {
  const { t } = useTranslation('ui');
  const { sort, onSortChange } = list.table;
  const on = sort.key === 'building' && sort.order !== 'none';
  return {
    on,
    setOn: (next) => onSortChange(next ? { key: 'building', order: 'asc' } : fallback),
    groupBy: on
      ? (row) =>
          row.buildingName === null
            ? t('buildingGrouping.none')
            : row.floor
              ? t('buildingGrouping.place', { building: row.buildingName, floor: row.floor })
              : row.buildingName
      : undefined,
  };
}

/** The checkbox; nothing while the company has no buildings (`shown` false). */
export function BuildingGroupingToggle<T>({
  grouping,
  shown,
  testid,
}: {
  grouping: BuildingGrouping<T>;
  shown: boolean;
  testid: string;
}) {
  const { t } = useTranslation('ui');
  if (!shown) return null;
  return (
    <label className="flex min-h-10 items-center gap-2 self-end text-sm">
      <input
        type="checkbox"
        checked={grouping.on}
        onChange={(event) => grouping.setOn(event.target.checked)}
        className="size-4 accent-brand-600"
        data-testid={`${testid}-group-by-building`}
      />
      {t('buildingGrouping.label')}
    </label>
  );
}
