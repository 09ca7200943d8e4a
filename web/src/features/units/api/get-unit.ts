/** One unit with setpoint, limits and plan state, kept under the unit's query key. */
import { useQuery } from '@tanstack/react-query';
import { getUnit } from '../../../lib/heating/get-unit.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export function useUnit(unitId: string) {
  return useQuery({ queryKey: heatingKeys.unit(unitId), queryFn: () => getUnit(unitId) });
}
