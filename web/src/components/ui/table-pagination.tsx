/**
 * The table's footer (spec §2 "Table"): page size choice labelled 'Einträge pro Seite', the
 * item range, previous/next following hasPrevious/hasNext, and at most 5 page buttons with an
 * ellipsis for gaps. Every control is disabled while loading or when the table is disabled.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { Icon } from './icon.tsx';
import {
  hasNext,
  hasPrevious,
  itemRange,
  PAGE_SIZE_OPTIONS,
  pageAfterSizeChange,
  pageCount,
  visiblePages,
} from './pagination.ts';
import { Select } from './select.tsx';

export interface TablePaginationProps {
  count: number;
  page: number;
  size: number;
  inactive: boolean;
  onPageChange: (page: number) => void;
  /** New size and the page that keeps the first item of the current page visible. */
  onSizeChange: (size: number, page: number) => void;
  testid: string;
}

const pageButtonClass =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2 text-sm font-medium disabled:cursor-not-allowed';
/**
 * Colours of a page button and of the current one, never both on one element: two classes for
 * one state compete and Tailwind's stylesheet order, not this code, picks the winner — the
 * hovered current page lost its background that way.
 */
const otherPageClass = 'text-ink hover:bg-stone-100 disabled:text-stone-400 disabled:hover:bg-transparent';
const currentPageClass = 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-200';

export function TablePagination({
  count,
  page,
  size,
  inactive,
  onPageChange,
  onSizeChange,
  testid,
}: TablePaginationProps) {
  const { t } = useTranslation('ui');
  const sizeId = useId();
  const pages = pageCount(count, size);
  const { from, to } = itemRange(page, size, count);

  return (
    <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3 border-t border-stone-200 px-4 py-3 text-sm">
      <div className="flex items-center gap-2">
        <label htmlFor={sizeId} className="text-stone-600">
          {t('table.pageSize')}
        </label>
        <Select
          id={sizeId}
          className="w-20"
          value={String(size)}
          disabled={inactive}
          testid={`${testid}-page-size`}
          options={PAGE_SIZE_OPTIONS.map((option) => ({
            id: String(option),
            value: String(option),
            testid: `${testid}-page-size-${option}`,
          }))}
          onChange={(value) => {
            const next = Number(value);
            onSizeChange(next, pageAfterSizeChange(page, size, next));
          }}
        />
      </div>
      <p className="text-stone-600" data-testid={`${testid}-range`}>
        {t('table.range', { from, to, count })}
      </p>
      <nav aria-label={t('table.pagination')}>
        <ul className="flex items-center gap-1">
          <li>
            <button
              type="button"
              className={cx(pageButtonClass, otherPageClass)}
              aria-label={t('table.previous')}
              data-testid={`${testid}-previous`}
              disabled={inactive || !hasPrevious(page)}
              onClick={() => onPageChange(page - 1)}
            >
              <Icon name="chevronLeft" />
            </button>
          </li>
          {visiblePages(page, pages).map((slot) =>
            typeof slot === 'number' ? (
              <li key={slot}>
                <button
                  type="button"
                  className={cx(pageButtonClass, slot === page ? currentPageClass : otherPageClass)}
                  aria-label={t('table.page', { page: slot })}
                  aria-current={slot === page ? 'page' : undefined}
                  data-testid={`${testid}-page-${slot}`}
                  disabled={inactive}
                  onClick={() => onPageChange(slot)}
                >
                  {slot}
                </button>
              </li>
            ) : (
              <li
                key={slot}
                aria-hidden="true"
                data-testid={`${testid}-${slot}`}
                className="px-1 text-stone-500"
              >
                …
              </li>
            ),
          )}
          <li>
            <button
              type="button"
              className={cx(pageButtonClass, otherPageClass)}
              aria-label={t('table.next')}
              data-testid={`${testid}-next`}
              disabled={inactive || !hasNext(page, pages)}
              onClick={() => onPageChange(page + 1)}
            >
              <Icon name="chevronRight" />
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
