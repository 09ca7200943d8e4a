/**
 * Name, group and wall control limits (min/max °C, spec §2) of one unit. Empty limits mean
 * none. Server field messages appear under the fields; success and failure show a toast.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useUpdateUnit } from '../api/update-unit.ts';

const limitText = (value: number | null) => (value === null ? '' : String(value));
const limitValue = (text: string) => (text.trim() === '' ? null : Number(text.replace(',', '.')));

export function UnitSettingsForm({ unit }: { unit: Unit }) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const [name, setName] = useState(unit.name);
  const [groupId, setGroupId] = useState(unit.groupId);
  const [min, setMin] = useState(limitText(unit.wallControlMin));
  const [max, setMax] = useState(limitText(unit.wallControlMax));
  const groups = useAllGroups();
  const update = useUpdateUnit();
  const fieldError = (field: string) => problems.field(update.error, field);

  const save = () =>
    update.mutate(
      {
        unitId: unit.id,
        patch: {
          name: name.trim(),
          groupId: groupId || null,
          wallControlMin: limitValue(min),
          wallControlMax: limitValue(max),
        },
      },
      {
        onSuccess: () => toast({ type: 'success', title: t('detail.saved'), testid: 'toast-unit-saved' }),
        onError: (error) =>
          toast({
            type: 'error',
            title: t('detail.saveError'),
            description: problems.reason(error),
          }),
      },
    );

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <TextInput
        label={t('fields.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={fieldError('name')}
        required
        testid="unit-name"
      />
      <Combobox
        label={t('fields.group')}
        placeholder={t('noGroup')}
        value={groupId}
        onChange={setGroupId}
        error={fieldError('groupId')}
        testid="unit-group"
        options={[
          { id: '', item: t('noGroup'), testid: 'unit-group-none' },
          ...(groups.data?.results ?? []).map((group) => ({
            id: group.id,
            item: group.name,
            testid: `unit-group-${group.id}`,
          })),
        ]}
      />
      <TextInput
        label={t('detail.wallMin')}
        type="number"
        step={0.5}
        value={min}
        onChange={(event) => setMin(event.target.value)}
        error={fieldError('wallControlMin')}
        hint={t('detail.wallHint')}
        testid="unit-wall-min"
      />
      <TextInput
        label={t('detail.wallMax')}
        type="number"
        step={0.5}
        value={max}
        onChange={(event) => setMax(event.target.value)}
        error={fieldError('wallControlMax')}
        testid="unit-wall-max"
      />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" loading={update.isPending} disabled={!name.trim()} testid="unit-save">
          {t('detail.save')}
        </Button>
      </div>
    </form>
  );
}
