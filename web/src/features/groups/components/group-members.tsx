/**
 * Members of one group: the units in it (each removable) and a multiple-choice room picker
 * (searched on the server, thousands of rooms) to move further units in. A unit belongs to at most one group, so moving it takes it out of its old one.
 */
import { type Group, GroupAssignSchema } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Form, useContractForm, useFormControl } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useUnits } from '../../../lib/heating/list-units.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeGroup } from '../api/group-mutations.ts';

/** The API's page maximum; members beyond it need the units screen's search. */
const ALL = 200;

export function GroupMembers({ group }: { group: Group }) {
  const canOperate = useCan('operate');
  const { t } = useTranslation('groups');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const members = useUnits({ groupId: group.id, size: ALL });
  const form = useContractForm(GroupAssignSchema, { defaultValues: { unitIds: [] } });
  const chosen = useFormControl('unitIds', form.control);
  const change = useChangeGroup();
  const onError = (error: Error) =>
    toast({
      type: 'error',
      title: t('changeError'),
      description: problems.reason(error),
    });

  return (
    <div className="flex flex-col gap-4" data-testid="group-members">
      {members.data?.results.length === 0 ? (
        <p className="text-sm text-stone-600">{t('noMembers')}</p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {members.data?.results.map((unit) => (
            <li
              key={unit.id}
              className="inline-flex items-center gap-1 rounded-md bg-stone-100 py-0.5 pr-1 pl-2 text-sm"
              data-testid={`group-member-${unit.id}`}
            >
              {unit.name}
              {canOperate && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-6 px-1"
                  aria-label={t('removeMember', { name: unit.name })}
                  onClick={() =>
                    change.mutate({ action: 'unassign', groupId: group.id, unitId: unit.id }, { onError })
                  }
                  testid={`group-member-remove-${unit.id}`}
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canOperate && (
        <Form
          form={form}
          onSubmit={({ unitIds }) =>
            change.mutate(
              { action: 'assign', groupId: group.id, unitIds },
              {
                onSuccess: () => {
                  form.reset();
                  toast({ type: 'success', title: t('assigned', { count: unitIds.length }) });
                },
                onError,
              },
            )
          }
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
        >
          <div className="flex-1">
            <UnitSearchCombobox
              multiple
              label={t('addUnits')}
              value={chosen.value}
              onChange={chosen.onChange}
              error={chosen.error}
              offered={(unit) => unit.groupId !== group.id}
              optionLabel={(unit) => (unit.groupName ? `${unit.name} (${unit.groupName})` : unit.name)}
              testid="group-add-units"
            />
          </div>
          <Button
            type="submit"
            disabled={chosen.value.length === 0}
            loading={change.isPending}
            testid="group-assign"
          >
            {t('assign')}
          </Button>
        </Form>
      )}
    </div>
  );
}
