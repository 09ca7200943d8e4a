/**
 * The embedded, offline billing provider (issue 13, `BILLING_PROVIDER=manual`, the default).
 * Spec §4's payment methods: `immediate` is active and its invoice paid at once; `delayed`
 * stays pending (no usable licences) until the operator marks it paid; `invoice` is active at
 * once and its invoice PDF is mailed with a due date (INVOICE_DUE_DAYS). Every checkout,
 * renewal and licence increase issues a numbered, immutable invoice; added licences are billed
 * prorated for the rest of the period, removed ones are not refunded. The renewal job rolls
 * periods, applies a scheduled interval change and ends cancelled subscriptions.
 */
import type { BillingInterval, CheckoutRequest, Invoice, PaymentMethod } from '@heizplan/contracts/billing';
import { DateTime } from 'luxon';
import type { BillingConfig } from '../../config.ts';
import * as repo from './billing.repository.ts';
import type { BillingProviderPort, BillingTx, Buyer } from './billing-provider.ts';

/** Sends an issued invoice as a PDF attachment (the existing mailer; outbox by default). */
export type InvoiceMailer = (invoice: repo.InvoiceRow, to: string) => Promise<void>;

const LENGTH: Record<BillingInterval, { months?: number; years?: number }> = {
  monthly: { months: 1 },
  yearly: { years: 1 },
  '3yearly': { years: 3 },
};

/** End of a period of `interval` starting at `start` (calendar months/years, UTC). */
export function periodEnd(start: Date, interval: BillingInterval): Date {
  return DateTime.fromJSDate(start, { zone: 'utc' }).plus(LENGTH[interval]).toJSDate();
}

/** Share of the period still ahead at `now` (0 … 1), for prorating added licences. */
export function remainingShare(start: Date, end: Date, now: Date): number {
  const total = end.getTime() - start.getTime();
  return total <= 0 ? 0 : Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / total));
}

