/**
 * Change password (spec §2 settings general): new password twice; 'The passwords do not
 * match' under the repeat field (spec §5); 'Password updated' / 'Error updating' toasts. The
 * password goes in the request body, never the address.
 */
import { PASSWORD_MIN_LENGTH } from '@heizplan/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useUpdatePassword } from '../../../lib/account/update-password.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

export function PasswordForm() {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const updatePassword = useUpdatePassword();
  const mismatch = repeat.length > 0 && password !== repeat;
  const tooShort = submitted && password.length < PASSWORD_MIN_LENGTH;

  const save = () => {
    setSubmitted(true);
    if (password !== repeat || password.length < PASSWORD_MIN_LENGTH) return;
    updatePassword.mutate(password, {
      onSuccess: () => {
        setPassword('');
        setRepeat('');
        setSubmitted(false);
        toast({ type: 'success', title: t('toasts.passwordUpdated'), testid: 'toast-password-updated' });
      },
      onError: (error) =>
        toast({
          type: 'error',
          title: t('toasts.errorUpdating'),
          // 409: accounts are managed by an external issuer (code accounts_external).
          description: problems.reason(error) ?? t('toasts.passwordError'),
        }),
    });
  };

  return (
    <SettingsCard title={t('password.title')} testid="settings-password">
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <TextInput
          label={t('password.new')}
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint={t('password.hint', { count: PASSWORD_MIN_LENGTH })}
          error={tooShort ? t('password.tooShort', { count: PASSWORD_MIN_LENGTH }) : null}
          autoComplete="new-password"
          testid="password-new"
        />
        <TextInput
          label={t('password.repeat')}
          type="password"
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
          error={mismatch || (submitted && password !== repeat) ? t('password.mismatch') : null}
          autoComplete="new-password"
          testid="password-repeat"
        />
        <div className="flex justify-end">
          <Button
            type="submit"
            loading={updatePassword.isPending}
            disabled={!password || !repeat}
            testid="password-save"
          >
            {t('password.save')}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
