/**
 * The form of the "create units" dialog: one unit by name (`UnitCreateSchema`) or many from a
 * pattern and a count (`UnitBulkCreateSchema`), optionally in a group, and — once the company
 * has buildings — in a building and on one of its floors (decision 0052). Its own chunk, fetched
 * when the dialog opens: the units screen is the first one after sign-in and carries no zod
 * (decision 0045). Messages show while typing (a count above the limit is said at
 * once); the dialog's submit button waits for valid values. A group name that does not exist
 * is offered as a new group ('Gruppe „Etage 3“ anlegen'), created first, then the units in it.
 */
import { GroupCreateSchema, UnitBulkCreateSchema, UnitCreateSchema } from '@heizplan/contracts/heating';
import { BULK_UNIT_MAX } from '@heizplan/contracts/limits';
import { useLayoutEffect, useState } from 'react';
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
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { type CreateUnitsInput, useCreateGroup } from '../api/create-units.ts';
import { BuildingFloorFields } from './building-floor-fields.tsx';

/**
 * The group: an existing one's id, or the name of one to create (then `groupId` is null); the
 * building and its floor, or none.
 */
const groupFields = {
  groupId: z.uuid().nullable(),
  newGroup: GroupCreateSchema.shape.name.nullable(),
  buildingId: z.uuid().nullable(),
  floor: UnitCreateSchema.shape.floor,
};
const CreateUnitsSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('one'), name: UnitCreateSchema.shape.name, ...groupFields }),
  UnitBulkCreateSchema.extend({ mode: z.literal('many'), ...groupFields }),
]);

/** The combobox's entry for the group still to create. */
const NEW_GROUP = 'new-group';

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
  const { buildings } = useAllBuildings();
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
      newGroup: null,
      buildingId: null,
      floor: null,
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
  const newGroup = useFormControl('newGroup', form.control);
  const building = useFormControl('buildingId', form.control);
  const floor = useFormControl('floor', form.control);
  const createGroup = useCreateGroup();
  // A group created here shows by its name until the groups list has it.
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  // Not sendable twice while the group or the units are on their way.
  const isValid = form.formState.isValid && !form.formState.isSubmitting;
  const listed = groups.data?.results ?? [];
  const groupOptions = [
    ...listed.map((g) => ({ id: g.id, item: g.name, testid: `create-units-group-${g.id}` })),
    ...(created && !listed.some((g) => g.id === created.id)
      ? [{ id: created.id, item: created.name, testid: `create-units-group-${created.id}` }]
      : []),
  ];
  // In the same commit, so the button never lags behind the message.
  useLayoutEffect(() => onValidChange(isValid), [isValid, onValidChange]);

  /**
   * The units' group: the chosen one, or the new one once created (then chosen, so trying again
   * does not create it twice); null for none; false when it could not be created (said there).
   */
  const groupOf = async (values: z.output<typeof CreateUnitsSchema>): Promise<string | null | false> => {
    if (!values.newGroup) return values.groupId;
    try {
      const made = await createGroup.mutateAsync(values.newGroup);
      setCreated({ id: made.id, name: made.name });
      form.setValue('groupId', made.id);
      form.setValue('newGroup', null);
      return made.id;
    } catch (error) {
      // The server names the group's `name`; here that is the group field.
      applyServerErrors(form, error, problems, { rename: { name: 'groupId' }, restOn: 'groupId' });
      return false;
    }
  };

  const submit = async (values: z.output<typeof CreateUnitsSchema>) => {
    const groupId = await groupOf(values);
    if (groupId === false) return;
    // Sent only when chosen: a company without buildings sends what it always did.
    const place = values.buildingId ? { buildingId: values.buildingId, floor: values.floor ?? null } : {};
    const input: CreateUnitsInput =
      values.mode === 'one'
        ? { mode: 'one', unit: { name: values.name, groupId, ...place } }
        : {
            mode: 'many',
            bulk: { pattern: values.pattern, count: values.count, start: values.start, groupId, ...place },
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
        value={newGroup.value ? NEW_GROUP : group.value}
        onChange={(id) => {
          if (id === NEW_GROUP) return;
          group.onChange(id);
          newGroup.onChange(null);
        }}
        create={{
          label: (name) => t('create.newGroup', { name }),
          onCreate: (name) => {
            group.onChange(null);
            newGroup.onChange(name);
          },
          testid: 'create-units-group-new',
        }}
        error={group.error ?? newGroup.error}
        testid="create-units-group"
        options={[
          ...groupOptions,
          ...(newGroup.value
            ? [
                {
                  id: NEW_GROUP,
                  item: t('create.newGroupChosen', { name: newGroup.value }),
                  testid: 'create-units-group-chosen-new',
                },
              ]
            : []),
        ]}
      />
      {buildings.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          <BuildingFloorFields
            buildings={buildings}
            buildingId={building.value}
            floor={floor.value ?? null}
            onBuildingChange={building.onChange}
            onFloorChange={floor.onChange}
            errors={{ building: building.error, floor: floor.error }}
            testid="create-units"
          />
        </div>
      )}
      <FormError testid="create-units-error" />
    </Form>
  );
}
