/**
 * `/success` (spec §2: no navigation; payment setup success): what happens next for the payment
 * method, and links into the app — only for a checkout that just completed: the id the checkout
 * left in this tab (or Stripe's `session_id` in the address) must be confirmed by the server.
 * Opened without one, the page sends the user on to billing; for a checkout still open it says
 * so instead of thanking for a payment that did not happen. The billing state held from before
 * the payment is dropped, not merely marked stale: the navigation would otherwise show it — "no
 * active subscription" — until the new state arrives.
 */
import { PaymentMethodSchema } from '@heizplan/contracts/billing';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { getCurrentCompanyId } from '../../../lib/client-storage.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { forgetCheckout, rememberedCheckout, useCheckoutStatus } from '../api/billing.ts';

export function SuccessPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const [query] = useSearchParams();
  const [checkoutId] = useState(() => query.get('session_id') ?? rememberedCheckout());
  const status = useCheckoutStatus(checkoutId);
  usePageTitle(status.data?.completed ? t('success.title') : t('success.openTitle'));
  const queryClient = useQueryClient();
  useEffect(() => {
    queryClient.removeQueries({ queryKey: ['billing'], predicate: (q) => q.queryKey[2] !== 'checkout' });
  }, [queryClient]);
  useEffect(() => {
    if (status.data?.completed) forgetCheckout();
  }, [status.data?.completed]);

  if (!checkoutId || !getCurrentCompanyId() || status.isError) {
    return <Navigate to="/settings/billing" replace />;
  }
  if (!status.data) return <Spinner loading testid="success-loading" />;
  const method = PaymentMethodSchema.catch('immediate').parse(
    status.data.paymentMethod ?? query.get('method'),
  );

  return (
    <main className="flex min-h-full flex-col items-center px-4 py-12" data-testid="success-page">
      <div className="flex w-full max-w-xl flex-col gap-6">
        <span className="flex items-center gap-2 text-lg font-semibold text-ink">
          <img src="/favicon.svg" alt="" className="size-7" />
          {tc('appName')}
        </span>
        <section className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-semibold text-ink">
            {status.data.completed ? t('success.title') : t('success.openTitle')}
          </h1>
          <p className="mt-3 text-stone-700" data-testid="success-text">
            {status.data.completed ? t(`success.${method}`) : t('success.open')}
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link
              to="/devices"
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
              data-testid="success-devices"
            >
              {t('success.toDevices')}
            </Link>
            <Link
              to="/settings/billing"
              className="rounded-lg border border-stone-300 px-4 py-2 text-sm font-medium text-ink hover:bg-stone-100"
              data-testid="success-billing"
            >
              {t('success.toBilling')}
            </Link>
          </div>
        </section>
      </div>
    </main>
  );
}
