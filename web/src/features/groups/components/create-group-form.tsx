/**
 * Inline form to create a group by name. An empty name is said under the field when the button is
 * pressed (a disabled button would not say why); a duplicate shows the server's message there.
 */
import { GroupCreateSchema } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { applyServerErrors, Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeGroup } from '../api/group-mutations.ts';

export function CreateGroupForm({ onCreated }: { onCreated: (groupId: string) => void }) {
  const { t } = useTranslation('groups');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const form = useContractForm(GroupCreateSchema, { defaultValues: { name: '' } });
  const create = useChangeGroup();
  return (
    <Form
      form={form}
      onSubmit={({ name }) =>
        create.mutate(
          { action: 'create', name },
          {
            onSuccess: (group) => {
              toast({ type: 'success', title: t('created'), testid: 'toast-group-created' });
              form.reset();
              if (group) onCreated(group.id);
            },
            // A problem without a field (e.g. no right to) shows under the name too.
            onError: (error) => applyServerErrors(form, error, problems, { restOn: 'name' }),
          },
        )
      }
      className="flex flex-wrap items-start gap-2"
    >
      <div className="min-w-56 flex-1 sm:max-w-sm">
        <FormTextInput name="name" label={t('newName')} testid="group-new-name" />
      </div>
      <Button type="submit" className="sm:mt-7" loading={create.isPending} testid="group-create">
        {t('create')}
      </Button>
    </Form>
  );
}
