/**
 * Pagination arithmetic of the table (spec §2 "Table"), kept pure so every rule is tested
 * without rendering. Pages are 1-based, like the API's `{results, count, page, size}`.
 */

export const PAGE_SIZE_OPTIONS = [5, 10, 20, 30, 40] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** At most this many numbered page buttons are shown, first and last included. */
export const MAX_PAGE_BUTTONS = 5;

/** Item count divided by page size, rounded up (0 items → 0 pages). */
export function pageCount(count: number, size: number): number {
  return Math.ceil(count / size);
}

export function hasPrevious(page: number): boolean {
  return page > 1;
}

export function hasNext(page: number, pages: number): boolean {
  return page < pages;
}

/** Keeps a page number inside 1..pages (page 1 when there are no pages). */
export function clampPage(page: number, pages: number): number {
  return Math.min(Math.max(1, page), Math.max(1, pages));
}

/**
 * The page to show after the page size changes from `oldSize` to `newSize`: the one holding
 * the first item of the old page, so that item stays visible.
 */
export function pageAfterSizeChange(page: number, oldSize: number, newSize: number): number {
  const firstItemIndex = (page - 1) * oldSize;
  return Math.floor(firstItemIndex / newSize) + 1;
}

/** A numbered page button, or a gap of hidden pages before/after the window. */
export type PageSlot = number | 'gap-start' | 'gap-end';

/**
 * The page buttons to show: all pages when they fit into `MAX_PAGE_BUTTONS`, otherwise the
 * first and the last page, a window of neighbours around `page`, and a gap marker (ellipsis)
 * wherever pages are left out.
 */
export function visiblePages(page: number, pages: number): PageSlot[] {
  if (pages <= MAX_PAGE_BUTTONS) return Array.from({ length: pages }, (_, i) => i + 1);
  const windowSize = MAX_PAGE_BUTTONS - 2;
  const start = Math.min(Math.max(page - Math.floor(windowSize / 2), 2), pages - windowSize);
  const end = start + windowSize - 1;
  const slots: PageSlot[] = [1];
  if (start > 2) slots.push('gap-start');
  for (let p = start; p <= end; p += 1) slots.push(p);
  if (end < pages - 1) slots.push('gap-end');
  slots.push(pages);
  return slots;
}

/** 1-based positions of the first and last item on `page` ({from: 0, to: 0} when empty). */
export function itemRange(page: number, size: number, count: number): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  return { from: (page - 1) * size + 1, to: Math.min(page * size, count) };
}
