/** `/logout/`: signs out locally and at the identity provider, which returns to `/`. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAuthSession } from '../auth-context.tsx';
import { FullPageStatus } from '../components/full-page-status.tsx';

export function LogoutPage() {
  const { t } = useTranslation('auth');
  const session = useAuthSession();
  const queryClient = useQueryClient();

  useEffect(() => {
    queryClient.clear();
    session.logout().catch((error: unknown) => {
      // The local session is gone either way; without the provider's logout page go home.
      console.info('provider logout failed', error);
      window.location.assign('/');
    });
  }, [session, queryClient]);

  return (
    <FullPageStatus testId="signing-out">
      <Spinner loading size="lg" label={t('signingOut')} />
      <p className="text-stone-600">{t('signingOut')}</p>
    </FullPageStatus>
  );
}
