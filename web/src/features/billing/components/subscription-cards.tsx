/**
 * Settings → billing, the subscription itself (spec §2, §4): its state in words (the
 * status names are not shown), cancellation at the end of the period and taking it back; the
 * billing interval (from the next period on); the payment method — in the app for the manual
 * provider, on the payment provider's own page (Stripe's Customer Portal) otherwise.
 */
import {
  type BillingInterval,
  BillingIntervalSchema,
  type BillingOverview,
  type PaymentMethod,
  PaymentMethodSchema,
} from '@heizplan/contracts/billing';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { openPortal, useUpdateSubscription } from '../api/billing.ts';
import { useDay } from '../format.ts';

/** The subscription's state as a sentence (spec §4: status names are not shown). */
export function StatusText({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const day = useDay();
  const date = billing.currentPeriodEnd ? day(billing.currentPeriodEnd) : '';
  const key = billing.status === 'active' && billing.cancelAtPeriodEnd ? 'ending' : billing.status;
  return (
    <p className="text-sm text-stone-700" data-testid="billing-status">
      {t(`status.${key}`, { date })}
    </p>
  );
}

function useChange(success: string) {
  const { t } = useTranslation('billing');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateSubscription();
  return {
    update,
    onSuccess: () => toast({ type: 'success', title: success, testid: 'toast-subscription-saved' }),
    onError: (error: Error) =>
      toast({
        type: 'error',
        title: t('subscription.error'),
        description: problems.reason(error),
        testid: 'toast-subscription-error',
      }),
  };
}

export function SubscriptionCard({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const day = useDay();
  const [confirming, setConfirming] = useState(false);
  const cancel = useChange(t('subscription.cancelled'));
  const resume = useChange(t('subscription.resumed'));
  return (
    <SettingsCard title={t('subscription.title')} testid="billing-subscription">
      <div className="flex flex-col gap-4">
        <StatusText billing={billing} />
        {billing.cancelAtPeriodEnd ? (
          <Button
            variant="secondary"
            className="self-start"
            loading={resume.update.isPending}
            onClick={() =>
              resume.update.mutate(
                { cancelAtPeriodEnd: false },
                { onSuccess: resume.onSuccess, onError: resume.onError },
              )
            }
            testid="subscription-resume"
          >
            {t('subscription.resume')}
          </Button>
        ) : (
          <Button
            variant="danger"
            className="self-start"
            onClick={() => setConfirming(true)}
            testid="subscription-cancel"
          >
            {t('subscription.cancel')}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('subscription.confirmTitle')}
        confirmText={t('subscription.confirm')}
        // Not the UI kit's "Cancel": beside "Cancel subscription" it would say the opposite.
        cancelText={t('subscription.keep')}
        onConfirm={() =>
          cancel.update.mutateAsync({ cancelAtPeriodEnd: true }).then(cancel.onSuccess, cancel.onError)
        }
        testid="subscription-cancel-dialog"
      >
        <p>
          {t('subscription.confirmText', {
            date: billing.currentPeriodEnd ? day(billing.currentPeriodEnd) : '',
          })}
        </p>
      </ConfirmDialog>
    </SettingsCard>
  );
}

/** Opens the payment provider's page; a failure is told in a toast. */
function PortalButton({ label }: { label: string }) {
  const { t } = useTranslation('billing');
  const { toast } = useToast();
  const [opening, setOpening] = useState(false);
  return (
    <Button
      variant="secondary"
      className="self-start"
      loading={opening}
      onClick={() => {
        setOpening(true);
        openPortal()
          .then((url) => window.location.assign(url))
          .catch(() =>
            toast({ type: 'error', title: t('payment.portalError'), testid: 'toast-portal-error' }),
          )
          .finally(() => setOpening(false));
      }}
      testid="billing-portal"
    >
      {label}
    </Button>
  );
}

export function IntervalCard({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const day = useDay();
  const change = useChange(t('interval.saved'));
  const chosen = billing.nextInterval ?? billing.interval ?? 'yearly';
  return (
    <SettingsCard title={t('interval.title')} description={t('interval.text')} testid="billing-interval">
      {billing.provider === 'stripe' ? (
        <div className="flex flex-col gap-3">
          <p className="text-sm">{t('interval.portal')}</p>
          <PortalButton label={t('payment.portal')} />
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:w-64">
          <Field label={t('interval.title')} testid="billing-interval-field">
            {(control) => (
              <Select
                {...control}
                value={chosen}
                disabled={change.update.isPending}
                onChange={(next) =>
                  change.update.mutate(
                    { interval: next as BillingInterval },
                    { onSuccess: change.onSuccess, onError: change.onError },
                  )
                }
                options={BillingIntervalSchema.options.map((id) => ({
                  id,
                  value: t(`intervals.${id}`),
                  testid: `billing-interval-${id}`,
                }))}
                testid="billing-interval-select"
              />
            )}
          </Field>
          {billing.nextInterval && billing.currentPeriodEnd && (
            <p className="text-sm text-stone-700" data-testid="billing-next-interval">
              {t('interval.next', {
                date: day(billing.currentPeriodEnd),
                interval: t(`intervals.${billing.nextInterval}`),
              })}
            </p>
          )}
        </div>
      )}
    </SettingsCard>
  );
}

export function PaymentCard({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const change = useChange(t('payment.saved'));
  return (
    <section id="payment">
      <SettingsCard title={t('payment.title')} description={t('payment.text')} testid="billing-payment">
        {billing.provider === 'stripe' ? (
          <div className="flex flex-col gap-3">
            <p className="text-sm">{t('payment.portalText')}</p>
            <PortalButton label={t('payment.portal')} />
          </div>
        ) : (
          <div className="sm:w-72">
            <Field
              label={t('payment.title')}
              hint={billing.paymentMethod ? t(`methodHints.${billing.paymentMethod}`) : undefined}
            >
              {(control) => (
                <Select
                  {...control}
                  value={billing.paymentMethod ?? 'immediate'}
                  disabled={change.update.isPending}
                  onChange={(next) =>
                    change.update.mutate(
                      { paymentMethod: next as PaymentMethod },
                      { onSuccess: change.onSuccess, onError: change.onError },
                    )
                  }
                  options={PaymentMethodSchema.options.map((id) => ({
                    id,
                    value: t(`methods.${id}`),
                    testid: `billing-method-${id}`,
                  }))}
                  testid="billing-method-select"
                />
              )}
            </Field>
          </div>
        )}
      </SettingsCard>
    </section>
  );
}
