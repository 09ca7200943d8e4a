/**
 * Name, group, building and floor, and wall control limits (min/max °C, spec §2) of one unit,
 * checked by the contract's `UnitUpdateSchema`: empty limits mean none, a minimum above the
 * maximum is refused on both fields before sending. Building and floor (decision 0052) show
 * once the company has a building (or the unit is in one); the floor is one of the chosen
 * building's, cleared when the building changes. The unit may opt out of the company's optimum
 * start and stop (decision 0056). Server field messages appear under the fields;
 * success and failure show a toast.
 */
import { type Unit, UnitUpdateSchema } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import {
  applyServerErrors,
  Form,
  FormNumberInput,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useUpdateUnit } from '../api/update-unit.ts';
import { BuildingFloorFields } from './building-floor-fields.tsx';

export function UnitSettingsForm({ unit }: { unit: Unit }) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const form = useContractForm(UnitUpdateSchema, {
    defaultValues: {
      name: unit.name,
      groupId: unit.groupId,
      buildingId: unit.buildingId,
      floor: unit.floor,
      wallControlMin: unit.wallControlMin,
      wallControlMax: unit.wallControlMax,
      optimumStart: unit.optimumStart,
    },
    units: { wallControlMin: '°C', wallControlMax: '°C' },
  });
  const group = useFormControl('groupId', form.control);
  const building = useFormControl('buildingId', form.control);
  const floor = useFormControl('floor', form.control);
  const name = form.watch('name');
  const groups = useAllGroups();
  const { buildings } = useAllBuildings();
  // A company without buildings sees (and sends) nothing of them.
  const withBuildings = buildings.length > 0 || unit.buildingId !== null;
  const update = useUpdateUnit();

  const save = ({ buildingId, floor: floorName, ...patch }: Parameters<typeof update.mutate>[0]['patch']) =>
    update.mutate(
      {
        unitId: unit.id,
        patch: {
          ...patch,
          groupId: patch.groupId ?? null,
          ...(withBuildings ? { buildingId: buildingId ?? null, floor: floorName ?? null } : {}),
        },
      },
      {
        onSuccess: () => toast({ type: 'success', title: t('detail.saved'), testid: 'toast-unit-saved' }),
        onError: (error) => {
          applyServerErrors(form, error, problems, { root: false });
          toast({
            type: 'error',
            title: t('detail.saveError'),
            description: problems.reason(error),
          });
        },
      },
    );

  return (
    <Form form={form} onSubmit={save} className="grid gap-4 sm:grid-cols-2">
      <FormTextInput name="name" label={t('fields.name')} required testid="unit-name" />
      <Combobox
        label={t('fields.group')}
        placeholder={t('noGroup')}
        value={group.value ?? null}
        onChange={(id) => group.onChange(id || null)}
        error={group.error}
        testid="unit-group"
        options={[
          { id: '', item: t('noGroup'), testid: 'unit-group-none' },
          ...(groups.data?.results ?? []).map((g) => ({
            id: g.id,
            item: g.name,
            testid: `unit-group-${g.id}`,
          })),
        ]}
      />
      {withBuildings && (
        <BuildingFloorFields
          buildings={buildings}
          buildingId={building.value ?? null}
          floor={floor.value ?? null}
          onBuildingChange={building.onChange}
          onFloorChange={floor.onChange}
          current={unit.buildingId ? { id: unit.buildingId, name: unit.buildingName ?? '' } : null}
          errors={{ building: building.error, floor: floor.error }}
          testid="unit"
        />
      )}
      <FormNumberInput
        name="wallControlMin"
        label={t('detail.wallMin')}
        step={0.5}
        optional
        rules={{ deps: ['wallControlMax'] }}
        hint={t('detail.wallHint')}
        testid="unit-wall-min"
      />
      <FormNumberInput
        name="wallControlMax"
        label={t('detail.wallMax')}
        step={0.5}
        optional
        rules={{ deps: ['wallControlMin'] }}
        testid="unit-wall-max"
      />
      <label className="flex items-center gap-3 text-sm sm:col-span-2">
        <input
          type="checkbox"
          {...form.register('optimumStart')}
          className="size-5 accent-brand-600"
          data-testid="unit-optimum-start"
        />
        {t('detail.optimumStart')}
      </label>
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" loading={update.isPending} disabled={!name?.trim()} testid="unit-save">
          {t('detail.save')}
        </Button>
      </div>
    </Form>
  );
}
