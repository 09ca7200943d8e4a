/**
 * What an order costs before anything is ordered, as the server quotes it: the licences, the
 * net price of one, the period the payment covers, the net amount (prorated for the rest of the
 * period when a running subscription grows), VAT with its rate, the gross amount due now, and
 * what every following period costs. Shown in the confirmation of the shop and of billing's
 * licence change; a refusal (an order above the limit, below the licences in use) is named.
 */
import type { QuoteRequest } from '@heizplan/contracts/billing';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useQuote } from '../api/billing.ts';
import { useDay, useMoney } from '../format.ts';

function Row({
  label,
  children,
  testid,
  strong,
}: {
  label: string;
  children: ReactNode;
  testid: string;
  strong?: boolean;
}) {
  return (
    <div
      className={`flex justify-between gap-4 py-1.5 ${strong ? 'border-t border-stone-200 pt-2 font-semibold text-ink' : ''}`}
    >
      <dt className="text-stone-700">{label}</dt>
      <dd className="text-right tabular-nums" data-testid={testid}>
        {children}
      </dd>
    </div>
  );
}

export function OrderSummary({ request }: { request: QuoteRequest }) {
  const { t } = useTranslation('billing');
  const money = useMoney();
  const day = useDay();
  const problems = useProblemMessage();
  const quote = useQuote(request);
  if (quote.isError) {
    return (
      <p role="alert" className="text-sm text-red-800" data-testid="order-summary-error">
        {problems.reason(quote.error)}
      </p>
    );
  }
  if (!quote.data || quote.isPlaceholderData) return <Spinner loading testid="order-summary-loading" />;
  const q = quote.data;
  const per = t(`per.${q.interval}`);
  // The note on later periods follows the list instead of sitting in it: a <dl> holds only
  // term–description groups, or screen readers miscount and misread it (WCAG 1.3.1).
  return (
    <div className="flex flex-col text-sm">
      <dl className="flex flex-col" data-testid="order-summary">
        <Row label={t('order.licences')} testid="order-licences">
          {q.kind === 'change'
            ? t('order.licencesChange', { from: q.currentLicences ?? 0, to: q.licences })
            : q.licences}
        </Row>
        <Row label={t('order.perLicence')} testid="order-per-licence">
          {money(q.perLicence, q.currency)} {per}
        </Row>
        <Row label={t('order.period')} testid="order-period">
          {t('order.periodRange', { from: day(q.periodStart), to: day(q.periodEnd) })}
        </Row>
        <Row
          label={q.kind === 'change' ? t('order.netProrated', { count: q.billedLicences }) : t('order.net')}
          testid="order-net"
        >
          {money(q.netAmount, q.currency)}
        </Row>
        <Row label={t('order.vat', { rate: q.vatPercent })} testid="order-vat">
          {money(q.vatAmount, q.currency)}
        </Row>
        <Row label={t('order.gross')} testid="order-gross" strong>
          {money(q.grossAmount, q.currency)}
        </Row>
      </dl>
      <p className="mt-2 text-xs text-stone-600" data-testid="order-recurring">
        {t('order.recurring', {
          net: money(q.netTotal, q.currency),
          gross: money(q.grossTotal, q.currency),
          per,
        })}
      </p>
    </div>
  );
}
