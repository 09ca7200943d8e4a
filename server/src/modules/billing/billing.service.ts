/**
 * Subscription and licence rules (spec §1, §3, §4; issue 13; decision 0023). Every member reads
 * the company's billing state (the navigation says when no subscription is active); only admins
 * buy, change, cancel and see invoices (decision 0022). Prices are net, per licence and
 * interval, from configuration; totals are computed here. Licences never go below the devices in
 * use. The provider (manual or Stripe) moves the money; this service checks and locks.
 */
import type {
  BillingOverview,
  CheckoutRequest,
  Invoice,
  Quote,
  QuoteRequest,
  SubscriptionPatch,
} from '@heizplan/contracts/billing';
import type { FastifyBaseLogger } from 'fastify';
import { requireMember } from '../../auth/membership.ts';
import type { BillingConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import * as repo from './billing.repository.ts';
import type { BillingProviderPort, BillingTx, Buyer } from './billing-provider.ts';
import { usableLicencesOf } from './licences.ts';

export interface BillingServiceDeps {
  db: Db;
  config: BillingConfig;
  /** Absent with `BILLING_PROVIDER=none`. */
  provider?: BillingProviderPort;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
}

const BILLING_OFF = 'Billing is switched off on this server (BILLING_PROVIDER=none).';
const NO_SUBSCRIPTION = 'This company has no subscription. Choose licences in the shop first.';

/** A licence total below the devices in use is refused with this message. */
export const belowDevicesMessage = (devices: number) =>
  `The company uses ${devices} devices; keep at least ${devices} licences or delete devices first.`;

export class BillingService {
  constructor(private readonly deps: BillingServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** Any member: the state the billing screens and the navigation show. */
  async overview(userId: string, companyId: string): Promise<BillingOverview> {
    await requireMember(this.db, userId, companyId, 'read');
    const [subscription, deviceCount, unitCount] = await Promise.all([
      repo.findSubscription(this.db, companyId),
      repo.countDevices(this.db, companyId),
      repo.countUnits(this.db, companyId),
    ]);
    const { config } = this.deps;
    const prices = { currency: config.currency, perLicence: config.prices };
    const counts = { usedLicences: deviceCount, deviceCount, unitCount, prices };
    if (config.provider === 'none') {
      return {
        ...counts,
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
    };
  }

  /** Any member: the net price of `licences` per `interval` (the shop's total). */
  async quote(userId: string, companyId: string, request: QuoteRequest): Promise<Quote> {
    await requireMember(this.db, userId, companyId, 'read');
    const perLicence = this.deps.config.prices[request.interval];
    return {
      currency: this.deps.config.currency,
      interval: request.interval,
      licences: request.licences,
      perLicence,
      netTotal: perLicence * request.licences,
    };
  }

  /**
   * Admins: starts a subscription (none yet, or the previous one cancelled).
   * @throws 409 while a subscription runs, 400 for fewer licences than devices in use.
   */
  async checkout(
    userId: string,
    companyId: string,
    request: CheckoutRequest,
  ): Promise<{ redirectUrl: string }> {
    await requireMember(this.db, userId, companyId, 'manage');
    const provider = this.requireProvider();
    const buyer = await this.buyer(companyId, userId);
    return this.inTransaction(async (tx) => {
      const current = await repo.lockSubscription(tx.db, companyId);
      if (current && current.status !== 'cancelled') {
        throw conflict('This company already has a subscription; change it in settings → billing.', {
          code: 'subscription_exists',
        });
      }
      await this.requireCoversDevices(tx.db, companyId, request.licences);
      return provider.checkout(tx, buyer, request);
    });
  }

  /**
   * Admins: changes the licence total (never below the devices in use), the interval (from the
   * next period), the payment method, or cancels / resumes at the end of the period.
   * @throws 404 without a subscription, 400 for too few licences, 409 for a cancelled one.
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
        await this.requireCoversDevices(tx.db, companyId, patch.licences);
        await provider.changeLicences(tx, buyer, subscription, patch.licences);
      }
      if (patch.interval !== undefined) await provider.changeInterval(tx, subscription, patch.interval);
      if (patch.paymentMethod !== undefined && patch.paymentMethod !== subscription.paymentMethod) {
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

  private async requireCoversDevices(db: Db, companyId: string, licences: number) {
    const devices = await repo.countDevices(db, companyId);
    if (licences < devices) {
      const message = belowDevicesMessage(devices);
      const reason = { code: 'licences_below_devices' as const, params: { devices } };
      throw badRequest(message, [{ field: 'body.licences', message, ...reason }], reason);
    }
  }
}
