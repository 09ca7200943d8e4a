/** `GET …/units/{unitId}/warm-up`: the unit's learned warm-up model (decision 0056). */
import type { UnitWarmUp } from '@heizplan/contracts/optimum';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

export function useUnitWarmUp(unitId: string) {
  return useQuery({
    queryKey: ['unit-warm-up', unitId],
    queryFn: (): Promise<UnitWarmUp> => api.get<UnitWarmUp>(companyPath(`/units/${unitId}/warm-up`)),
  });
}
