/** `DELETE /api/companies/{id}/units/{unitId}`: removes the unit with its plans and log. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const deleteUnit = (unitId: string) => api.delete<undefined>(companyPath(`/units/${unitId}`));

export function useDeleteUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUnit,
    onSuccess: (_, unitId) => {
      queryClient.removeQueries({ queryKey: heatingKeys.unit(unitId) });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.groups });
      // A building counts its units.
      void queryClient.invalidateQueries({ queryKey: heatingKeys.buildings });
    },
  });
}
