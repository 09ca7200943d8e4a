/**
 * Invite by email (spec §2 team, §4 "Invite form", §5): an email input of type email, the role
 * choice when the company has it on (default: the company's default role), and a send button
 * disabled while the email is empty. While sending, a loading indicator replaces the form;
 * success clears the email and shows 'Invitation sent' (`invite_success`), failure 'Error
 * sending invitation' (`invite_error`). The mail's link signs the person in and joins.
 */
import { type Company, CreateInviteBodySchema, type Role } from '@heizplan/contracts/account';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import {
  Form,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useCreateInvite } from '../api/invites.ts';

export function InviteForm({ company }: { company: Company }) {
  const { t } = useTranslation('team');
  const { toast } = useToast();
  const form = useContractForm(CreateInviteBodySchema, {
    defaultValues: { email: '', role: company.default_invite_role },
  });
  const email = form.watch('email') ?? '';
  const role = useFormControl('role', form.control);
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
    <Form
      form={form}
      onSubmit={(body) =>
        invite.mutate(
          { email: body.email, ...(company.invite_role_choice ? { role: body.role } : {}) },
          {
            onSuccess: () => {
              form.reset({ email: '', role: body.role });
              toast({ type: 'success', title: t('toasts.invite_success'), testid: 'toast-invite-success' });
            },
            onError: () =>
              toast({ type: 'error', title: t('toasts.invite_error'), testid: 'toast-invite-error' }),
          },
        )
      }
      className="flex flex-col gap-3"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <FormTextInput
            name="email"
            label={t('invite.email')}
            type="email"
            autoComplete="email"
            testid="invite-email"
          />
        </div>
        {company.invite_role_choice ? (
          <div className="sm:w-48">
            <FormField name="role" label={t('invite.role')} testid="invite-role-field">
              {(control) => (
                <Select
                  {...control}
                  value={role.value ?? company.default_invite_role}
                  onChange={(next) => isRole(next) && role.onChange(next as Role)}
                  options={roleOptions(t, 'invite-role')}
                  testid="invite-role"
                />
              )}
            </FormField>
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
    </Form>
  );
}
