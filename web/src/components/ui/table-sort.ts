/**
 * Sort state of the table (spec §2 "Table", §3 sort state `{key, order}`): repeated clicks on
 * one column cycle asc → desc → none → asc; a click on another column starts at asc.
 */

export type SortOrder = 'asc' | 'desc' | 'none';

export interface SortState {
  key: string;
  order: SortOrder;
}

export const NO_SORT: SortState = { key: '', order: 'none' };

const nextOrder: Record<SortOrder, SortOrder> = { asc: 'desc', desc: 'none', none: 'asc' };

export function nextSort(current: SortState, key: string): SortState {
  if (current.key !== key) return { key, order: 'asc' };
  return { key, order: nextOrder[current.order] };
}

export type SortValue = string | number | boolean | Date | null | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compare(a: SortValue, b: SortValue): number {
  // Empty cells sort as the smallest value, which keeps the comparison a total order.
  if (a == null || b == null) return a == null ? (b == null ? 0 : -1) : 1;
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  return Number(a) - Number(b);
}

/** A sorted copy of `rows` (the input order when `order` is none); stable for equal values. */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState,
  sortValueOf: (row: T, key: string) => SortValue,
): T[] {
  if (sort.order === 'none' || sort.key === '') return [...rows];
  const direction = sort.order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => direction * compare(sortValueOf(a, sort.key), sortValueOf(b, sort.key)));
}
