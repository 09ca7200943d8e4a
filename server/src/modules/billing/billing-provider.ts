/**
 * The port every payment provider implements (decision 0023): the billing service
 * checks access and the licence rules, the provider moves money and keeps the subscription row
 * in step with its own records. `manual` bills from this database without a network; `stripe`
 * through Stripe's API and webhooks.
 */
import type {
  BillingAddress,
  BillingInterval,
  CheckoutRequest,
  CheckoutResponse,
  Invoice,
  PaymentMethod,
} from '@heizplan/contracts/billing';
import type { Db } from '../../db/client.ts';
import type { SubscriptionRow } from './billing.repository.ts';

/**
 * A provider call's unit of work: `db` is the service's transaction (the company's subscription
 * row is locked); `afterCommit` runs work that must not happen if it rolls back, such as mail.
 */
export interface BillingTx {
  db: Db;
  afterCommit(task: () => Promise<void>): void;
}

/** Who is buying: the company, its name, its billing address and the admin's e-mail for mails. */
export interface Buyer {
  companyId: string;
  companyName: string;
  email: string;
  /** The kept billing address; null (or absent) while none is kept. */
  address?: BillingAddress | null;
}

export interface BillingProviderPort {
  /**
   * Starts a subscription. @returns where the browser goes next — a hosted checkout page or the
   * app's own `/success` page (path relative to PUBLIC_URL or an absolute URL) — and the id
   * `confirmCheckout` recognises.
   */
  checkout(tx: BillingTx, buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse>;
  /**
   * Whether checkout `checkoutId` of the company completed: true once the subscription is set
   * up, false while the customer has not finished paying; null when the id is not the
   * company's latest checkout.
   */
  confirmCheckout(
    tx: BillingTx,
    companyId: string,
    subscription: SubscriptionRow | undefined,
    checkoutId: string,
  ): Promise<boolean | null>;
  /** Sets the licence total (already checked against the devices in use). */
  changeLicences(tx: BillingTx, buyer: Buyer, subscription: SubscriptionRow, licences: number): Promise<void>;
  /** Changes the interval from the next period on. */
  changeInterval(tx: BillingTx, subscription: SubscriptionRow, interval: BillingInterval): Promise<void>;
  /** Cancels at the end of the period (`true`) or takes a cancellation back (`false`). */
  setCancelAtPeriodEnd(tx: BillingTx, subscription: SubscriptionRow, cancel: boolean): Promise<void>;
  /** Changes how future invoices are paid. */
  changePaymentMethod(tx: BillingTx, subscription: SubscriptionRow, method: PaymentMethod): Promise<void>;
  /** The company's invoices, newest first. */
  invoices(tx: BillingTx, companyId: string, subscription: SubscriptionRow | undefined): Promise<Invoice[]>;
  /** The provider's page for payment details (the manual provider's is the app's billing screen). */
  portalUrl(subscription: SubscriptionRow, returnUrl: string): Promise<string>;
}
