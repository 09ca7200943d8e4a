/**
 * The building filter of a list (decision 0052): a select of the company's buildings ("Alle
 * Gebäude" first) and, once a building with floors is chosen and the list can filter by floor,
 * a select of its floors ("Alle Etagen" first). Native selects, so keyboard and phones get their
 * platform behaviour. Nothing shows while the company has no buildings. With `labelled` each
 * select has a visible label (the alert list's filters), else an accessible name only.
 */
import { useTranslation } from 'react-i18next';
import type { BuildingFilter } from '../lib/heating/current-building.ts';
import { Field } from './ui/field.tsx';
import { Select, type SelectOption } from './ui/select.tsx';

export interface BuildingFilterSelectsProps {
  filter: BuildingFilter;
  /** Offer the floor select (the list's API filters by floor). */
  withFloor?: boolean;
  labelled?: boolean;
  /** Prefix of the test ids: `<testid>-building-filter`, `<testid>-floor-filter`. */
  testid: string;
}

export function BuildingFilterSelects({
  filter,
  withFloor = false,
  labelled = false,
  testid,
}: BuildingFilterSelectsProps) {
  const { t } = useTranslation('ui');
  if (filter.buildings.length === 0) return null;
  const select = (
    label: string,
    value: string,
    onChange: (id: string) => void,
    options: SelectOption[],
    id: string,
  ) =>
    labelled ? (
      <div className="min-w-0">
        <Field label={label} testid={`${id}-field`}>
          {(control) => (
            <Select {...control} value={value} onChange={onChange} options={options} testid={id} />
          )}
        </Field>
      </div>
    ) : (
      <Select aria-label={label} value={value} onChange={onChange} options={options} testid={id} />
    );
  const buildingTestid = `${testid}-building-filter`;
  const floorTestid = `${testid}-floor-filter`;
  return (
    <>
      {select(
        t('buildingFilter.building'),
        filter.buildingId,
        filter.setBuilding,
        [
          { id: '', value: t('buildingFilter.allBuildings'), testid: `${buildingTestid}-all` },
          ...filter.buildings.map((b) => ({ id: b.id, value: b.name, testid: `${buildingTestid}-${b.id}` })),
        ],
        buildingTestid,
      )}
      {withFloor &&
        filter.floors.length > 0 &&
        select(
          t('buildingFilter.floor'),
          filter.floor,
          filter.setFloor,
          [
            { id: '', value: t('buildingFilter.allFloors'), testid: `${floorTestid}-all` },
            ...filter.floors.map((name) => ({ id: name, value: name, testid: `${floorTestid}-${name}` })),
          ],
          floorTestid,
        )}
    </>
  );
}
