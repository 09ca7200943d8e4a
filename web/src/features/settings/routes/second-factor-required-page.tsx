/**
 * `/second-factor` (decision 0078): a company of the user requires a second factor the user has
 * not set up, so its calls answer 403 `second_factor_required` and the main guard sends the user
 * here. The page shows no navigation, only the two ways to set one up (the settings' TOTP and
 * passkey cards) and a "Continue" button that works once `GET /api/me/` no longer says the
 * factor is missing. It does not move on by itself: the recovery codes the TOTP confirmation
 * shows once must stay readable until the user continues.
 */
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMe } from '../../../lib/account/get-me.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';

export function SecondFactorRequiredPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  usePageTitle(t('required.title'));
  if (!me.data) return <Spinner loading={me.isPending} size="lg" />;
  const done = !me.data.second_factor_required;
  return (
    <main className="flex min-h-full flex-col items-center px-4 py-12">
      <div className="flex w-full max-w-2xl flex-col gap-6">
        <span className="flex items-center gap-2 text-lg font-semibold text-ink">
          <img src="/favicon.svg" alt="" className="size-7" />
          {tc('appName')}
        </span>
        <section aria-labelledby="second-factor-required-title" className="flex flex-col gap-2">
          <h1 id="second-factor-required-title" className="text-2xl font-semibold text-ink">
            {t('required.title')}
          </h1>
          <p className="text-stone-700">{t('required.text')}</p>
        </section>
        <TwoFactorCard />
        <PasskeysCard />
        <div className="flex flex-wrap items-center justify-between gap-4">
          <Link to="/logout" className="text-sm font-medium text-brand-700 hover:underline">
            {t('required.signOut')}
          </Link>
          <div className="flex items-center gap-3">
            <p className="text-sm text-stone-700" aria-live="polite">
              {done ? t('required.done') : t('required.pending')}
            </p>
            <Button disabled={!done} onClick={() => navigate('/units', { replace: true })}>
              {t('required.continue')}
            </Button>
          </div>
        </div>
      </div>
    </main>
  );
}
