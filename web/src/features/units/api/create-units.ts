/**
 * `POST /api/companies/{id}/units` (one unit) and `POST …/units/bulk` (many from a name pattern
 * like "Raum {n}" and a count, in one transaction on the server).
 */
import type { Unit, UnitBulkCreate, UnitCreate } from '@heizplan/contracts/heating';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export type CreateUnitsInput = { mode: 'one'; unit: UnitCreate } | { mode: 'many'; bulk: UnitBulkCreate };

/** Creates the units and returns them (one or many). */
export async function createUnits(input: CreateUnitsInput): Promise<Unit[]> {
  if (input.mode === 'one') return [await api.post<Unit>(companyPath('/units'), { body: input.unit })];
  const { results } = await api.post<{ results: Unit[] }>(companyPath('/units/bulk'), { body: input.bulk });
  return results;
}

export function useCreateUnits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUnits,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.groups });
    },
  });
}
