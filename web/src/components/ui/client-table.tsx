/**
 * `Table` for data held in memory: sorts, pages and resizes itself with the same rules
 * (spec §2 "Table"). A sort change returns to page 1 so the first rows of the new order are
 * seen; when `rows` shrink (a filter) the page is clamped to the last existing one.
 */
import { useState } from 'react';
import { clampPage, DEFAULT_PAGE_SIZE, pageCount } from './pagination.ts';
import { cellValue, Table, type TableColumn } from './table.tsx';
import { NO_SORT, type SortState, type SortValue, sortRows } from './table-sort.ts';

export interface ClientTableProps<T> {
  columns: TableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  initialSort?: SortState;
  initialSize?: number;
  loading?: boolean;
  disabled?: boolean;
  emptyText?: string;
  label?: string;
  testid?: string;
}

export function ClientTable<T>({
  columns,
  rows,
  initialSort = NO_SORT,
  initialSize = DEFAULT_PAGE_SIZE,
  ...rest
}: ClientTableProps<T>) {
  const [sort, setSort] = useState(initialSort);
  const [size, setSize] = useState(initialSize);
  const [requestedPage, setPage] = useState(1);
  const page = clampPage(requestedPage, pageCount(rows.length, size));

  const sortValueOf = (row: T, key: string): SortValue => {
    const column = columns.find((c) => c.key === key);
    return column?.sortValue ? column.sortValue(row) : (cellValue(row, key) as SortValue);
  };
  const sorted = sortRows(rows, sort, sortValueOf);

  return (
    <Table
      {...rest}
      columns={columns}
      data={{ results: sorted.slice((page - 1) * size, page * size), count: rows.length, page, size }}
      sort={sort}
      onSortChange={(next) => {
        setSort(next);
        setPage(1);
      }}
      onPageChange={setPage}
      onSizeChange={(nextSize, nextPage) => {
        setSize(nextSize);
        setPage(nextPage);
      }}
    />
  );
}
