/**
 * The buildings a closure of scope "buildings" covers (decision 0051): one row per building,
 * whole or one of its floors, added with the next building not chosen yet and removed per row.
 * A building chosen in a closure but deleted meanwhile is no longer offered; the server names a
 * floor the building no longer lists (`unknown_floor`) under the rows.
 */
import type { Building } from '@heizplan/contracts/buildings';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useFormControl } from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { BuildingRow, ClosureForm } from '../closure-form.ts';

export interface BuildingTargetsProps {
  buildings: Building[];
}

/** The building's floors; one it dropped meanwhile stays shown while a row still names it. */
const floorChoices = (floors: string[], chosen: string) =>
  chosen && !floors.includes(chosen) ? [chosen, ...floors] : floors;

export function BuildingTargets({ buildings }: BuildingTargetsProps) {
  const { t } = useTranslation('closures');
  const rows = useFormControl<ClosureForm, 'buildings'>('buildings');
  const change = (next: BuildingRow[]) => rows.onChange(next);
  const nameOf = (id: string) => buildings.find((b) => b.id === id)?.name ?? '—';
  const unused = buildings.find((b) => !rows.value.some((r) => r.buildingId === b.id)) ?? buildings[0];
  const errorId = 'closure-buildings-error';

  return (
    <fieldset
      className="flex flex-col gap-2"
      data-testid="closure-buildings"
      aria-describedby={rows.error ? errorId : undefined}
    >
      <legend className="mb-2 text-sm font-medium text-ink">{t('fields.buildings')}</legend>
      {rows.value.map((row, index) => {
        const building = buildings.find((b) => b.id === row.buildingId);
        const floors = building?.floors ?? [];
        const update = (patch: Partial<BuildingRow>) =>
          change(rows.value.map((r, i) => (i === index ? { ...r, ...patch } : r)));
        return (
          <div
            // Rows have no id of their own; a building may appear twice with two floors.
            // biome-ignore lint/suspicious/noArrayIndexKey: the row's position is its identity here
            key={index}
            className="grid gap-2 rounded-lg border border-stone-200 p-2 sm:grid-cols-[1fr_1fr_auto] sm:items-center sm:border-0 sm:p-0"
            data-testid={`closure-building-row-${index}`}
          >
            <Select
              aria-label={t('fields.building')}
              value={row.buildingId}
              onChange={(buildingId) => update({ buildingId, floor: '' })}
              options={[
                ...(building
                  ? []
                  : [{ id: row.buildingId, value: '—', testid: `closure-building-${index}-gone` }]),
                ...buildings.map((b) => ({
                  id: b.id,
                  value: b.name,
                  testid: `closure-building-${index}-${b.id}`,
                })),
              ]}
              testid={`closure-building-${index}`}
            />
            <Select
              aria-label={t('fields.floor')}
              value={row.floor}
              onChange={(floor) => update({ floor })}
              options={[
                { id: '', value: t('fields.wholeBuilding'), testid: `closure-floor-${index}-whole` },
                ...floorChoices(floors, row.floor).map((floor) => ({
                  id: floor,
                  value: floor,
                  testid: `closure-floor-${index}-${floor}`,
                })),
              ]}
              disabled={floors.length === 0 && row.floor === ''}
              testid={`closure-floor-${index}`}
            />
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('fields.removeBuildingLabel', { name: nameOf(row.buildingId) })}
              onClick={() => change(rows.value.filter((_, i) => i !== index))}
              testid={`closure-building-remove-${index}`}
            >
              {t('fields.removeBuilding')}
            </Button>
          </div>
        );
      })}
      {unused && (
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => change([...rows.value, { buildingId: unused.id, floor: '' }])}
          testid="closure-building-add"
        >
          {t('fields.addBuilding')}
        </Button>
      )}
      {rows.error && (
        <p id={errorId} className="text-sm text-red-700" data-testid="closure-buildings-field-error">
          {rows.error}
        </p>
      )}
    </fieldset>
  );
}
