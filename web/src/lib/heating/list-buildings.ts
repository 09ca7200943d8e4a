/**
 * `GET /api/companies/{id}/buildings?page&size` (decision 0052): the company's buildings with
 * their floors, for the buildings screen and for the pickers of the units screens (a building
 * and one of its floors). A company without buildings gets none, and the pickers stay hidden.
 */
import type { Building, BuildingPage } from '@heizplan/contracts/buildings';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePage } from '../../components/ui/table.tsx';
import { api, companyPath } from '../api-client.ts';
import { heatingKeys } from './query-keys.ts';

export interface BuildingListParams {
  page: number;
  size: number;
}

export const listBuildings = (query: BuildingListParams): Promise<TablePage<Building>> =>
  api.get<BuildingPage>(companyPath('/buildings'), { query });

/** One page; the previous one stays on screen while the next loads. */
export function useBuildings(query: BuildingListParams) {
  return useQuery({
    queryKey: [...heatingKeys.buildings, 'list', query],
    queryFn: () => listBuildings(query),
    placeholderData: keepPreviousData,
  });
}

/** Every building (up to the API's page maximum of 200), for pickers; `[]` while loading or failed. */
export function useAllBuildings() {
  const query = useBuildings({ page: 1, size: 200 });
  return { buildings: query.data?.results ?? [], isPending: query.isPending };
}
