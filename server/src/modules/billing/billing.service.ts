/**
 * Subscription and licence rules (spec §1, §3, §4, decision 0023). Every member reads
 * the company's billing state (the navigation says when no subscription is active); only admins
 * buy, change, cancel, see invoices and keep the billing address (decision 0022). Prices are
 * net, per licence and interval, from configuration; totals and VAT are computed here.
 *
 * Licences in use are the devices and the enabled QR codes (one licence each), and the total
 * never goes below them: a reduction is refused rather than disabling QR codes, because spec §4
 * keeps QR access valid until it is disabled or regenerated and spec §2 only offers to remove
 * *unused* licences. One order buys at most BILLING_MAX_LICENCES_PER_ORDER. The provider (manual
 * or Stripe) moves the money; this service checks and locks.
 */

import type {
  BillingAddress,
  BillingInterval,
  BillingOverview,
  CheckoutRequest,
  CheckoutResponse,
  CheckoutStatus,
  Invoice,
  PaymentMethod,
  Quote,
  QuoteRequest,
  SubscriptionPatch,
} from '@heizplan/contracts/billing';
import type { FastifyBaseLogger } from 'fastify';
import { requireMember } from '../../auth/membership.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { BillingConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { netCents, periodEnd, remainingShare, withVat } from './amounts.ts';
import * as repo from './billing.repository.ts';
import type { BillingProviderPort, BillingTx, Buyer } from './billing-provider.ts';
import { usableLicencesOf } from './licences.ts';
import { ManualBillingProvider } from './manual-provider.ts';
import { StripeBillingProvider } from './stripe-provider.ts';

export interface BillingServiceDeps {
  db: Db;
  config: BillingConfig;
  /** The provider BILLING_PROVIDER names; absent with `none`. */
  provider?: ManualBillingProvider | StripeBillingProvider;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Now (UTC) for quotes and proration; default the machine's clock. */
  now?: Clock;
}

const BILLING_OFF = 'Billing is switched off on this server (BILLING_PROVIDER=none).';
const NO_SUBSCRIPTION = 'This company has no subscription. Choose licences in the shop first.';

/** A licence total below the devices in use is refused with this message. */
export const belowDevicesMessage = (devices: number) =>
  `The company uses ${devices} devices; keep at least ${devices} licences or delete devices first.`;

/** A licence total below the enabled QR codes is refused with this message. */
export const belowQrCodesMessage = (qrCodes: number) =>
  `The company has ${qrCodes} QR codes enabled; keep at least ${qrCodes} licences or disable QR codes first.`;

/** An order above BILLING_MAX_LICENCES_PER_ORDER is refused with this message. */
export const orderTooLargeMessage = (max: number) =>
  `At most ${max} licences can be ordered at once (BILLING_MAX_LICENCES_PER_ORDER).`;

/** Paying by invoice without a billing address is refused with this message. */
export const BILLING_ADDRESS_REQUIRED =
  'Paying by invoice needs a billing address: keep one in settings → billing first.';

/** A subscription still running (not ended): its changes are priced as changes, not checkouts. */
const running = (subscription: repo.SubscriptionRow | undefined): subscription is repo.SubscriptionRow =>
  subscription !== undefined && subscription.status !== 'cancelled';

