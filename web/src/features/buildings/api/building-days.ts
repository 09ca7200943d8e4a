/**
 * The company's own days of a building (decision 0052) under
 * `/api/companies/{id}/buildings/{buildingId}/days`: the year's list, add one, delete one, import
 * an ICS file's days. Own days move setpoints, so a change invalidates everything under `heating`
 * (previews, units) along with the list.
 */
import type {
  BuildingDay,
  BuildingDayImportResult,
  BuildingDayInput,
  BuildingDayList,
} from '@heizplan/contracts/buildings';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

const daysPath = (buildingId: string) => companyPath(`/buildings/${buildingId}/days`);

export const buildingDayKeys = {
  year: (buildingId: string, year: number) => [...heatingKeys.buildings, 'days', buildingId, year] as const,
};

/** The building's own days of `year`; the previous year stays on screen while the next loads. */
export function useBuildingDays(buildingId: string, year: number) {
  return useQuery({
    queryKey: buildingDayKeys.year(buildingId, year),
    queryFn: () => api.get<BuildingDayList>(daysPath(buildingId), { query: { year } }),
    placeholderData: keepPreviousData,
  });
}

export type BuildingDayChange =
  | { action: 'add'; body: BuildingDayInput }
  | { action: 'delete'; dayId: string }
  | { action: 'import'; ics: string };

export function changeBuildingDays(
  buildingId: string,
  change: BuildingDayChange,
): Promise<BuildingDay | BuildingDayImportResult | undefined> {
  switch (change.action) {
    case 'add':
      return api.post<BuildingDay>(daysPath(buildingId), { body: change.body });
    case 'delete':
      return api.delete<undefined>(`${daysPath(buildingId)}/${change.dayId}`);
    case 'import':
      return api.post<BuildingDayImportResult>(`${daysPath(buildingId)}/import`, {
        body: { ics: change.ics },
      });
  }
}

export function useChangeBuildingDays(buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: BuildingDayChange) => changeBuildingDays(buildingId, change),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: heatingKeys.all }),
  });
}
