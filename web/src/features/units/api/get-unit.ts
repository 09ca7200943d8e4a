/** `GET /api/companies/{id}/units/{unitId}`: one unit with setpoint, limits and plan state. */
import type { Unit } from '@heizplan/contracts/heating';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const getUnit = (unitId: string): Promise<Unit> => api.get<Unit>(companyPath(`/units/${unitId}`));

export function useUnit(unitId: string) {
  return useQuery({ queryKey: heatingKeys.unit(unitId), queryFn: () => getUnit(unitId) });
}
