/**
 * Spec §2: "Where no subscription is active the navigation says so and offers a link to
 * subscription setup." Admins get the link (to the shop, or to billing while a payment is
 * processed or late); other members learn that an admin can buy licences. Its texts are in
 * `common`, which ships with the entry, so the shell loads no billing texts. Nothing shows while
 * a subscription is active or when the server bills nothing (`BILLING_PROVIDER=none`).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan, useCurrentCompanyId } from '../../../lib/use-can.ts';
import { useBilling } from '../api/billing.ts';

export function SubscriptionNotice() {
  const { t } = useTranslation('common', { keyPrefix: 'subscriptionNotice' });
  const billing = useBilling(useCurrentCompanyId());
  const canManage = useCan('manage');
  const status = billing.data?.provider === 'none' ? 'active' : billing.data?.status;
  if (!status || status === 'active') return null;
  const buy = status === 'none' || status === 'cancelled';
  return (
    <div
      role="status"
      className="mx-3 flex flex-col gap-1 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="subscription-notice"
    >
      <span className="font-medium">{t(status)}</span>
      {canManage ? (
        <Link
          to={buy ? '/subSetup' : '/settings/billing'}
          className="font-medium text-brand-700 underline"
          data-testid="subscription-notice-link"
        >
          {buy ? t('buy') : t('details')}
        </Link>
      ) : (
        buy && <span>{t('adminCanBuy')}</span>
      )}
    </div>
  );
}

/**
 * Where the navigation's "Shop" leads (spec §2): the licence purchase without a
 * running subscription, billing with one; null when the server bills nothing.
 */
export function useShopTarget(): string | null {
  const billing = useBilling(useCurrentCompanyId());
  if (billing.data?.provider === 'none') return null;
  const status = billing.data?.status;
  return status === 'none' || status === 'cancelled' ? '/subSetup' : '/settings/billing';
}
