/**
 * Profile of settings general (spec §2): name and email, trimmed before saving (spec §5);
 * 'Profile updated' / 'Error updating' toasts (spec §8); the server's field messages under
 * the fields. An unverified email offers a verification mail and then shows 'verification
 * requested' (spec §4).
 */
import { UpdateMeBodySchema, type User } from '@heizplan/contracts/account';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { applyServerErrors, Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useRequestVerification } from '../../../lib/account/request-verification.ts';
import { useUpdateMe } from '../../../lib/account/update-me.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const form = useContractForm(UpdateMeBodySchema, { defaultValues: { name: user.name, email: user.email } });
  const [name, email] = form.watch(['name', 'email']);
  // Saving waits for both; the line under the button says so instead of a silent grey button.
  const missing = !name.trim() || !email.trim();
  const updateMe = useUpdateMe();
  const verification = useRequestVerification();

  const save = (body: { name: string; email: string }) =>
    updateMe.mutate(body, {
      onSuccess: (saved) => {
        form.reset({ name: saved.name, email: saved.email });
        toast({ type: 'success', title: t('toasts.profileUpdated'), testid: 'toast-profile-updated' });
      },
      onError: (error) => {
        applyServerErrors(form, error, problems, { root: false });
        toast({ type: 'error', title: t('toasts.errorUpdating'), description: t('toasts.profileError') });
      },
    });
  const requestVerification = () =>
    verification.mutate(undefined, {
      onSuccess: () => toast({ type: 'success', title: t('toasts.verificationSent') }),
      onError: () =>
        toast({ type: 'error', title: t('toasts.errorSending'), description: t('toasts.verificationError') }),
    });

  return (
    <SettingsCard title={t('profile.title')} testid="settings-profile">
      <Form form={form} onSubmit={save} className="flex flex-col gap-4">
        <FormTextInput
          name="name"
          label={t('profile.name')}
          autoComplete="name"
          required
          testid="profile-name"
        />
        <FormTextInput
          name="email"
          label={t('profile.email')}
          type="email"
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
        <div className="flex flex-col items-stretch gap-1 sm:items-end">
          <Button
            type="submit"
            loading={updateMe.isPending}
            disabled={missing}
            aria-describedby={missing ? 'profile-save-why' : undefined}
            testid="profile-save"
          >
            {t('save')}
          </Button>
          {missing && (
            <p id="profile-save-why" className="text-sm text-stone-600" data-testid="profile-save-why">
              {t('profile.missing')}
            </p>
          )}
        </div>
      </Form>
    </SettingsCard>
  );
}
