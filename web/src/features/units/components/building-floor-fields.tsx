/**
 * A unit's building and floor (decision 0052) as two selects: "Kein Gebäude" or one of the
 * company's buildings, then "Kein Geschoss" or one of that building's floors. Choosing another
 * building clears the floor (floors belong to one building); the floor select waits for a
 * building that has floors. A building or floor the lists do not (or not yet) have stays shown
 * by its name. Used by the unit settings and the create units form.
 */
import type { Building } from '@heizplan/contracts/buildings';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';

export interface BuildingFloorFieldsProps {
  buildings: Building[];
  buildingId: string | null;
  floor: string | null;
  onBuildingChange: (buildingId: string | null) => void;
  onFloorChange: (floor: string | null) => void;
  onBlur?: () => void;
  /** The unit's current building, shown while the buildings load. */
  current?: { id: string; name: string } | null;
  errors?: { building?: string; floor?: string };
  /** Prefix of the test ids: `<testid>-building`, `<testid>-floor`. */
  testid: string;
}

export function BuildingFloorFields({
  buildings,
  buildingId,
  floor,
  onBuildingChange,
  onFloorChange,
  onBlur,
  current,
  errors = {},
  testid,
}: BuildingFloorFieldsProps) {
  const { t } = useTranslation('units');
  const building = buildings.find((b) => b.id === buildingId);
  const floors = building?.floors ?? [];
  const listed = buildings.map((b) => ({ id: b.id, value: b.name, testid: `${testid}-building-${b.id}` }));
  if (buildingId && !building)
    listed.push({ id: buildingId, value: current?.name ?? '…', testid: `${testid}-building-${buildingId}` });
  const floorOptions = floors.map((name, index) => ({
    id: name,
    value: name,
    testid: `${testid}-floor-${index}`,
  }));
  if (floor && !floors.includes(floor))
    floorOptions.push({ id: floor, value: floor, testid: `${testid}-floor-current` });

  return (
    <>
      <Field label={t('fields.building')} error={errors.building} testid={`${testid}-building-field`}>
        {(control) => (
          <Select
            {...control}
            value={buildingId ?? ''}
            onChange={(next) => {
              if ((next || null) === buildingId) return;
              onBuildingChange(next || null);
              onFloorChange(null);
            }}
            onBlur={onBlur}
            options={[{ id: '', value: t('noBuilding'), testid: `${testid}-building-none` }, ...listed]}
            testid={`${testid}-building`}
          />
        )}
      </Field>
      <Field
        label={t('fields.floor')}
        error={errors.floor}
        hint={building && floors.length === 0 ? t('noFloorsHint', { building: building.name }) : undefined}
        testid={`${testid}-floor-field`}
      >
        {(control) => (
          <Select
            {...control}
            value={floor ?? ''}
            onChange={(next) => onFloorChange(next || null)}
            onBlur={onBlur}
            disabled={floorOptions.length === 0}
            options={[{ id: '', value: t('noFloor'), testid: `${testid}-floor-none` }, ...floorOptions]}
            testid={`${testid}-floor`}
          />
        )}
      </Field>
    </>
  );
}
