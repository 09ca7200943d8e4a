import type { ReactNode } from 'react';
import { SearchInput } from '../ui/search-input.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { Table, type TableColumn, type TablePage } from '../ui/table.tsx';
import type { PagedList as PagedListState } from './use-paged-list.ts';

const EMPTY_PAGE = { results: [], count: 0, page: 1, size: 10 };

/** The parts of a TanStack Query result the list reads. */
interface PageQuery<T> {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  data?: TablePage<T>;
}

export interface PagedListProps<T> {
  query: PageQuery<T>;
  list: PagedListState;
  /** Accessible name of the table (usually the page title). */
  label: string;
  columns: TableColumn<T>[];
  rowKey: (row: T) => string;
  /** `noMatch`: the table's text when a filtered list is empty (default: the table's own). */
  texts: { loadError: string; emptyTitle: string; emptyText: string; noMatch?: string };
  /** True while a search or filter narrows the list: an empty answer then is "no matches", not "nothing yet". */
  filtered?: boolean;
  /** Replaces the search box, e.g. search plus filter selects. */
  filters?: ReactNode;
  /** Group headings in the table (the Table's `groupBy`). */
  groupBy?: (row: T) => string;
  /** Prefix of the test ids: `<testid>-loading|error|empty|search|table`. */
  testid: string;
}

/**
 * A server-paged list in its four states (spec §2 tables): a spinner on first load, an error
 * alert, an invitation when there is nothing at all yet, else the search (or `filters`) above
 * the UI kit's Table, which dims while the next page loads.
 */
export function PagedList<T>({
  query,
  list,
  label,
  columns,
  rowKey,
  texts,
  filtered = Boolean(list.q),
  filters,
  groupBy,
  testid,
}: PagedListProps<T>) {
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner loading size="lg" testid={`${testid}-loading`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid={`${testid}-error`}>
        {texts.loadError}
      </p>
    );
  }
  if (query.data?.count === 0 && !filtered) {
    return (
      <div
        className="rounded-xl border border-dashed border-stone-300 bg-white p-10 text-center"
        data-testid={`${testid}-empty`}
      >
        <h2 className="text-lg font-semibold">{texts.emptyTitle}</h2>
        <p className="mt-1 text-stone-600">{texts.emptyText}</p>
      </div>
    );
  }
  return (
    <>
      {filters ?? (
        <SearchInput
          value={list.search}
          onChange={list.setSearch}
          className="sm:max-w-xs"
          testid={`${testid}-search`}
        />
      )}
      <Table
        label={label}
        columns={columns}
        data={query.data ?? EMPTY_PAGE}
        rowKey={rowKey}
        {...list.table}
        loading={query.isFetching && query.isPlaceholderData}
        emptyText={texts.noMatch}
        {...(groupBy ? { groupBy } : {})}
        testid={`${testid}-table`}
      />
    </>
  );
}