export class BillingService {
  constructor(private readonly deps: BillingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** Any member: the state the billing screens and the navigation show. */
  async overview(userId: string, companyId: string): Promise<BillingOverview> {
    await requireMember(this.db, userId, companyId, 'read');
    const [subscription, deviceCount, qrCodeCount, unitCount, address] = await Promise.all([
      repo.findSubscription(this.db, companyId),
      repo.countDevices(this.db, companyId),
      repo.countQrCodes(this.db, companyId),
      repo.countUnits(this.db, companyId),
      repo.findBillingAddress(this.db, companyId),
    ]);
    const { config } = this.deps;
    const prices = { currency: config.currency, perLicence: config.prices, vatPercent: config.vatPercent };
    const counts = {
      usedLicences: Math.max(deviceCount, qrCodeCount),
      deviceCount,
      qrCodeCount,
      unitCount,
      prices,
      maxLicencesPerOrder: config.maxLicencesPerOrder,
      hasBillingAddress: address !== null,
    };
    if (config.provider === 'none') {
      return {
        ...counts,
        checkedOutAt: null,
        provider: 'none',
        status: 'active',
        interval: null,
        nextInterval: null,
        licences: null,
        usableLicences: null,
        paymentMethod: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        netTotal: null,
      };
    }
    return {
      ...counts,
      provider: config.provider,
      status: subscription?.status ?? 'none',
      interval: subscription?.interval ?? null,
      nextInterval: subscription?.nextInterval ?? null,
      licences: subscription?.licences ?? null,
      usableLicences: usableLicencesOf(subscription),
      paymentMethod: subscription?.paymentMethod ?? null,
      currentPeriodEnd: subscription?.currentPeriodEnd.toISOString() ?? null,
      cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
      netTotal: subscription ? subscription.licences * config.prices[subscription.interval] : null,
      checkedOutAt: running(subscription) ? (subscription.checkedOutAt?.toISOString() ?? null) : null,
    };
  }

  /**
   * Any member: what ordering `licences` (the new total) costs — the confirmation dialog's
   * content. Without a running subscription a checkout in `request.interval`: the first period
   * in full. With one a change in the subscription's interval: added licences prorated for the
   * rest of the period, by the same rule and rounding as the invoice; removed ones cost nothing.
   * VAT at BILLING_VAT_PERCENT on the amount charged now. Cents throughout.
   * @throws 400 as the order itself would (order too large, fewer licences than in use, or a
   *   checkout without `interval`).
   */
  async quote(userId: string, companyId: string, request: QuoteRequest): Promise<Quote> {
    await requireMember(this.db, userId, companyId, 'read');
    const { config } = this.deps;
    const subscription = await repo.findSubscription(this.db, companyId);
    const now = (this.deps.now ?? systemClock)();
    const change = running(subscription);
    const interval: BillingInterval | undefined = change ? subscription.interval : request.interval;
    if (!interval) {
      const message = 'Choose the interval of the new subscription.';
      throw badRequest(message, [{ field: 'body.interval', message }]);
    }
    const currentLicences = change ? subscription.licences : null;
    const billedLicences = Math.max(0, request.licences - (currentLicences ?? 0));
    this.requireOrderSize(billedLicences);
    if (currentLicences === null || request.licences < currentLicences) {
      await this.requireCoversUse(this.db, companyId, request.licences);
    }
    const perLicence = config.prices[interval];
    const end = change ? subscription.currentPeriodEnd : periodEnd(now, interval);
    const share = change ? remainingShare(subscription.currentPeriodStart, end, now) : 1;
    const proratedAmount = change ? netCents(billedLicences, perLicence, share) : null;
    const charged = withVat(proratedAmount ?? netCents(billedLicences, perLicence), config.vatPercent);
    const netTotal = netCents(request.licences, perLicence);
    return {
      kind: change ? 'change' : 'checkout',
      currency: config.currency,
      interval,
      licences: request.licences,
      currentLicences,
      billedLicences,
      perLicence,
      netTotal,
      grossTotal: withVat(netTotal, config.vatPercent).gross,
      periodStart: now.toISOString(),
      periodEnd: end.toISOString(),
      proratedAmount,
      netAmount: charged.net,
      vatPercent: config.vatPercent,
      vatAmount: charged.vat,
      grossAmount: charged.gross,
    };
  }

  /**
   * Admins: starts a subscription (none yet, or the previous one cancelled).
   * @throws 409 while a subscription runs; 400 for more licences than one order may buy, fewer
   *   than the devices or enabled QR codes in use, or paying by invoice (manual provider)
   *   without a billing address.
   */
  async checkout(userId: string, companyId: string, request: CheckoutRequest): Promise<CheckoutResponse> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    this.requireOrderSize(request.licences);
    const buyer = await this.buyer(companyId, userId);
    this.requireAddressForInvoice(buyer, request.paymentMethod);
    return this.inTransaction(async (tx) => {
      const current = await repo.lockSubscription(tx.db, companyId);
      if (current && current.status !== 'cancelled') {
        throw conflict('This company already has a subscription; change it in settings → billing.', {
          code: 'subscription_exists',
        });
      }
      await this.requireCoversUse(tx.db, companyId, request.licences);
      return provider.checkout(tx, buyer, request);
    });
  }

