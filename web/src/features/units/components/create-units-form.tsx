/**
 * The form of the "create units" dialog: one unit by name (`UnitCreateSchema`) or many from a
 * pattern and a count (`UnitBulkCreateSchema`), optionally in a group. Its own chunk, fetched
 * when the dialog opens: the units screen is the first one after sign-in and carries no zod
 * (decision 0045). Messages show while typing (a count above the limit is said at
 * once); the dialog's submit button waits for valid values.
 */
import { UnitBulkCreateSchema, UnitCreateSchema } from '@heizplan/contracts/heating';
import { BULK_UNIT_MAX } from '@heizplan/contracts/limits';
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Combobox } from '../../../components/ui/combobox.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormNumberInput,
  FormTextInput,
  numberOrNull,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import type { CreateUnitsInput } from '../api/create-units.ts';

const CreateUnitsSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('one'), name: UnitCreateSchema.shape.name, groupId: z.uuid().nullable() }),
  UnitBulkCreateSchema.extend({ mode: z.literal('many'), groupId: z.uuid().nullable() }),
]);

export interface CreateUnitsFormProps {
  /** Sends the units; rejects with the server's problem. */
  create: (input: CreateUnitsInput) => Promise<unknown>;
  /** Tells the dialog whether its submit button may send. */
  onValidChange: (valid: boolean) => void;
}

export default function CreateUnitsForm({ create, onValidChange }: CreateUnitsFormProps) {
  const { t } = useTranslation('units');
  const problems = useProblemMessage();
  const groups = useAllGroups();
  const form = useContractForm(CreateUnitsSchema, {
    mode: 'onChange',
    // Both modes' fields at once, so switching the mode keeps what was typed.
    defaultValues: {
      mode: 'many',
      name: '',
      pattern: t('create.defaultPattern'),
      count: 10,
      start: 1,
      groupId: null,
    } as z.input<typeof CreateUnitsSchema>,
    wording: (issue) =>
      issue.path[0] === 'count' && issue.code === 'too_big'
        ? t('create.countMax', { max: BULK_UNIT_MAX })
        : issue.path[0] === 'count' && issue.code === 'too_small'
          ? t('create.countMin')
          : undefined,
  });
  const mode = useFormControl('mode', form.control);
  const group = useFormControl('groupId', form.control);
  const { isValid } = form.formState;
  // In the same commit, so the button never lags behind the message.
  useLayoutEffect(() => onValidChange(isValid), [isValid, onValidChange]);

  const submit = async (values: z.output<typeof CreateUnitsSchema>) => {
    const input: CreateUnitsInput =
      values.mode === 'one'
        ? { mode: 'one', unit: { name: values.name, groupId: values.groupId } }
        : {
            mode: 'many',
            bulk: {
              pattern: values.pattern,
              count: values.count,
              start: values.start,
              groupId: values.groupId,
            },
          };
    await create(input).catch((error: unknown) =>
      applyServerErrors(form, error, problems, { fallback: t('create.error') }),
    );
  };

  return (
    <Form form={form} onSubmit={submit} id="create-units-form" className="flex flex-col gap-4">
      <Select
        aria-label={t('create.mode')}
        value={mode.value}
        onChange={(next) => mode.onChange(next === 'one' ? 'one' : 'many')}
        testid="create-units-mode"
        options={[
          { id: 'many', value: t('create.modeMany'), testid: 'create-units-mode-many' },
          { id: 'one', value: t('create.modeOne'), testid: 'create-units-mode-one' },
        ]}
      />
      {mode.value === 'one' ? (
        <FormTextInput name="name" label={t('fields.name')} required testid="create-unit-name" />
      ) : (
        <>
          <FormTextInput
            name="pattern"
            label={t('create.pattern')}
            hint={t('create.patternHint')}
            required
            testid="create-units-pattern"
          />
          <div className="grid grid-cols-2 gap-3">
            <FormNumberInput name="count" label={t('create.count')} required testid="create-units-count" />
            <FormNumberInput
              name="start"
              label={t('create.start')}
              // Empty starts at the contract's default, 1.
              rules={{ setValueAs: (value: unknown) => numberOrNull(value) ?? undefined }}
              testid="create-units-start"
            />
          </div>
        </>
      )}
      <Combobox
        label={t('fields.group')}
        placeholder={t('noGroup')}
        value={group.value}
        onChange={group.onChange}
        error={group.error}
        testid="create-units-group"
        options={(groups.data?.results ?? []).map((g) => ({
          id: g.id,
          item: g.name,
          testid: `create-units-group-${g.id}`,
        }))}
      />
      <FormError testid="create-units-error" />
    </Form>
  );
}
