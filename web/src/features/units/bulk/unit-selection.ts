/**
 * The rooms list's selection for its bulk edit: unit ids (with their names, for the row labels
 * and confirmations) chosen on any page of the current search. It holds while the user pages or
 * sorts, and empties when the search or a filter changes (`scope`): a selection made under
 * another search would act on rows the user no longer sees.
 */
import { useState } from 'react';

export interface UnitSelection {
  /** The selected ids, in the order they were chosen. */
  ids: string[];
  count: number;
  has(id: string): boolean;
  /** Selects or deselects one unit. */
  toggle(unit: { id: string; name: string }, selected: boolean): void;
  /** Selects or deselects every unit of `units` (the page shown). */
  setAll(units: readonly { id: string; name: string }[], selected: boolean): void;
  clear(): void;
}

const NONE: ReadonlyMap<string, string> = new Map();

/** A selection that starts empty again whenever `scope` (e.g. the search and filters as text) changes. */
export function useUnitSelection(scope: string): UnitSelection {
  const [state, setState] = useState<{ scope: string; selected: ReadonlyMap<string, string> }>({
    scope,
    selected: NONE,
  });
  const selected = state.scope === scope ? state.selected : NONE;
  const update = (change: (next: Map<string, string>) => void) =>
    setState((prev) => {
      const next = new Map(prev.scope === scope ? prev.selected : NONE);
      change(next);
      return { scope, selected: next };
    });
  return {
    ids: [...selected.keys()],
    count: selected.size,
    has: (id) => selected.has(id),
    toggle: (unit, on) =>
      update((next) => {
        if (on) next.set(unit.id, unit.name);
        else next.delete(unit.id);
      }),
    setAll: (units, on) =>
      update((next) => {
        for (const unit of units) {
          if (on) next.set(unit.id, unit.name);
          else next.delete(unit.id);
        }
      }),
    clear: () => setState({ scope, selected: NONE }),
  };
}
