/**
 * Invite by email (spec §2 team, §4 "Invite form", §5): an email input of type email, the role
 * choice when the company has it on (default: the company's default role), and a send button
 * disabled while the email is empty. While sending, a loading indicator replaces the form;
 * success clears the email and shows 'Invitation sent' (`invite_success`), failure 'Error
 * sending invitation' (`invite_error`). The mail's link signs the person in and joins.
 */
import type { Company, Role } from '@heizplan/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Field, TextInput } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useCreateInvite } from '../api/invites.ts';

export function InviteForm({ company }: { company: Company }) {
  const { t } = useTranslation('team');
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(company.default_invite_role);
  const invite = useCreateInvite();

  if (invite.isPending) {
    return (
      <div className="flex items-center gap-3 py-6 text-sm text-stone-700" data-testid="invite-sending">
        <Spinner loading size="md" label={t('invite.sending')} />
        {t('invite.sending')}
      </div>
    );
  }

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        invite.mutate(
          { email: email.trim(), ...(company.invite_role_choice ? { role } : {}) },
          {
            onSuccess: () => {
              setEmail('');
              toast({ type: 'success', title: t('toasts.invite_success'), testid: 'toast-invite-success' });
            },
            onError: () =>
              toast({ type: 'error', title: t('toasts.invite_error'), testid: 'toast-invite-error' }),
          },
        );
      }}
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <TextInput
            label={t('invite.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            testid="invite-email"
          />
        </div>
        {company.invite_role_choice ? (
          <div className="sm:w-48">
            <Field label={t('invite.role')} testid="invite-role-field">
              {(control) => (
                <Select
                  {...control}
                  value={role}
                  onChange={(next) => isRole(next) && setRole(next)}
                  options={roleOptions(t, 'invite-role')}
                  testid="invite-role"
                />
              )}
            </Field>
          </div>
        ) : null}
        <Button type="submit" disabled={email.trim() === ''} testid="invite-send">
          {t('invite.send')}
        </Button>
      </div>
      {!company.invite_role_choice && (
        <p className="text-xs text-stone-600" data-testid="invite-default-role">
          {t('invite.defaultRole', { role: t(`common:roles.${company.default_invite_role}`) })}
        </p>
      )}
    </form>
  );
}
