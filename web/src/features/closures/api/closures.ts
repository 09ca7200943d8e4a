/**
 * Closure calls under `/api/companies/{id}/closures` (decision 0051): the paged list (upcoming
 * and running, past ones on request, optionally of one building) and the changes — create,
 * update, delete. A closure moves setpoints, so a change also invalidates units, previews and
 * logs (all under `heating`).
 */
import type {
  Closure,
  ClosureInput,
  ClosureListQuery,
  ClosurePage,
  ClosureUpdate,
} from '@heizplan/contracts/closures';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const closureKeys = {
  all: ['closures'] as const,
  list: (query: ClosureListQuery) => ['closures', 'list', query] as const,
};

export const listClosures = (query: ClosureListQuery): Promise<TablePage<Closure>> =>
  api.get<ClosurePage>(companyPath('/closures'), { query });

/**
 * Keeps the previous page on screen while the next loads; `enabled: false` holds the request
 * (a building filter not yet known to be the company's).
 */
export function useClosures(query: ClosureListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: closureKeys.list(query),
    queryFn: () => listClosures(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export type ClosureChange =
  | { action: 'create'; body: ClosureInput }
  | { action: 'update'; closureId: string; body: ClosureUpdate }
  | { action: 'delete'; closureId: string };

export function changeClosure(change: ClosureChange): Promise<Closure | undefined> {
  const one = (id: string) => companyPath(`/closures/${id}`);
  switch (change.action) {
    case 'create':
      return api.post<Closure>(companyPath('/closures'), { body: change.body });
    case 'update':
      return api.patch<Closure>(one(change.closureId), { body: change.body });
    case 'delete':
      return api.delete<undefined>(one(change.closureId));
  }
}

export function useChangeClosure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeClosure,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: closureKeys.all });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.all });
    },
  });
}
