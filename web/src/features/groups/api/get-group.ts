/** `GET /api/companies/{id}/groups/{groupId}`: one group with its plan availability and blocking units. */
import type { Group } from '@heizplan/contracts/heating';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const getGroup = (groupId: string): Promise<Group> =>
  api.get<Group>(companyPath(`/groups/${groupId}`));

export function useGroup(groupId: string | null) {
  return useQuery({
    queryKey: [...heatingKeys.groups, 'one', groupId],
    queryFn: () => getGroup(groupId as string),
    enabled: groupId !== null,
  });
}