export class ManualBillingProvider implements BillingProviderPort {
  constructor(
    private readonly config: BillingConfig,
    private readonly mailInvoice: InvoiceMailer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates (or, after a cancellation, replaces) the subscription and issues its first invoice. */
  async checkout(tx: BillingTx, buyer: Buyer, request: CheckoutRequest): Promise<{ redirectUrl: string }> {
    const start = this.now();
    const end = periodEnd(start, request.interval);
    const subscription = await repo.upsertSubscription(tx.db, {
      companyId: buyer.companyId,
      provider: 'manual',
      interval: request.interval,
      nextInterval: null,
      licences: request.licences,
      status: request.paymentMethod === 'delayed' ? 'pending' : 'active',
      paymentMethod: request.paymentMethod,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: false,
      customerId: null,
      providerSubscriptionId: null,
    });
    await this.issue(tx, buyer, subscription, {
      reason: 'checkout',
      licences: request.licences,
      periodStart: start,
      share: 1,
    });
    return { redirectUrl: `/success?method=${request.paymentMethod}` };
  }

  async changeLicences(tx: BillingTx, buyer: Buyer, subscription: repo.SubscriptionRow, licences: number) {
    const added = licences - subscription.licences;
    const updated = await repo.updateSubscription(tx.db, subscription.companyId, { licences });
    if (added <= 0) return;
    const share = remainingShare(updated.currentPeriodStart, updated.currentPeriodEnd, this.now());
    await this.issue(tx, buyer, updated, {
      reason: 'licences',
      licences: added,
      periodStart: this.now(),
      share,
    });
  }

  async changeInterval(tx: BillingTx, subscription: repo.SubscriptionRow, interval: BillingInterval) {
    await repo.updateSubscription(tx.db, subscription.companyId, {
      nextInterval: interval === subscription.interval ? null : interval,
    });
  }

  async setCancelAtPeriodEnd(tx: BillingTx, subscription: repo.SubscriptionRow, cancel: boolean) {
    await repo.updateSubscription(tx.db, subscription.companyId, { cancelAtPeriodEnd: cancel });
  }

  async changePaymentMethod(tx: BillingTx, subscription: repo.SubscriptionRow, method: PaymentMethod) {
    await repo.updateSubscription(tx.db, subscription.companyId, { paymentMethod: method });
  }

  async invoices(tx: BillingTx, companyId: string): Promise<Invoice[]> {
    return (await repo.listInvoices(tx.db, companyId)).map((row) => ({
      id: row.id,
      number: row.number,
      issuedAt: row.issuedAt.toISOString(),
      netAmount: row.netCents,
      currency: row.currency,
      status: row.status,
      dueAt: row.dueAt?.toISOString() ?? null,
      pdfUrl: `/api/companies/${companyId}/billing/invoices/${row.id}/pdf`,
    }));
  }

  /** The app's billing screen, at its payment section, is the manual provider's page for payment details. */
  async portalUrl(_subscription: repo.SubscriptionRow, returnUrl: string): Promise<string> {
    return `${returnUrl}#payment`;
  }

  /**
   * The operator confirms a payment (`npm run billing -- mark-paid`): open invoices are paid and
   * a pending or late subscription becomes active. @returns false without a manual subscription.
   */
  async markPaid(tx: BillingTx, companyId: string): Promise<boolean> {
    const subscription = await repo.lockSubscription(tx.db, companyId);
    if (subscription?.provider !== 'manual') return false;
    const now = this.now();
    await repo.markInvoicesPaid(tx.db, companyId, now);
    if (subscription.status === 'pending' || subscription.status === 'past_due') {
      await repo.updateSubscription(tx.db, companyId, { status: 'active' });
    }
    return true;
  }

  /**
   * Renews one subscription whose period has ended (renewal job, row locked by the caller): a
   * cancelled one ends; otherwise the next period starts — in the scheduled interval — and is
   * invoiced; a delayed payment makes it late (`past_due`, licences stay usable) until paid.
   */
  async renew(tx: BillingTx, buyer: Buyer, subscription: repo.SubscriptionRow): Promise<void> {
    if (subscription.cancelAtPeriodEnd || subscription.status === 'pending') {
      await repo.updateSubscription(tx.db, subscription.companyId, { status: 'cancelled' });
      return;
    }
    const interval = subscription.nextInterval ?? subscription.interval;
    const start = subscription.currentPeriodEnd;
    const renewed = await repo.updateSubscription(tx.db, subscription.companyId, {
      interval,
      nextInterval: null,
      currentPeriodStart: start,
      currentPeriodEnd: periodEnd(start, interval),
      status: subscription.paymentMethod === 'delayed' ? 'past_due' : subscription.status,
    });
    await this.issue(tx, buyer, renewed, {
      reason: 'renewal',
      licences: renewed.licences,
      periodStart: start,
      share: 1,
    });
  }

  /** Issues an invoice for `licences` of the subscription's interval, mailing it for `invoice`. */
  private async issue(
    tx: BillingTx,
    buyer: Buyer,
    subscription: repo.SubscriptionRow,
    bill: { reason: repo.InvoiceRow['reason']; licences: number; periodStart: Date; share: number },
  ): Promise<void> {
    const issuedAt = this.now();
    const unitPrice = this.config.prices[subscription.interval];
    const method = subscription.paymentMethod;
    const invoice = await repo.insertInvoice(tx.db, {
      companyId: subscription.companyId,
      issuedAt,
      reason: bill.reason,
      periodStart: bill.periodStart,
      periodEnd: subscription.currentPeriodEnd,
      interval: subscription.interval,
      licences: bill.licences,
      unitPriceCents: unitPrice,
      netCents: Math.round(bill.licences * unitPrice * bill.share),
      currency: this.config.currency,
      paymentMethod: method,
      billedTo: `${buyer.companyName}; ${buyer.email}`,
      seller: this.config.seller,
      status: method === 'immediate' ? 'paid' : 'open',
      dueAt:
        method === 'invoice'
          ? DateTime.fromJSDate(issuedAt).plus({ days: this.config.invoiceDueDays }).toJSDate()
          : null,
      paidAt: method === 'immediate' ? issuedAt : null,
    });
    if (method === 'invoice') tx.afterCommit(() => this.mailInvoice(invoice, buyer.email));
  }
}
