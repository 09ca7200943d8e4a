/**
 * Profile of settings general (spec §2): name and email, trimmed before saving (spec §5);
 * 'Profile updated' / 'Error updating' toasts (spec §8); the server's field messages under
 * the fields. An unverified email offers a verification mail and then shows 'verification
 * requested' (spec §4).
 */
import type { User } from '@heizplan/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useRequestVerification } from '../../../lib/account/request-verification.ts';
import { useUpdateMe } from '../../../lib/account/update-me.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const updateMe = useUpdateMe();
  const verification = useRequestVerification();
  const fieldError = (field: string) => problems.field(updateMe.error, field);

  const save = () =>
    updateMe.mutate(
      { name: name.trim(), email: email.trim() },
      {
        onSuccess: (saved) => {
          setName(saved.name);
          setEmail(saved.email);
          toast({ type: 'success', title: t('toasts.profileUpdated'), testid: 'toast-profile-updated' });
        },
        onError: () =>
          toast({ type: 'error', title: t('toasts.errorUpdating'), description: t('toasts.profileError') }),
      },
    );
  const requestVerification = () =>
    verification.mutate(undefined, {
      onSuccess: () => toast({ type: 'success', title: t('toasts.verificationSent') }),
      onError: () =>
        toast({ type: 'error', title: t('toasts.errorSending'), description: t('toasts.verificationError') }),
    });

  return (
    <SettingsCard title={t('profile.title')} testid="settings-profile">
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <TextInput
          label={t('profile.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={fieldError('name')}
          autoComplete="name"
          required
          testid="profile-name"
        />
        <TextInput
          label={t('profile.email')}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError('email')}
          autoComplete="email"
          required
          testid="profile-email"
        />
        {!user.email_verified && (
          <div
            className="flex flex-col gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
            data-testid="email-unverified"
          >
            <span>{t('profile.unverified')}</span>
            {verification.isSuccess ? (
              <span className="font-medium" data-testid="verification-requested">
                {t('profile.verificationRequested')}
              </span>
            ) : (
              <Button
                variant="secondary"
                size="sm"
                loading={verification.isPending}
                onClick={requestVerification}
                testid="request-verification"
              >
                {t('profile.requestVerification')}
              </Button>
            )}
          </div>
        )}
        <div className="flex justify-end">
          <Button
            type="submit"
            loading={updateMe.isPending}
            disabled={!name.trim() || !email.trim()}
            testid="profile-save"
          >
            {t('save')}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
