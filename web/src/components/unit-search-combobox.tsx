/**
 * A room picker that stays usable with thousands of rooms: the Combobox's options are one page of
 * the units list searched on the server by what is typed (`q`, one call per typing pause), not
 * the whole list. Chosen rooms keep their names while the search shows others (`known` names the
 * ones a record already has; picked ones are remembered; a chosen room named by neither, e.g. one
 * preselected from a link, is fetched once). With more matches than one page, a hint says to type
 * to narrow them.
 *
 * A single choice may lead with fixed choices (`leading`: "All rooms", "Unassigned", "No room"),
 * which is how a list's room filter or a clearable optional room is built.
 */
import type { Unit, UnitListQuery } from '@heizplan/contracts/heating';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getUnit } from '../lib/heating/get-unit.ts';
import { listUnits } from '../lib/heating/list-units.ts';
import { heatingKeys } from '../lib/heating/query-keys.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { Combobox, type ComboboxOption } from './ui/combobox.tsx';

/** Rooms fetched per search. */
export const UNIT_SEARCH_SIZE = 50;

export interface UnitRef {
  id: string;
  name: string;
}

interface BaseProps {
  label: string;
  placeholder?: string;
  error?: string | null;
  /** A line under the input describing it (linked to it for screen readers). */
  hint?: string;
  disabled?: boolean;
  /** A room must be chosen (announced; the form's schema still decides). */
  required?: boolean;
  /** Label for screen readers only (a filter row whose other filters show none). */
  labelHidden?: boolean;
  /** Names of rooms the value may hold that a search need not return (a record's own rooms). */
  known?: UnitRef[];
  /** Rooms not offered (the feed's own room among its linked rooms). */
  exclude?: string[];
  /** Whether a found room is offered at all (e.g. not the group's own members). */
  offered?: (unit: Unit) => boolean;
  /** A found room's text in the list (default: its name), e.g. with its group. */
  optionLabel?: (unit: Unit) => string;
  testid: string;
}

export type UnitSearchComboboxProps = BaseProps &
  (
    | {
        multiple?: false;
        value: string | null;
        onChange: (id: string | null) => void;
        /** Fixed choices before the rooms; their ids are values like a room's ("all", "none"). */
        leading?: ComboboxOption[];
      }
    | { multiple: true; value: string[]; onChange: (ids: string[]) => void; leading?: undefined }
  );

export function UnitSearchCombobox(props: UnitSearchComboboxProps) {
  const {
    label,
    placeholder,
    error,
    hint,
    disabled,
    required,
    labelHidden,
    known = [],
    exclude = [],
    offered = () => true,
    optionLabel = (unit: Unit) => unit.name,
    testid,
  } = props;
  const leading = props.leading ?? [];
  const { t } = useTranslation('ui');
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim());
  const query: Partial<UnitListQuery> = {
    page: 1,
    size: UNIT_SEARCH_SIZE,
    sort: 'name',
    order: 'asc',
    ...(q ? { q } : {}),
  };
  const units = useQuery({
    queryKey: heatingKeys.unitList(query),
    queryFn: () => listUnits(query),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  // Names of rooms picked from earlier searches, so their chips keep them.
  const remembered = useRef(new Map<string, string>());
  const found: Unit[] = units.data?.results ?? [];
  for (const unit of [...known, ...found]) remembered.current.set(unit.id, unit.name);

  const chosen = (props.multiple ? props.value : props.value ? [props.value] : []).filter(
    (id) => !leading.some((o) => o.id === id),
  );
  // Chosen rooms neither known nor found by the first search: asked for one by one.
  const unnamed = units.isPending ? [] : chosen.filter((id) => !remembered.current.has(id));
  const fetched = useQueries({
    queries: unnamed.map((id) => ({
      queryKey: heatingKeys.unit(id),
      queryFn: () => getUnit(id),
      staleTime: 30_000,
    })),
  });
  for (const result of fetched) if (result.data) remembered.current.set(result.data.id, result.data.name);

  const option = (id: string, name: string): ComboboxOption => ({
    id,
    item: name,
    testid: `${testid}-${id}`,
  });
  const options = [
    ...leading,
    ...found.filter((u) => !exclude.includes(u.id) && offered(u)).map((u) => option(u.id, optionLabel(u))),
    // Chosen rooms the current search did not return, so the Combobox can still name them.
    ...chosen
      .filter((id) => !found.some((u) => u.id === id))
      .map((id) => option(id, remembered.current.get(id) ?? '…')),
  ];
  const more = (units.data?.count ?? 0) > found.length;
  const common = {
    label,
    placeholder,
    error,
    hint,
    disabled,
    required,
    labelHidden,
    options,
    onQueryChange: setTyped,
    testid,
  };

  return (
    <div className="flex flex-col gap-1">
      {props.multiple ? (
        <Combobox {...common} multiple value={props.value} onChange={props.onChange} />
      ) : (
        <Combobox {...common} value={props.value} onChange={props.onChange} />
      )}
      {more && (
        <p className="text-xs text-stone-600" data-testid={`${testid}-more`}>
          {t('unitSearch.more', { shown: found.length, count: units.data?.count ?? 0 })}
        </p>
      )}
    </div>
  );
}
