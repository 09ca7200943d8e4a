/**
 * "Create units" dialog (spec §2 "Create multiple units"): one unit by name, or many at once
 * from a pattern ("Raum {n}") and a count, optionally in a group. Server field messages show
 * under the fields; on success the dialog closes and a toast says how many were created.
 */
import { BULK_UNIT_MAX } from '@heizplan/contracts/limits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCreateUnits } from '../api/create-units.ts';

type Mode = 'one' | 'many';

export function CreateUnitsDialog() {
  const { t } = useTranslation('units');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('many');
  const [name, setName] = useState('');
  const [pattern, setPattern] = useState(() => t('create.defaultPattern'));
  const [count, setCount] = useState('10');
  const [start, setStart] = useState('1');
  const [groupId, setGroupId] = useState<string | null>(null);
  const groups = useAllGroups();
  const create = useCreateUnits();
  const fieldError = (field: string) => problems.field(create.error, field);
  // Said at once, not only by a disabled button (issue 14.9).
  const countProblem =
    count === ''
      ? null
      : Number(count) > BULK_UNIT_MAX
        ? t('create.countMax', { max: BULK_UNIT_MAX })
        : Number(count) < 1
          ? t('create.countMin')
          : null;

  const valid =
    mode === 'one'
      ? name.trim() !== ''
      : pattern.trim() !== '' && Number(count) >= 1 && Number(count) <= BULK_UNIT_MAX;

  const submit = () =>
    create.mutate(
      mode === 'one'
        ? { mode, unit: { name: name.trim(), groupId } }
        : {
            mode,
            bulk: { pattern: pattern.trim(), count: Number(count), start: Number(start || 1), groupId },
          },
      {
        onSuccess: (units) => {
          toast({
            type: 'success',
            title: t('create.success', { count: units.length }),
            testid: 'toast-units-created',
          });
          setOpen(false);
          setName('');
          create.reset();
        },
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) create.reset();
      }}
      title={t('create.title')}
      testid="create-units-dialog"
      trigger={<Button testid="create-units">{t('create.open')}</Button>}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button
            type="submit"
            form="create-units-form"
            disabled={!valid}
            loading={create.isPending}
            testid="create-units-submit"
          >
            {t('create.submit')}
          </Button>
        </>
      }
    >
      <form
        id="create-units-form"
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) submit();
        }}
      >
        <Select
          aria-label={t('create.mode')}
          value={mode}
          onChange={(id) => setMode(id as Mode)}
          testid="create-units-mode"
          options={[
            { id: 'many', value: t('create.modeMany'), testid: 'create-units-mode-many' },
            { id: 'one', value: t('create.modeOne'), testid: 'create-units-mode-one' },
          ]}
        />
        {mode === 'one' ? (
          <TextInput
            label={t('fields.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldError('name')}
            required
            testid="create-unit-name"
          />
        ) : (
          <>
            <TextInput
              label={t('create.pattern')}
              hint={t('create.patternHint')}
              value={pattern}
              onChange={(event) => setPattern(event.target.value)}
              error={fieldError('pattern')}
              required
              testid="create-units-pattern"
            />
            <div className="grid grid-cols-2 gap-3">
              <TextInput
                label={t('create.count')}
                type="number"
                min={1}
                max={BULK_UNIT_MAX}
                value={count}
                onChange={(event) => setCount(event.target.value)}
                error={countProblem ?? fieldError('count')}
                required
                testid="create-units-count"
              />
              <TextInput
                label={t('create.start')}
                type="number"
                min={0}
                value={start}
                onChange={(event) => setStart(event.target.value)}
                error={fieldError('start')}
                testid="create-units-start"
              />
            </div>
          </>
        )}
        <Combobox
          label={t('fields.group')}
          placeholder={t('noGroup')}
          value={groupId}
          onChange={setGroupId}
          error={fieldError('groupId')}
          testid="create-units-group"
          options={(groups.data?.results ?? []).map((group) => ({
            id: group.id,
            item: group.name,
            testid: `create-units-group-${group.id}`,
          }))}
        />
        {create.error && !(create.error instanceof ApiError && create.error.errors.length > 0) && (
          <p role="alert" className="text-sm text-red-700" data-testid="create-units-error">
            {problems.reason(create.error) ?? t('create.error')}
          </p>
        )}
      </form>
    </Dialog>
  );
}
