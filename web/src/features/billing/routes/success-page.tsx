/**
 * `/success` (spec §2: no navigation; payment setup success, issue 13): what happens next for the
 * chosen payment method (`?method=`), and links into the app. The billing state held from before
 * the payment is dropped, not merely marked stale: the navigation would otherwise show it — "no
 * active subscription" — until the new state arrives.
 */
import { PaymentMethodSchema } from '@heizplan/contracts/billing';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

export function SuccessPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const [query] = useSearchParams();
  const method = PaymentMethodSchema.catch('immediate').parse(query.get('method'));
  const queryClient = useQueryClient();
  useEffect(() => {
    queryClient.removeQueries({ queryKey: ['billing'] });
  }, [queryClient]);

  return (
    <main className="flex min-h-full flex-col items-center px-4 py-12" data-testid="success-page">
      <div className="flex w-full max-w-xl flex-col gap-6">
        <span className="flex items-center gap-2 text-lg font-semibold text-ink">
          <img src="/favicon.svg" alt="" className="size-7" />
          {tc('appName')}
        </span>
        <section className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-semibold text-ink">{t('success.title')}</h1>
          <p className="mt-3 text-stone-700" data-testid="success-text">
            {t(`success.${method}`)}
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
