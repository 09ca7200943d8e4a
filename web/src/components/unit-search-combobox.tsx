/**
 * A room picker that stays usable with thousands of rooms: the Combobox's options are one page of
 * the units list searched on the server by what is typed (`q`, one call per typing pause), not
 * the whole list. Chosen rooms keep their names while the search shows others (`known` names the
 * ones a record already has; picked ones are remembered). With more matches than one page, a hint
 * says to type to narrow them.
 */
import type { Unit, UnitListQuery } from '@heizplan/contracts/heating';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  /** Names of rooms the value may hold that a search need not return (a feed's own rooms). */
  known?: UnitRef[];
  /** Rooms not offered (the feed's own room among its linked rooms). */
  exclude?: string[];
  testid: string;
}

export type UnitSearchComboboxProps = BaseProps &
  (
    | { multiple?: false; value: string | null; onChange: (id: string | null) => void }
    | { multiple: true; value: string[]; onChange: (ids: string[]) => void }
  );

export function UnitSearchCombobox(props: UnitSearchComboboxProps) {
  const { label, placeholder, error, known = [], exclude = [], testid } = props;
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

  const chosen = props.multiple ? props.value : props.value ? [props.value] : [];
  const option = (id: string, name: string): ComboboxOption => ({
    id,
    item: name,
    testid: `${testid}-${id}`,
  });
  const options = [
    ...found.filter((u) => !exclude.includes(u.id)).map((u) => option(u.id, u.name)),
    // Chosen rooms the current search did not return, so the Combobox can still name them.
    ...chosen
      .filter((id) => !found.some((u) => u.id === id))
      .map((id) => option(id, remembered.current.get(id) ?? '…')),
  ];
  const more = (units.data?.count ?? 0) > found.length;

  return (
    <div className="flex flex-col gap-1">
      {props.multiple ? (
        <Combobox
          multiple
          label={label}
          placeholder={placeholder}
          error={error}
          value={props.value}
          onChange={props.onChange}
          options={options}
          onQueryChange={setTyped}
          testid={testid}
        />
      ) : (
        <Combobox
          label={label}
          placeholder={placeholder}
          error={error}
          value={props.value}
          onChange={props.onChange}
          options={options}
          onQueryChange={setTyped}
          testid={testid}
        />
      )}
      {more && (
        <p className="text-xs text-stone-600" data-testid={`${testid}-more`}>
          {t('unitSearch.more', { shown: found.length, count: units.data?.count ?? 0 })}
        </p>
      )}
    </div>
  );
}
