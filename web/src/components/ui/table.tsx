/**
 * Data table (spec §2 "Table", §3 column `{key, label, sortable}` and sort state). Controlled:
 * it shows one page `{results, count, page, size}` — straight from a paginated API call — and
 * reports clicks through `onSortChange`, `onPageChange` and `onSizeChange`. `ClientTable`
 * (client-table.tsx) wraps it for data that is all in memory.
 *
 * Sort clicks follow `nextSort` and are ignored while loading, when disabled, or on a column
 * that is not sortable. While loading a spinner covers the rows; with no rows the empty text
 * shows ('Keine Einträge gefunden' unless `emptyText` is given).
 *
 * Fitting the screen: a table fits a 1280 px window without sideways scrolling —
 * cells of `wrap` columns (names, lists) wrap, headers wrap between words, and a column with
 * `minScreen` is left out below that breakpoint. On a phone a table that is still too wide
 * scrolls inside its frame with the first column kept in view.
 */
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { Icon } from './icon.tsx';
import { Spinner } from './spinner.tsx';
import { TablePagination } from './table-pagination.tsx';
import { nextSort, type SortState, type SortValue } from './table-sort.ts';

export interface TableColumn<T> {
  key: string;
  label: string;
  sortable?: boolean;
  /** Cell content; defaults to the row's property named `key`. */
  render?: (row: T) => ReactNode;
  /** Value sorted by in `ClientTable`; defaults to the row's property named `key`. */
  sortValue?: (row: T) => SortValue;
  align?: 'left' | 'right';
  /** Let the cell's text wrap (names, lists of names); other cells stay on one line. */
  wrap?: boolean;
  /** Show the column only from this breakpoint up (Tailwind's sm 640, md 768, lg 1024 px). */
  minScreen?: 'sm' | 'md' | 'lg' | '2xl';
  /** A control in the header cell before the label, e.g. the checkbox selecting the page's rows. */
  headerPrefix?: ReactNode;
}

/** The API's pagination envelope (packages/contracts `pageOf`). */
export interface TablePage<T> {
  results: T[];
  count: number;
  page: number;
  size: number;
}

export interface TableProps<T> {
  columns: TableColumn<T>[];
  data: TablePage<T>;
  rowKey: (row: T) => string;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number, page: number) => void;
  loading?: boolean;
  disabled?: boolean;
  emptyText?: string;
  /** Accessible name of the table. */
  label?: string;
  /**
   * Group label of a row: a heading row goes before each row whose label differs from the row
   * above (the server sorts so that a group's rows follow each other).
   */
  groupBy?: (row: T) => string;
  testid?: string;
}

/** The row's own property named `key`, for default cells and sorting. */
export function cellValue<T>(row: T, key: string): unknown {
  return (row as Record<string, unknown>)[key];
}

const ariaSort = { asc: 'ascending', desc: 'descending', none: undefined } as const;
const fromScreen = {
  sm: 'hidden sm:table-cell',
  md: 'hidden md:table-cell',
  lg: 'hidden lg:table-cell',
  '2xl': 'hidden 2xl:table-cell',
} as const;
/** The first column stays in view while a too wide table scrolls sideways (phones). */
const stickyFirst = 'sticky left-0 z-[1]';

function columnClass<T>(column: TableColumn<T>, index: number): string {
  return cx(
    // Narrower on phones, where every column counts.
    'px-2 sm:px-3',
    column.align === 'right' && 'text-right',
    column.minScreen && fromScreen[column.minScreen],
    index === 0 && stickyFirst,
  );
}
const sortIcon = { asc: 'sortAsc', desc: 'sortDesc', none: 'sortNone' } as const;

