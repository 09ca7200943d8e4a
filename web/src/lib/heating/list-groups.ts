/** `GET /api/companies/{id}/groups?page&size&q`: groups with member count and plan availability. */
import type { Group, GroupPage } from '@heizplan/contracts/heating';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePage } from '../../components/ui/table.tsx';
import { api, companyPath } from '../api-client.ts';
import { heatingKeys } from './query-keys.ts';

export interface GroupListParams {
  page?: number;
  size?: number;
  q?: string;
}

export const listGroups = (query: GroupListParams): Promise<TablePage<Group>> =>
  api.get<GroupPage>(companyPath('/groups'), { query });

export function useGroups(query: GroupListParams) {
  return useQuery({
    queryKey: [...heatingKeys.groups, 'list', query],
    queryFn: () => listGroups(query),
    placeholderData: keepPreviousData,
  });
}

/** Every group (up to the API's page maximum of 200), for pickers. */
export function useAllGroups() {
  return useGroups({ page: 1, size: 200 });
}
