/**
 * The current building in the navigation (decision 0052), for companies with two or more
 * buildings: a native select whose choice — kept per company in this browser — is the default
 * building filter of the units, devices and alerts lists; "Alle Gebäude" clears it. A company
 * with one building or none has nothing to choose, so nothing shows.
 */
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/ui/select.tsx';
import { useCurrentBuilding } from '../../lib/heating/current-building.ts';

export function BuildingSwitcher({ id }: { id: string }) {
  const { t } = useTranslation();
  const { buildingId, buildings, setBuildingId } = useCurrentBuilding();
  if (buildings.length < 2) return null;
  return (
    <div className="flex flex-col gap-1 px-3" data-testid="building-switcher">
      <label htmlFor={id} className="text-xs font-medium text-stone-600">
        {t('nav.building')}
      </label>
      <Select
        id={id}
        value={buildingId ?? ''}
        onChange={(next) => setBuildingId(next || null)}
        testid="building-switcher-select"
        options={[
          { id: '', value: t('nav.allBuildings'), testid: 'building-option-all' },
          ...buildings.map((b) => ({ id: b.id, value: b.name, testid: `building-option-${b.id}` })),
        ]}
      />
    </div>
  );
}
