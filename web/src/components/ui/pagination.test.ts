import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clampPage,
  DEFAULT_PAGE_SIZE,
  hasNext,
  hasPrevious,
  itemRange,
  MAX_PAGE_BUTTONS,
  PAGE_SIZE_OPTIONS,
  pageAfterSizeChange,
  pageCount,
  visiblePages,
} from './pagination.ts';

describe('pagination', () => {
  it('defaults to 10 per page with the options 5, 10, 20, 30, 40', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(PAGE_SIZE_OPTIONS).toEqual([5, 10, 20, 30, 40]);
  });

  it('counts pages as items divided by size, rounded up', () => {
    expect(pageCount(0, 10)).toBe(0);
    expect(pageCount(1, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(42, 5)).toBe(9);
  });

  it('has a previous page after page 1 and a next page before the last', () => {
    expect(hasPrevious(1)).toBe(false);
    expect(hasPrevious(2)).toBe(true);
    expect(hasNext(4, 5)).toBe(true);
    expect(hasNext(5, 5)).toBe(false);
    expect(hasNext(1, 0)).toBe(false);
  });

  it('keeps the first item of the old page visible after a page-size change', () => {
    // page 3 of 10 starts with item 21 → with 20 per page item 21 is on page 2
    expect(pageAfterSizeChange(3, 10, 20)).toBe(2);
    // page 2 of 20 starts with item 21 → with 5 per page it is on page 5
    expect(pageAfterSizeChange(2, 20, 5)).toBe(5);
    expect(pageAfterSizeChange(1, 10, 40)).toBe(1);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom(...PAGE_SIZE_OPTIONS),
        fc.constantFrom(...PAGE_SIZE_OPTIONS),
        (page, oldSize, newSize) => {
          const firstItem = (page - 1) * oldSize + 1;
          const { from, to } = itemRange(pageAfterSizeChange(page, oldSize, newSize), newSize, Infinity);
          return from <= firstItem && firstItem <= to;
        },
      ),
    );
  });

  it('shows every page when there are at most 5', () => {
    expect(visiblePages(1, 0)).toEqual([]);
    expect(visiblePages(1, 1)).toEqual([1]);
    expect(visiblePages(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows first and last with an ellipsis for hidden pages when there are more than 5', () => {
    expect(visiblePages(1, 10)).toEqual([1, 2, 3, 4, 'gap-end', 10]);
    expect(visiblePages(5, 10)).toEqual([1, 'gap-start', 4, 5, 6, 'gap-end', 10]);
    expect(visiblePages(10, 10)).toEqual([1, 'gap-start', 7, 8, 9, 10]);
    expect(visiblePages(3, 6)).toEqual([1, 2, 3, 4, 'gap-end', 6]);
  });

  it('never shows more than 5 page buttons, always the first, last and current, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (a, b) => {
        const pages = Math.max(a, b);
        const page = Math.min(a, b);
        const slots = visiblePages(page, pages);
        const numbers = slots.filter((s): s is number => typeof s === 'number');
        expect(numbers.length).toBeLessThanOrEqual(MAX_PAGE_BUTTONS);
        expect(numbers).toContain(1);
        expect(numbers).toContain(pages);
        expect(numbers).toContain(page);
        expect([...numbers].sort((x, y) => x - y)).toEqual(numbers);
        // an ellipsis stands exactly where consecutive buttons skip pages
        for (let i = 1; i < slots.length; i += 1) {
          const prev = slots[i - 1];
          const cur = slots[i];
          if (typeof prev === 'number' && typeof cur === 'number') expect(cur).toBe(prev + 1);
        }
      }),
    );
  });

  it('clamps a page into the existing pages and reports item ranges', () => {
    expect(clampPage(7, 3)).toBe(3);
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(2, 0)).toBe(1);
    expect(itemRange(2, 10, 15)).toEqual({ from: 11, to: 15 });
    expect(itemRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
  });
});
