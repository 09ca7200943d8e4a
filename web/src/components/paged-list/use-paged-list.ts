import { useState } from 'react';
import { useDebounced } from '../../lib/use-debounced.ts';
import { NO_SORT, type SortState } from '../ui/table-sort.ts';

/** The page/size/search/sort state of a server-paged list, as query parameters for its API call. */
export interface PagedListParams {
  page: number;
  size: number;
  q?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/**
 * State of a server-paged, searchable, sortable list (units, devices, gateways, groups): the
 * search box text, its debounced value `q` (one request per typing pause), page, page size and
 * sort. Every change of search, filter or sort goes back to page 1, so the user never lands on a
 * page that no longer exists. `table` spreads onto the UI kit's Table.
 */
export function usePagedList(initialSort: SortState = NO_SORT) {
  const [search, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [sort, setSort] = useState(initialSort);
  const q = useDebounced(search.trim());
  const params: PagedListParams = {
    page,
    size,
    ...(q ? { q } : {}),
    ...(sort.order === 'none' ? {} : { sort: sort.key, order: sort.order }),
  };
  /** Wraps a filter's setter so that changing the filter returns to page 1. */
  const filter =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return {
    search,
    setSearch: filter(setSearchText),
    q,
    filter,
    params,
    table: {
      sort,
      onSortChange: filter(setSort),
      onPageChange: setPage,
      onSizeChange: (nextSize: number, nextPage: number) => {
        setSize(nextSize);
        setPage(nextPage);
      },
    },
  };
}

export type PagedList = ReturnType<typeof usePagedList>;
