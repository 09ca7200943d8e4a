/**
 * `/subSetup` (spec §2 "Subscription setup"): choose the interval and the number of licences
 * (at least the licences in use, at most the order limit), see the net price per licence and
 * the net total per interval (computed by the server), choose the payment method (spec §4) —
 * paying by invoice asks for the billing address first — and confirm what the order costs
 * (net, VAT, gross) before anything is ordered; then checkout — Stripe's hosted page or, with
 * the embedded provider, `/success`. A company with a running subscription changes it in
 * billing instead; members who are not admins are told that admins buy licences.
 */
import {
  BillingIntervalSchema,
  type BillingOverview,
  type CheckoutRequest,
  CheckoutRequestSchema,
  LicencesSchema,
  PaymentMethodSchema,
} from '@heizplan/contracts/billing';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Form, FormNumberInput, useContractForm, useFormControl } from '../../../components/ui/form.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useBilling, useBillingAddress, useCheckout, useQuote } from '../api/billing.ts';
import { BillingAddressForm } from '../components/billing-address-form.tsx';
import { OrderSummary } from '../components/order-summary.tsx';
import { useMoney } from '../format.ts';

function SetupForm({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const money = useMoney();
  const navigate = useNavigate();
  const { toast } = useToast();
  const problems = useProblemMessage();
  const used = billing.usedLicences;
  const minimum = Math.max(1, used);
  const maximum = billing.maxLicencesPerOrder;
  // No fewer licences than devices and QR codes in use, no more than one order may buy.
  const schema = useMemo(
    () => CheckoutRequestSchema.extend({ licences: LicencesSchema.min(minimum).max(maximum) }),
    [minimum, maximum],
  );
  // Said while typing, and checkout waits for a valid number.
  const form = useContractForm(schema, {
    mode: 'onChange',
    defaultValues: {
      interval: 'yearly',
      paymentMethod: 'immediate',
      licences: Math.min(maximum, Math.max(minimum, 5)),
    },
    wording: (issue) =>
      issue.path[0] === 'licences' && issue.code === 'too_small' && used > 0
        ? t('setup.licencesHint', { count: used })
        : issue.path[0] === 'licences' && issue.code === 'too_big'
          ? (problems.coded('licence_order_too_large', { max: maximum }) ?? undefined)
          : undefined,
  });
  const address = useBillingAddress();
  const [order, setOrder] = useState<CheckoutRequest | null>(null);
  const interval = useFormControl('interval', form.control);
  const method = useFormControl('paymentMethod', form.control);
  const count = form.watch('licences');
  const { isValid } = form.formState;
  const quote = useQuote(isValid ? { interval: interval.value, licences: count } : null);
  const checkout = useCheckout();
  const { currency, perLicence } = billing.prices;

  const needsAddress = method.value === 'invoice' && !billing.hasBillingAddress;

  const place = (confirmed: CheckoutRequest) =>
    checkout.mutateAsync(confirmed).then(
      ({ redirectUrl }) => {
        if (redirectUrl.startsWith('/')) void navigate(redirectUrl);
        else window.location.assign(redirectUrl);
      },
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('setup.error'),
          description: problems.reason(error),
          testid: 'toast-checkout-error',
        }),
    );

  return (
    <>
      <Form form={form} onSubmit={setOrder} className="flex flex-col gap-6">
        <RadioCards
          legend={t('setup.interval')}
          name="interval"
          value={interval.value}
          onChange={interval.onChange}
          testid="setup-interval"
          options={BillingIntervalSchema.options.map((id) => ({
            id,
            title: t(`intervals.${id}`),
            description: t('setup.perLicence', {
              price: money(perLicence[id], currency),
              per: t(`per.${id}`),
            }),
            testid: `setup-interval-${id}`,
          }))}
        />
        <div className="sm:w-64">
          <FormNumberInput
            name="licences"
            label={t('setup.licences')}
            hint={used > 0 ? t('setup.licencesHint', { count: used }) : undefined}
            testid="setup-licences"
          />
        </div>
        <RadioCards
          legend={t('setup.method')}
          name="method"
          value={method.value}
          onChange={method.onChange}
          testid="setup-method"
          options={PaymentMethodSchema.options.map((id) => ({
            id,
            title: t(`methods.${id}`),
            description: t(`methodHints.${id}`),
            testid: `setup-method-${id}`,
          }))}
        />
        <div className="flex flex-col gap-3 border-t border-stone-200 pt-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-stone-700" aria-live="polite">
            {quote.data && isValid ? (
              <span data-testid="setup-total" className="block text-base font-semibold text-ink">
                {t('setup.total', {
                  total: money(quote.data.netTotal, quote.data.currency),
                  per: t(`per.${interval.value}`),
                })}
              </span>
            ) : null}
            <span data-testid="setup-net">{t('net')}</span>
          </p>
          <Button
            type="submit"
            disabled={!isValid || needsAddress}
            loading={checkout.isPending}
            testid="setup-checkout"
          >
            {t('setup.continue')}
          </Button>
        </div>
      </Form>
      {needsAddress && (
        <section className="flex flex-col gap-3 border-t border-stone-200 pt-4" data-testid="setup-address">
          <h2 className="text-base font-semibold text-ink">{t('address.title')}</h2>
          <p className="text-sm text-stone-700">{t('address.neededForInvoice')}</p>
          {address.data ? (
            <BillingAddressForm address={address.data.address} />
          ) : (
            <Spinner loading testid="setup-address-loading" />
          )}
        </section>
      )}
      <ConfirmDialog
        open={order !== null}
        onOpenChange={(open) => !open && setOrder(null)}
        title={t('order.title')}
        confirmText={t('order.confirm')}
        confirmVariant="primary"
        onConfirm={() => (order ? place(order) : Promise.resolve())}
        testid="order-confirm"
      >
        {order && <OrderSummary request={{ interval: order.interval, licences: order.licences }} />}
        <p className="mt-3 text-xs text-stone-600">
          {t(`methodHints.${order?.paymentMethod ?? 'immediate'}`)}
        </p>
      </ConfirmDialog>
    </>
  );
}

export function SubSetupPage() {
  const { t } = useTranslation('billing');
  usePageTitle(t('setup.title'));
  const billing = useBilling();
  const canManage = useCan('manage');

  const body = () => {
    if (billing.isError) return <p role="alert">{t('setup.loadError')}</p>;
    if (!billing.data) return <Spinner loading testid="setup-loading" />;
    if (billing.data.provider === 'none') return <p data-testid="setup-off">{t('setup.off')}</p>;
    if (!canManage) return <p data-testid="setup-admins-only">{t('setup.adminsOnly')}</p>;
    if (billing.data.status !== 'none' && billing.data.status !== 'cancelled') {
      return (
        <p className="text-sm" data-testid="setup-existing">
          {t('setup.existing')}{' '}
          <Link to="/settings/billing" className="font-medium text-brand-700 underline">
            {t('setup.toBilling')}
          </Link>
        </p>
      );
    }
    return <SetupForm billing={billing.data} />;
  };

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-semibold">{t('setup.title')}</h1>
        <p className="mt-1 text-sm text-stone-600">{t('setup.text')}</p>
      </div>
      <div
        className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
        data-testid="sub-setup"
      >
        {body()}
      </div>
    </section>
  );
}
