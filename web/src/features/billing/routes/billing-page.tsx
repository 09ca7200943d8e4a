/**
 * `/settings/billing` (spec §2 billing, admins only, decision 0022): the subscription
 * in words with cancellation, licences (current and new totals, used count, buy, remove
 * unused), invoices with their PDFs, the billing interval and the payment method or the payment
 * provider's page. Without a subscription it leads to the shop.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useBilling, useBillingAddress } from '../api/billing.ts';
import { BillingAddressForm } from '../components/billing-address-form.tsx';
import { InvoicesTable } from '../components/invoices-table.tsx';
import { LicencesCard } from '../components/licences-card.tsx';
import {
  IntervalCard,
  PaymentCard,
  StatusText,
  SubscriptionCard,
} from '../components/subscription-cards.tsx';

/** Settings → billing's billing address card (admins): loads the kept address first. */
function AddressCard() {
  const { t } = useTranslation('billing');
  const address = useBillingAddress();
  return (
    <SettingsCard title={t('address.title')} description={t('address.description')} testid="billing-address">
      {address.data ? (
        <BillingAddressForm address={address.data.address} />
      ) : (
        <Spinner loading testid="billing-address-loading" />
      )}
    </SettingsCard>
  );
}

export function BillingPage() {
  const { t } = useTranslation('billing');
  const billing = useBilling();
  const canManage = useCan('manage');

  if (billing.isError) return <p role="alert">{t('page.loadError')}</p>;
  if (!billing.data) return <Spinner loading testid="billing-loading" />;
  const data = billing.data;
  if (!canManage || data.provider === 'none') {
    return (
      <SettingsCard title={t('page.title')} testid="settings-billing">
        <p className="text-sm text-stone-700" data-testid="billing-unavailable">
          {canManage ? t('page.off') : t('page.adminsOnly')}
        </p>
      </SettingsCard>
    );
  }
  if (data.status === 'none' || data.status === 'cancelled') {
    return (
      <div className="flex flex-col gap-6">
        <SettingsCard title={t('page.title')} description={t('page.description')} testid="settings-billing">
          <div className="flex flex-col gap-3">
            <StatusText billing={data} />
            <Link
              to="/subSetup"
              className="self-start rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
              data-testid="billing-shop"
            >
              {t('page.shop')}
            </Link>
          </div>
        </SettingsCard>
        <SettingsCard title={t('invoices.title')} testid="billing-invoices">
          <InvoicesTable />
        </SettingsCard>
        <AddressCard />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <SubscriptionCard billing={data} />
      <SettingsCard title={t('licences.title')} testid="settings-billing">
        <LicencesCard key={data.licences} billing={data} />
      </SettingsCard>
      <SettingsCard title={t('invoices.title')} testid="billing-invoices">
        <InvoicesTable />
      </SettingsCard>
      <IntervalCard billing={data} />
      <PaymentCard billing={data} />
      <AddressCard />
    </div>
  );
}
