/**
 * The company's units as Combobox/Select options for the screens that pick one (devices,
 * assign, events), from the units list call (sorted by name; the API's largest page, 200 units).
 */
import type { ComboboxOption } from '../../components/ui/combobox.tsx';
import { useUnits } from './list-units.ts';

const ALL_UNITS = { page: 1, size: 200, sort: 'name', order: 'asc' } as const;

export function useUnitOptions(testidPrefix: string) {
  const units = useUnits(ALL_UNITS);
  const options: ComboboxOption[] = (units.data?.results ?? []).map((unit) => ({
    id: unit.id,
    item: unit.name,
    testid: `${testidPrefix}-${unit.id}`,
  }));
  return { options, isPending: units.isPending };
}
