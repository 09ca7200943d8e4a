/** `GET /api/companies/{id}/units/{unitId}/log?cursor=&limit=`: the heating log, newest first, by cursor. */
import type { LogPage } from '@heizplan/contracts/heating';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const LOG_PAGE_SIZE = 20;

export const getLogPage = (unitId: string, cursor: string | null) =>
  api.get<LogPage>(companyPath(`/units/${unitId}/log`), {
    query: { cursor, limit: LOG_PAGE_SIZE },
  });

/** Pages are appended by "load more" (`fetchNextPage`) while the server returns a `nextCursor`. */
export function useHeatingLog(unitId: string) {
  return useInfiniteQuery({
    queryKey: heatingKeys.log(unitId),
    queryFn: ({ pageParam }) => getLogPage(unitId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
