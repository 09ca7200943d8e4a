/**
 * The signed-in member's monthly report mail (a PDF on the 1st): a checkbox that saves at once
 * (decision 0048: instant-save controls have no form state); a toast confirms or says it failed.
 */
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useReportSubscription, useSetReportSubscription } from '../api/reports.ts';

export function SubscriptionToggle() {
  const { t } = useTranslation('reports');
  const { toast } = useToast();
  const subscription = useReportSubscription();
  const update = useSetReportSubscription();
  const checked = update.isPending ? Boolean(update.variables) : Boolean(subscription.data?.subscribed);
  const change = (subscribed: boolean) =>
    update.mutate(subscribed, {
      onSuccess: () =>
        toast({
          type: 'success',
          title: subscribed ? t('subscription.on') : t('subscription.off'),
          testid: 'toast-report-subscription',
        }),
      onError: () =>
        toast({ type: 'error', title: t('subscription.error'), testid: 'toast-report-subscription-error' }),
    });
  return (
    <div className="flex flex-col gap-0.5">
      <label className="flex items-center gap-3 text-sm font-medium">
        <input
          type="checkbox"
          className="size-5 accent-brand-600"
          checked={checked}
          disabled={!subscription.data || update.isPending}
          aria-describedby="report-subscription-hint"
          onChange={(event) => change(event.target.checked)}
          data-testid="report-subscription"
        />
        {t('subscription.label')}
      </label>
      <p id="report-subscription-hint" className="pl-8 text-xs text-stone-600">
        {t('subscription.hint')}
      </p>
    </div>
  );
}
