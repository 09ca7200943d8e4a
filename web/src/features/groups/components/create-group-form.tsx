/** Inline form to create a group by name; a duplicate name shows the server's message under the field. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeGroup } from '../api/group-mutations.ts';

export function CreateGroupForm({ onCreated }: { onCreated: (groupId: string) => void }) {
  const { t } = useTranslation('groups');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [name, setName] = useState('');
  const create = useChangeGroup();
  const error = create.error
    ? (problems.field(create.error, 'name') ?? problems.message(create.error))
    : null;
  return (
    <form
      className="flex flex-wrap items-start gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { action: 'create', name: name.trim() },
          {
            onSuccess: (group) => {
              toast({ type: 'success', title: t('created'), testid: 'toast-group-created' });
              setName('');
              if (group) onCreated(group.id);
            },
          },
        );
      }}
    >
      <div className="min-w-56 flex-1 sm:max-w-sm">
        <TextInput
          label={t('newName')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            create.reset();
          }}
          error={error}
          testid="group-new-name"
        />
      </div>
      <Button
        type="submit"
        className="sm:mt-7"
        disabled={!name.trim()}
        loading={create.isPending}
        testid="group-create"
      >
        {t('create')}
      </Button>
    </form>
  );
}
