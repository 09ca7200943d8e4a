/**
 * Change password (spec §2 settings general): the current password, then the new one twice;
 * 'The passwords do not match' under the repeat field (spec §5). Both passwords go in the
 * request body, never the address. A wrong current password shows under its field. The server
 * ends every session after the change, this one too: the card says so and signs in again.
 */
import { PASSWORD_MIN_LENGTH, PasswordBodySchema } from '@heizplan/contracts/account';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { applyServerErrors, Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useUpdatePassword } from '../../../lib/account/update-password.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

const PasswordFormSchema = PasswordBodySchema.extend({ repeat: z.string() }).superRefine((form, ctx) => {
  if (form.repeat !== form.password) ctx.addIssue({ code: 'custom', path: ['repeat'], message: 'mismatch' });
});

/** Time to read the notice before the sign-in starts (ms). */
const SIGN_IN_DELAY = 5_000;

export function PasswordForm() {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const navigate = useNavigate();
  const updatePassword = useUpdatePassword();
  const [changed, setChanged] = useState(false);
  const form = useContractForm(PasswordFormSchema, {
    defaultValues: { currentPassword: '', password: '', repeat: '' },
    wording: (issue) =>
      issue.path[0] === 'repeat'
        ? t('password.mismatch')
        : issue.path[0] === 'password' && issue.code === 'too_small'
          ? t('password.tooShort', { count: PASSWORD_MIN_LENGTH })
          : undefined,
  });
  const [currentPassword, password, repeat] = form.watch(['currentPassword', 'password', 'repeat']);
  // The sign-in page is the provider's: going through /logout ends what is left of the session here.
  const signInAgain = () => void navigate('/logout');
  // biome-ignore lint/correctness/useExhaustiveDependencies: one timer from the change on
  useEffect(() => {
    if (!changed) return;
    const timer = setTimeout(signInAgain, SIGN_IN_DELAY);
    return () => clearTimeout(timer);
  }, [changed]);

  const save = ({ currentPassword, password }: z.output<typeof PasswordFormSchema>) =>
    updatePassword.mutate(
      { currentPassword, password },
      {
        onSuccess: () => {
          form.reset();
          setChanged(true);
        },
        onError: (error) => {
          if (applyServerErrors(form, error, problems, { root: false })) return;
          toast({
            type: 'error',
            title: t('toasts.errorUpdating'),
            // 409: accounts are managed by an external issuer; 429: too many wrong passwords.
            description: problems.reason(error) ?? t('toasts.passwordError'),
          });
        },
      },
    );

  if (changed) {
    return (
      <SettingsCard title={t('password.title')} testid="settings-password">
        <div className="flex flex-col gap-3">
          <p
            role="status"
            className="rounded-lg bg-green-50 p-3 text-sm text-green-800"
            data-testid="password-changed"
          >
            {t('password.changed')}
          </p>
          <Button className="self-end" onClick={signInAgain} testid="password-sign-in">
            {t('password.signIn')}
          </Button>
        </div>
      </SettingsCard>
    );
  }

  return (
    <SettingsCard title={t('password.title')} testid="settings-password">
      <Form form={form} onSubmit={save} className="flex flex-col gap-4">
        <FormTextInput
          name="currentPassword"
          label={t('password.current')}
          type="password"
          autoComplete="current-password"
          testid="password-current"
        />
        <FormTextInput
          name="password"
          label={t('password.new')}
          type="password"
          hint={t('password.hint', { count: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          rules={{ deps: ['repeat'] }}
          testid="password-new"
        />
        <FormTextInput
          name="repeat"
          label={t('password.repeat')}
          type="password"
          autoComplete="new-password"
          // Said while typing, as soon as the repeat differs (spec §5).
          rules={{ onChange: () => void form.trigger('repeat') }}
          testid="password-repeat"
        />
        <div className="flex justify-end">
          <Button
            type="submit"
            loading={updatePassword.isPending}
            disabled={!currentPassword || !password || !repeat}
            testid="password-save"
          >
            {t('password.save')}
          </Button>
        </div>
      </Form>
    </SettingsCard>
  );
}
