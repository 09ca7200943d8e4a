/** `GET /api/companies/{id}/units?page&size&q&sort&order`: one page of units (spec §2 units table). */
import type { Unit, UnitListQuery, UnitPage } from '@heizplan/contracts/heating';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePage } from '../../components/ui/table.tsx';
import { api, companyPath } from '../api-client.ts';
import { heatingKeys } from './query-keys.ts';

export type UnitListParams = Partial<UnitListQuery>;

export const listUnits = (query: UnitListParams): Promise<TablePage<Unit>> =>
  api.get<UnitPage>(companyPath('/units'), { query });

/** Refresh interval of the units table (ms): setpoints move at switch points and room temperatures with uplinks. */
export const UNITS_REFRESH_MS = 60_000;

/**
 * Keeps the previous page on screen while the next loads, so the table shows its loader, and
 * refreshes the page every minute.
 */
export function useUnits(query: UnitListParams) {
  return useQuery({
    queryKey: heatingKeys.unitList(query),
    queryFn: () => listUnits(query),
    placeholderData: keepPreviousData,
    refetchInterval: UNITS_REFRESH_MS,
  });
}
