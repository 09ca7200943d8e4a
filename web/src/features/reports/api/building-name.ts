/**
 * The name of the building a room's report was reached from, for the breadcrumb: read from the
 * company's buildings list (the same query, and so the same cache, as the pickers'
 * `useAllBuildings`), and asked only while a room or group below a building is shown.
 */
import { useQuery } from '@tanstack/react-query';
import { listBuildings } from '../../../lib/heating/list-buildings.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

const ALL = { page: 1, size: 200 };

export function useBuildingName(buildingId: string | undefined): string | undefined {
  const buildings = useQuery({
    queryKey: [...heatingKeys.buildings, 'list', ALL],
    queryFn: () => listBuildings(ALL),
    enabled: buildingId !== undefined,
  });
  return buildings.data?.results.find((building) => building.id === buildingId)?.name;
}