  /**
   * Admins: whether checkout `checkoutId` (from the checkout's answer, or Stripe's `session_id`)
   * of this company completed — what `/success` asks before it thanks anyone.
   * @throws 404 `checkout_unknown` for an id that is not the company's latest checkout.
   */
  async checkoutStatus(userId: string, companyId: string, checkoutId: string): Promise<CheckoutStatus> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    const subscription = await repo.findSubscription(this.db, companyId);
    const tx = { db: this.db, afterCommit: () => {} };
    const completed = await provider.confirmCheckout(tx, companyId, subscription, checkoutId);
    if (completed === null) {
      throw notFound('This company has no checkout with this id.', { code: 'checkout_unknown' });
    }
    // Stripe's customer can be back before the webhook recorded the subscription: pending till then.
    const recorded = subscription?.checkoutId === checkoutId ? subscription : undefined;
    return {
      checkoutId,
      completed,
      status: recorded?.status ?? (completed ? 'pending' : 'none'),
      paymentMethod: recorded?.paymentMethod ?? null,
    };
  }

  /** Admins: the company's billing address; null while none is kept. */
  async billingAddress(userId: string, companyId: string): Promise<BillingAddress | null> {
    await requireMember(this.db, userId, companyId, 'manage');
    return repo.findBillingAddress(this.db, companyId);
  }

  /**
   * Admins: keeps `address` as the billing address of invoices issued from now on (issued ones
   * keep the address they were issued with).
   */
  async setBillingAddress(
    userId: string,
    companyId: string,
    address: BillingAddress,
  ): Promise<BillingAddress> {
    await requireMember(this.db, userId, companyId, 'manage');
    await repo.saveBillingAddress(this.db, companyId, address);
    return address;
  }

  /**
   * Admins: changes the licence total (never below the devices and QR codes in use, adding at
   * most BILLING_MAX_LICENCES_PER_ORDER), the interval (from the next period), the payment
   * method, or cancels / resumes at the end of the period.
   * @throws 404 without a subscription; 400 for too few or too many licences, or a switch to
   *   paying by invoice (manual provider) without a billing address; 409 for a cancelled one.
   */
  async update(userId: string, companyId: string, patch: SubscriptionPatch): Promise<BillingOverview> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    const buyer = await this.buyer(companyId, userId);
    await this.inTransaction(async (tx) => {
      const subscription = await repo.lockSubscription(tx.db, companyId);
      if (!subscription) throw notFound(NO_SUBSCRIPTION, { code: 'subscription_missing' });
      if (subscription.status === 'cancelled') {
        throw conflict('The subscription has ended. Start a new one in the shop.', {
          code: 'subscription_ended',
        });
      }
      if (patch.licences !== undefined && patch.licences !== subscription.licences) {
        this.requireOrderSize(patch.licences - subscription.licences);
        await this.requireCoversUse(tx.db, companyId, patch.licences);
        await provider.changeLicences(tx, buyer, subscription, patch.licences);
      }
      if (patch.interval !== undefined) await provider.changeInterval(tx, subscription, patch.interval);
      if (patch.paymentMethod !== undefined && patch.paymentMethod !== subscription.paymentMethod) {
        this.requireAddressForInvoice(buyer, patch.paymentMethod);
        await provider.changePaymentMethod(tx, subscription, patch.paymentMethod);
      }
      if (
        patch.cancelAtPeriodEnd !== undefined &&
        patch.cancelAtPeriodEnd !== subscription.cancelAtPeriodEnd
      ) {
        await provider.setCancelAtPeriodEnd(tx, subscription, patch.cancelAtPeriodEnd);
      }
    });
    return this.overview(userId, companyId);
  }

  /** Admins: the company's invoices, newest first. */
  async invoices(userId: string, companyId: string): Promise<Invoice[]> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    const subscription = await repo.findSubscription(this.db, companyId);
    return provider.invoices({ db: this.db, afterCommit: () => {} }, companyId, subscription);
  }

  /** Admins: one manual-provider invoice as stored (for its PDF). @throws 404 for other ids. */
  async invoice(userId: string, companyId: string, invoiceId: string): Promise<repo.InvoiceRow> {
    await requireMember(this.db, userId, companyId, 'manage');
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const row = UUID.test(invoiceId) ? await repo.findInvoice(this.db, companyId, invoiceId) : undefined;
    if (!row) throw notFound('Invoice not found.');
    return row;
  }

  /** Admins: the provider's page for payment details. @throws 404 without a subscription. */
  async portal(userId: string, companyId: string): Promise<string> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    const subscription = await repo.findSubscription(this.db, companyId);
    if (!subscription) throw notFound(NO_SUBSCRIPTION, { code: 'subscription_missing' });
    return provider.portalUrl(subscription, `${this.deps.publicUrl}/settings/billing`);
  }

  /**
   * Spec §4: an account deletion request cancels, at the end of the period, the subscription of
   * every company the person is the only admin of. Failures are logged, never block the request.
   */
  async cancelForAccountDeletion(userId: string): Promise<void> {
    const provider = this.deps.provider;
    if (!provider) return;
    for (const companyId of await repo.companiesWithSoleAdmin(this.db, userId)) {
      try {
        await this.inTransaction(async (tx) => {
          const subscription = await repo.lockSubscription(tx.db, companyId);
          if (subscription && subscription.status !== 'cancelled' && !subscription.cancelAtPeriodEnd) {
            await provider.setCancelAtPeriodEnd(tx, subscription, true);
          }
        });
      } catch (err) {
        this.deps.log.error({ err, companyId }, 'cancelling the subscription of a deleted account failed');
      }
    }
  }

  /**
   * Stripe's webhook: verifies `body` (the exact bytes received) against `signature` and applies
   * the event, idempotent by event id.
   * @throws 404 unless Stripe is the provider; 400 for a missing or wrong signature.
   */
  async handleStripeEvent(body: unknown, signature: unknown): Promise<void> {
    const provider = this.deps.provider;
    if (!(provider instanceof StripeBillingProvider)) {
      throw notFound('Stripe is not the billing provider of this server.');
    }
    if (!Buffer.isBuffer(body) || typeof signature !== 'string') {
      throw badRequest('A signed Stripe event is expected.');
    }
    const event = provider.verifyEvent(body, signature);
    if (!event) throw badRequest('The Stripe signature does not match this event.');
    await provider.handleEvent(this.db, event);
  }

  /**
   * The operator's "mark paid" for the company whose id is `companyIdOrName`, or whose name it
   * is ignoring case: its open invoices are paid and its subscription becomes active.
   * @throws 404 unless the manual provider bills, for no such company or no manual subscription;
   *   409 when several companies have the name.
   */
  async markPaidByOperator(companyIdOrName: string): Promise<{ companyId: string; companyName: string }> {
    const provider = this.deps.provider;
    if (!(provider instanceof ManualBillingProvider)) {
      throw notFound('Only the manual provider is marked paid by hand.');
    }
    const matches = await repo.findCompaniesByIdOrName(this.db, companyIdOrName);
    const [company] = matches;
    if (!company) throw notFound('No company has this id or name.');
    if (matches.length > 1) {
      throw new HttpError(
        409,
        'Conflict',
        `Several companies have this name: ${matches.map((m) => m.id).join(', ')}.`,
      );
    }
    const done = await this.db.transaction((db) =>
      provider.markPaid({ db, afterCommit: () => {} }, company.id),
    );
    if (!done) throw notFound('This company has no subscription of the manual provider.');
    return { companyId: company.id, companyName: company.name };
  }

  /**
   * Renews, in one transaction, up to `limit` manual subscriptions whose period ended by `now`
   * (rows taken with `skip locked`, so instances share the work). Stripe renews its own.
   * @returns how many were renewed or ended; fewer than `limit` means none is left.
   */
  async renewDue(now: Date, limit: number): Promise<number> {
    const provider = this.deps.provider;
    if (!(provider instanceof ManualBillingProvider)) return 0;
    return this.inTransaction(async (tx) => {
      const due = await repo.dueManualSubscriptions(tx.db, now, limit);
      for (const subscription of due) {
        const buyer = (await repo.findBuyer(tx.db, subscription.companyId)) ?? { companyName: '', email: '' };
        await provider.renew(tx, { companyId: subscription.companyId, ...buyer }, subscription);
      }
      return due.length;
    });
  }

  /** Name and billing address of the company (the acting admin's, or its first admin's). */
  async buyer(companyId: string, userId?: string): Promise<Buyer> {
    const found = await repo.findBuyer(this.db, companyId, userId);
    if (!found) throw notFound('Company not found.');
    return { companyId, ...found };
  }

  /** Runs `work` in one transaction and its after-commit tasks (mail) once it committed. */
  async inTransaction<T>(work: (tx: BillingTx) => Promise<T>): Promise<T> {
    const later: Array<() => Promise<void>> = [];
    const result = await this.db.transaction((db) => work({ db, afterCommit: (task) => later.push(task) }));
    for (const task of later) {
      try {
        await task();
      } catch (err) {
        // The invoice is issued and listed in settings → billing; a lost mail must not undo it.
        this.deps.log.error({ err }, 'billing mail failed after commit');
      }
    }
    return result;
  }

  private requireProvider(): BillingProviderPort {
    if (!this.deps.provider) throw notFound(BILLING_OFF, { code: 'billing_off' });
    return this.deps.provider;
  }

  /** @throws 400 `licence_order_too_large` when `ordered` licences exceed one order's limit. */
  private requireOrderSize(ordered: number) {
    const max = this.deps.config.maxLicencesPerOrder;
    if (ordered > max) {
      const message = orderTooLargeMessage(max);
      const reason = { code: 'licence_order_too_large' as const, params: { max } };
      throw badRequest(message, [{ field: 'body.licences', message, ...reason }], reason);
    }
  }

  /**
   * @throws 400 `licences_below_devices` or `licences_below_qr_codes` when `licences` cannot
   *   cover the devices or the enabled QR codes, each of which takes one.
   */
  private async requireCoversUse(db: Db, companyId: string, licences: number) {
    const devices = await repo.countDevices(db, companyId);
    if (licences < devices) {
      const message = belowDevicesMessage(devices);
      const reason = { code: 'licences_below_devices' as const, params: { devices } };
      throw badRequest(message, [{ field: 'body.licences', message, ...reason }], reason);
    }
    const qrCodes = await repo.countQrCodes(db, companyId);
    if (licences < qrCodes) {
      const message = belowQrCodesMessage(qrCodes);
      const reason = { code: 'licences_below_qr_codes' as const, params: { qrCodes } };
      throw badRequest(message, [{ field: 'body.licences', message, ...reason }], reason);
    }
  }

  /**
   * The manual provider issues and mails an invoice to be paid by transfer at once, and it must
   * name the buyer's full address (§14 Abs. 4 Nr. 1 UStG).
   * @throws 400 `billing_address_required` (field `body.paymentMethod`) for `invoice` without one.
   */
  private requireAddressForInvoice(buyer: Buyer, method: PaymentMethod) {
    if (this.deps.config.provider !== 'manual' || method !== 'invoice' || buyer.address) return;
    const reason = { code: 'billing_address_required' as const };
    const field = { field: 'body.paymentMethod', message: BILLING_ADDRESS_REQUIRED, ...reason };
    throw badRequest(BILLING_ADDRESS_REQUIRED, [field], reason);
  }
}
