/**
 * `POST /api/companies/{id}/units` (one unit) and `POST …/units/bulk` (many from a name pattern
 * like "Raum {n}" and a count, in one transaction on the server); `POST …/groups` for a group
 * named in the dialog that does not exist yet, created before the units that go into it.
 */
import type { Group, Unit, UnitBulkCreate, UnitCreate } from '@heizplan/contracts/heating';
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
      // A building counts its units.
      void queryClient.invalidateQueries({ queryKey: heatingKeys.buildings });
    },
  });
}

/** Creates the group `name` (its units follow in a second call). */
export const createGroup = (name: string): Promise<Group> =>
  api.post<Group>(companyPath('/groups'), { body: { name } });

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: heatingKeys.groups }),
  });
}
