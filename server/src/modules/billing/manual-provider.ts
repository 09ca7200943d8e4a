/**
 * The embedded, offline billing provider (`BILLING_PROVIDER=manual`, the default).
 * Spec §4's payment methods: `immediate` is active and its invoice paid at once; `delayed`
 * stays pending (no usable licences) until the operator marks it paid; `invoice` is active at
 * once and its invoice PDF is mailed with a due date (INVOICE_DUE_DAYS). Every checkout,
 * renewal and licence increase issues a numbered, immutable invoice; added licences are billed
 * prorated for the rest of the period, removed ones are not refunded. Each invoice keeps the
 * seller (BILLING_SELLER_*), the buyer's billing address and the VAT (BILLING_VAT_PERCENT) as
 * issued. The renewal job rolls periods, applies a scheduled interval change and ends cancelled
 * subscriptions.
 */
import { randomUUID } from 'node:crypto';
import type {
  BillingInterval,
  CheckoutRequest,
  CheckoutResponse,
  Invoice,
  PaymentMethod,
} from '@heizplan/contracts/billing';
import { DateTime } from 'luxon';
import type { BillingConfig } from '../../config.ts';
import type { InvoiceBuyer, InvoiceSeller } from '../../db/schema.ts';
import { netCents, periodEnd, remainingShare, withVat } from './amounts.ts';
import * as repo from './billing.repository.ts';
import type { BillingProviderPort, BillingTx, Buyer } from './billing-provider.ts';

// The seeds (demo, test fixtures) take the period arithmetic from here.
export { periodEnd, remainingShare };

/** Sends an issued invoice as a PDF attachment (the existing mailer; outbox by default). */
export type InvoiceMailer = (invoice: repo.InvoiceRow, to: string) => Promise<void>;

const COUNTRY = new Intl.DisplayNames(['de'], { type: 'region' });

/** The buyer as the invoice prints it: the billing address when kept, else the company's name. */
export function invoiceBuyer(buyer: Buyer): InvoiceBuyer {
  const address = buyer.address;
  if (!address) return { name: buyer.companyName, address: [], email: buyer.email };
  return {
    name: address.name,
    address: [
      address.street,
      `${address.postcode} ${address.city}`,
      // A domestic letter leaves the country out (DIN 5008); the seller bills from Germany.
      ...(address.country === 'DE' ? [] : [COUNTRY.of(address.country) ?? address.country]),
    ],
    ...(address.vatId ? { vatId: address.vatId } : {}),
    email: buyer.email,
  };
}

/** The seller's lines as one text (the invoice's `seller` column and the invoice mail). */
export function sellerText(seller: InvoiceSeller): string {
  return [
    seller.name,
    ...seller.address,
    seller.vatId ? `USt-IdNr.: ${seller.vatId}` : '',
    seller.taxNumber ? `Steuernummer: ${seller.taxNumber}` : '',
    seller.bank ? `Bank: ${seller.bank}` : '',
    seller.iban ? `IBAN: ${formatIban(seller.iban)}` : '',
    seller.bic ? `BIC: ${seller.bic}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `DE89370400440532013000` → `DE89 3704 0044 0532 0130 00` (groups of four, as printed). */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

export class ManualBillingProvider implements BillingProviderPort {
  constructor(
    private readonly config: BillingConfig,
    private readonly mailInvoice: InvoiceMailer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates (or, after a cancellation, replaces) the subscription and issues its first invoice. */
  async checkout(tx: BillingTx, buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse> {
    const start = this.now();
    const end = periodEnd(start, request.interval);
    const checkoutId = randomUUID();
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
      checkoutId,
      checkedOutAt: start,
    });
    await this.issue(tx, buyer, subscription, {
      reason: 'checkout',
      licences: request.licences,
      periodStart: start,
      share: 1,
    });
    return { redirectUrl: `/success?method=${request.paymentMethod}`, checkoutId };
  }

  /** The manual checkout completes in the request that starts it: a known id is completed. */
  async confirmCheckout(
    _tx: BillingTx,
    _companyId: string,
    subscription: repo.SubscriptionRow | undefined,
    checkoutId: string,
  ): Promise<boolean | null> {
    return subscription?.checkoutId === checkoutId ? true : null;
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
      vatAmount: row.vatCents,
      grossAmount: row.grossCents,
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
    const amount = withVat(netCents(bill.licences, unitPrice, bill.share), this.config.vatPercent);
    const billedTo = invoiceBuyer(buyer);
    const invoice = await repo.insertInvoice(tx.db, {
      companyId: subscription.companyId,
      issuedAt,
      reason: bill.reason,
      periodStart: bill.periodStart,
      periodEnd: subscription.currentPeriodEnd,
      interval: subscription.interval,
      licences: bill.licences,
      unitPriceCents: unitPrice,
      netCents: amount.net,
      vatPercent: this.config.vatPercent,
      vatCents: amount.vat,
      grossCents: amount.gross,
      currency: this.config.currency,
      paymentMethod: method,
      billedTo: [
        billedTo.name,
        ...billedTo.address,
        billedTo.vatId ? `USt-IdNr.: ${billedTo.vatId}` : '',
        billedTo.email,
      ]
        .filter(Boolean)
        .join('; '),
      buyerDetails: billedTo,
      seller: sellerText(this.config.seller),
      sellerDetails: this.config.seller,
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
