/** `/settings/general` (spec §2): profile, change password, two-factor sign-in, passkeys, sign-in sessions, account deletion request. */
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMe } from '../../../lib/account/get-me.ts';
import { DeleteAccount } from '../components/delete-account.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { PasswordForm } from '../components/password-form.tsx';
import { ProfileForm } from '../components/profile-form.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';

export function SettingsGeneralPage() {
  const me = useMe();
  if (!me.data) return <Spinner loading={me.isPending} size="lg" />;
  return (
    <div className="flex flex-col gap-6">
      <ProfileForm user={me.data} />
      <PasswordForm />
      <TwoFactorCard />
      <PasskeysCard />
      <SessionsCard />
      <DeleteAccount />
    </div>
  );
}
