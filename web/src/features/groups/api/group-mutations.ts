/**
 * Group changes: `POST …/groups` (create), `PATCH …/groups/{id}` (rename, occupant limits), `DELETE …/groups/{id}`,
 * `POST …/groups/{id}/units` (move units in) and `DELETE …/groups/{id}/units/{unitId}` (take
 * one out). Each invalidates groups and units, whose group column changes with them.
 */
import type { Group } from '@heizplan/contracts/heating';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export type GroupChange =
  | { action: 'create'; name: string }
  | { action: 'rename'; groupId: string; name: string }
  | {
      action: 'occupantLimits';
      groupId: string;
      occupantMaxTemperature: number | null;
      occupantBand: number | null;
    }
  | { action: 'delete'; groupId: string }
  | { action: 'assign'; groupId: string; unitIds: string[] }
  | { action: 'unassign'; groupId: string; unitId: string };

export function changeGroup(change: GroupChange): Promise<Group | undefined> {
  switch (change.action) {
    case 'create':
      return api.post<Group>(companyPath('/groups'), { body: { name: change.name } });
    case 'rename':
      return api.patch<Group>(companyPath(`/groups/${change.groupId}`), { body: { name: change.name } });
    case 'occupantLimits':
      return api.patch<Group>(companyPath(`/groups/${change.groupId}`), {
        body: { occupantMaxTemperature: change.occupantMaxTemperature, occupantBand: change.occupantBand },
      });
    case 'delete':
      return api.delete<undefined>(companyPath(`/groups/${change.groupId}`));
    case 'assign':
      return api.post<Group>(companyPath(`/groups/${change.groupId}/units`), {
        body: { unitIds: change.unitIds },
      });
    case 'unassign':
      return api.delete<Group>(companyPath(`/groups/${change.groupId}/units/${change.unitId}`));
  }
}

export function useChangeGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeGroup,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: heatingKeys.groups });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.preview });
    },
  });
}