export function Table<T>({
  columns,
  data,
  rowKey,
  sort,
  onSortChange,
  onPageChange,
  onSizeChange,
  loading = false,
  disabled = false,
  emptyText,
  label,
  groupBy,
  testid = 'table',
}: TableProps<T>) {
  const { t } = useTranslation('ui');
  const inactive = loading || disabled;

  const clickHeader = (column: TableColumn<T>) => {
    if (inactive || !column.sortable) return;
    onSortChange(nextSort(sort, column.key));
  };

  return (
    <div className="overflow-hidden rounded-xl border border-stone-200 bg-white" data-testid={testid}>
      <div className="relative overflow-x-auto" data-table-scroll>
        <table className="w-full border-collapse text-left text-sm" aria-label={label} aria-busy={loading}>
          <thead className="text-xs font-semibold text-stone-600">
            <tr>
              {columns.map((column, index) => {
                const order = sort.key === column.key ? sort.order : 'none';
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={column.sortable ? ariaSort[order] : undefined}
                    data-testid={`${testid}-header-${column.key}`}
                    data-sort={column.sortable ? order : undefined}
                    className={cx('border-b border-stone-200 bg-stone-50 py-3', columnClass(column, index))}
                  >
                    {column.headerPrefix && (
                      <span className="mr-2 inline-flex align-middle">{column.headerPrefix}</span>
                    )}
                    {column.sortable ? (
                      <button
                        type="button"
                        onClick={() => clickHeader(column)}
                        aria-disabled={inactive || undefined}
                        data-testid={`${testid}-sort-${column.key}`}
                        className={cx(
                          'inline-flex items-center gap-1 rounded text-left hover:text-ink',
                          order !== 'none' && 'text-brand-700',
                          inactive && 'cursor-not-allowed',
                        )}
                      >
                        {column.label}
                        <Icon name={sortIcon[order]} className="size-3.5" />
                        {order !== 'none' && (
                          <span className="sr-only">
                            {t(order === 'asc' ? 'table.sortedAsc' : 'table.sortedDesc')}
                          </span>
                        )}
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className={cx(loading && 'opacity-50')}>
            {data.results.map((row, rowIndex) => (
              <Fragment key={rowKey(row)}>
                {groupBy && (rowIndex === 0 || groupBy(data.results[rowIndex - 1] as T) !== groupBy(row)) && (
                  <tr data-testid={`${testid}-group-${rowKey(row)}`}>
                    <th
                      colSpan={columns.length}
                      scope="colgroup"
                      className="border-b border-stone-200 bg-stone-100 px-2 py-2 text-xs font-semibold text-stone-700 sm:px-3"
                    >
                      <span className="sticky left-2">{groupBy(row)}</span>
                    </th>
                  </tr>
                )}
                <tr
                  data-testid={`${testid}-row-${rowKey(row)}`}
                  className="group border-b border-stone-100 last:border-b-0"
                >
                  {columns.map((column, index) => (
                    <td
                      key={column.key}
                      className={cx(
                        'bg-white py-3 group-hover:bg-stone-50',
                        column.wrap ? 'min-w-24' : 'whitespace-nowrap',
                        columnClass(column, index),
                      )}
                    >
                      {column.render ? column.render(row) : String(cellValue(row, column.key) ?? '')}
                    </td>
                  ))}
                </tr>
              </Fragment>
            ))}
          </tbody>
        </table>
        {/* Outside the table so it stays centred in view when a wide table scrolls sideways. */}
        {data.results.length === 0 &&
          (loading ? (
            <div className="h-28" />
          ) : (
            <p
              className="sticky left-0 px-4 py-10 text-center text-stone-600"
              data-testid={`${testid}-empty`}
            >
              {emptyText ?? t('table.empty')}
            </p>
          ))}
        {loading && (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner loading size="lg" testid={`${testid}-loading`} />
          </div>
        )}
      </div>
      <TablePagination
        count={data.count}
        page={data.page}
        size={data.size}
        inactive={inactive}
        onPageChange={onPageChange}
        onSizeChange={onSizeChange}
        testid={testid}
      />
    </div>
  );
}
