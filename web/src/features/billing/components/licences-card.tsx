/**
 * Settings → billing, licences (spec §2 "licences (current and new totals, used count, buttons
 * to check out and to remove unused licences)"): buying raises the total at once (billed
 * prorated), removing unused licences lowers it to the licences in use (devices and enabled QR
 * codes) — never below. Every change shows what it costs (net, VAT, gross) and waits for a
 * confirmation; one order adds at most the server's limit.
 */
import { type BillingOverview, LicencesSchema } from '@heizplan/contracts/billing';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Form, FormNumberInput, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useQuote, useUpdateSubscription } from '../api/billing.ts';
import { useMoney } from '../format.ts';
import { OrderSummary } from './order-summary.tsx';

export function LicencesCard({ billing }: { billing: BillingOverview }) {
  const { t } = useTranslation('billing');
  const money = useMoney();
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateSubscription();
  const current = billing.licences ?? 0;
  const used = billing.usedLicences;
  // Never fewer licences than in use, never more added in one order than the server allows.
  const schema = useMemo(
    () =>
      z.object({
        licences: LicencesSchema.min(Math.max(1, used)).max(current + billing.maxLicencesPerOrder),
      }),
    [used, current, billing.maxLicencesPerOrder],
  );
  // Said while typing; buying waits for a valid total.
  const form = useContractForm(schema, {
    mode: 'onChange',
    defaultValues: { licences: current },
    wording: (issue) =>
      issue.code === 'too_small'
        ? (problems.coded(
            billing.qrCodeCount > billing.deviceCount ? 'licences_below_qr_codes' : 'licences_below_devices',
            { devices: billing.deviceCount, qrCodes: billing.qrCodeCount },
          ) ?? undefined)
        : issue.code === 'too_big'
          ? (problems.coded('licence_order_too_large', { max: billing.maxLicencesPerOrder }) ?? undefined)
          : undefined,
  });
  const [pending, setPending] = useState<number | null>(null);
  const total = form.watch('licences');
  const { isValid } = form.formState;
  const interval = billing.interval ?? 'yearly';
  const quote = useQuote(isValid && total !== current ? { interval, licences: total } : null);
  const unused = current - Math.max(1, used);

  const change = (licences: number) =>
    update.mutateAsync({ licences }).then(
      (overview) => {
        form.reset({ licences: overview.licences ?? licences });
        toast({ type: 'success', title: t('licences.updated'), testid: 'toast-licences-updated' });
      },
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('licences.error'),
          description: problems.reason(error),
          testid: 'toast-licences-error',
        }),
    );

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:max-w-sm">
        <div className="rounded-lg bg-stone-100 p-3">
          <dt className="text-stone-600">{t('licences.current')}</dt>
          <dd className="text-xl font-semibold" data-testid="licences-current">
            {current}
          </dd>
        </div>
        <div className="rounded-lg bg-stone-100 p-3">
          <dt className="text-stone-600">{t('licences.used')}</dt>
          <dd className="text-xl font-semibold" data-testid="licences-used">
            {used}
          </dd>
        </div>
      </dl>
      <Form
        form={form}
        onSubmit={({ licences }) => setPending(licences)}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="sm:w-48">
          <FormNumberInput name="licences" label={t('licences.newTotal')} testid="licences-new-total" />
        </div>
        <Button
          type="submit"
          disabled={!isValid || total <= current}
          loading={update.isPending && total > current}
          testid="licences-buy"
        >
          {t('licences.buy')}
        </Button>
        <Button
          variant="secondary"
          disabled={unused <= 0 || update.isPending}
          onClick={() => setPending(Math.max(1, used))}
          testid="licences-remove-unused"
        >
          {t('licences.removeUnused', { count: Math.max(0, unused) })}
        </Button>
      </Form>
      {quote.data && isValid && total !== current && (
        <p className="text-sm font-medium text-ink" data-testid="licences-new-price">
          {t('licences.newPrice', {
            total: money(quote.data.netTotal, quote.data.currency),
            per: t(`per.${interval}`),
          })}
        </p>
      )}
      <p className="text-xs text-stone-600">
        {t('licences.prorated')} {t('net')}
      </p>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending !== null && pending < current ? t('order.titleReduce') : t('order.title')}
        confirmText={pending !== null && pending < current ? t('order.confirmReduce') : t('order.confirm')}
        confirmVariant="primary"
        onConfirm={() => (pending !== null ? change(pending) : Promise.resolve())}
        testid="licences-confirm"
      >
        {pending !== null && <OrderSummary request={{ licences: pending }} />}
      </ConfirmDialog>
    </div>
  );
}
