/**
 * Building calls (decision 0052): create, update and delete under
 * `/api/companies/{id}/buildings` (the list is shared with the units screens:
 * `lib/heating/list-buildings.ts`), a building's public holidays of a year, and the holiday
 * regions of every federal state for the building form. A building's state, region or holiday
 * treatment moves setpoints and its units show its name, so a change invalidates everything
 * under `heating` (units, previews, logs and the buildings themselves).
 */
import type {
  Building,
  BuildingInput,
  BuildingUpdate,
  HolidayList,
  HolidayRegions,
} from '@heizplan/contracts/buildings';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';
import type { HolidayLanguage } from '../federal-states.ts';

export const buildingKeys = {
  holidays: (buildingId: string, year: number, lang: HolidayLanguage) =>
    [...heatingKeys.buildings, 'holidays', buildingId, year, lang] as const,
  regions: (lang: HolidayLanguage) => ['holiday-regions', lang] as const,
};

export type BuildingChange =
  | { action: 'create'; body: BuildingInput }
  | { action: 'update'; buildingId: string; body: BuildingUpdate }
  | { action: 'delete'; buildingId: string };

export function changeBuilding(change: BuildingChange): Promise<Building | undefined> {
  const one = (id: string) => companyPath(`/buildings/${id}`);
  switch (change.action) {
    case 'create':
      return api.post<Building>(companyPath('/buildings'), { body: change.body });
    case 'update':
      return api.patch<Building>(one(change.buildingId), { body: change.body });
    case 'delete':
      return api.delete<undefined>(one(change.buildingId));
  }
}

export function useChangeBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeBuilding,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: heatingKeys.all }),
  });
}

export const listHolidays = (buildingId: string, year: number, lang: HolidayLanguage) =>
  api.get<HolidayList>(companyPath(`/buildings/${buildingId}/holidays`), { query: { year, lang } });

/** The building's public holidays of `year`; the previous year stays on screen while the next loads. */
export function useHolidays(buildingId: string, year: number, lang: HolidayLanguage) {
  return useQuery({
    queryKey: buildingKeys.holidays(buildingId, year, lang),
    queryFn: () => listHolidays(buildingId, year, lang),
    placeholderData: keepPreviousData,
  });
}

/** Every federal state with the regions that have holidays of their own; the data only changes with a release. */
export function useHolidayRegions(lang: HolidayLanguage) {
  return useQuery({
    queryKey: buildingKeys.regions(lang),
    queryFn: () => api.get<HolidayRegions>('/holiday-regions', { query: { lang } }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
