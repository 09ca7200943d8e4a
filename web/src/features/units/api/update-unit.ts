/** `PATCH /api/companies/{id}/units/{unitId}`: name, group, building and floor, wall control limits (°C). */
import type { Unit, UnitUpdate } from '@heizplan/contracts/heating';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const updateUnit = ({ unitId, patch }: { unitId: string; patch: UnitUpdate }) =>
  api.patch<Unit>(companyPath(`/units/${unitId}`), { body: patch });

export function useUpdateUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUnit,
    onSuccess: (unit) => {
      queryClient.setQueryData(heatingKeys.unit(unit.id), unit);
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.groups });
      // A building counts its units.
      void queryClient.invalidateQueries({ queryKey: heatingKeys.buildings });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.preview });
    },
  });
}
