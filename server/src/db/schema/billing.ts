/**
 * Subscriptions, invoices and processed payment-provider events (spec §3 "Subscription", §4).
 * One subscription per company; no row = no subscription. Money in cents, net.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';

/** The seller as printed on an invoice (BILLING_SELLER_* when it was issued). */
export interface InvoiceSeller {
  name: string;
  /** Address lines, e.g. `['Musterstraße 1', '12345 Musterstadt']`. */
  address: string[];
  vatId?: string;
  taxNumber?: string;
  /** IBAN without spaces. */
  iban?: string;
  bic?: string;
  bank?: string;
}

/** The buyer as printed on an invoice: the company's billing address, or its name alone. */
export interface InvoiceBuyer {
  name: string;
  /** Street, postcode and city, country: empty without a billing address. */
  address: string[];
  vatId?: string;
  email: string;
}

const INTERVALS = ['monthly', 'yearly', '3yearly'] as const;
const METHODS = ['immediate', 'delayed', 'invoice'] as const;

export const subscriptions = pgTable('subscriptions', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['manual', 'stripe'] }).notNull(),
  interval: text('interval', { enum: INTERVALS }).notNull(),
  /** Interval from the next period on (a change takes effect then). */
  nextInterval: text('next_interval', { enum: INTERVALS }),
  licences: integer('licences').notNull(),
  status: text('status', { enum: ['pending', 'active', 'past_due', 'cancelled'] }).notNull(),
  paymentMethod: text('payment_method', { enum: METHODS }).notNull(),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /**
   * The checkout that set this subscription up and when it completed: `/success` shows its
   * thanks only for this id (a Stripe Checkout Session id, or ours).
   */
  checkoutId: text('checkout_id'),
  checkedOutAt: timestamp('checked_out_at', { withTimezone: true }),
  /** Stripe customer (`cus_…`) and subscription (`sub_…`) ids. */
  customerId: text('customer_id'),
  providerSubscriptionId: text('provider_subscription_id').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Invoice numbers `HP-<year>-<n>`: gap-free enough for bookkeeping, unique for sure. */
export const invoiceNumbers = pgSequence('invoice_number_seq', { startWith: 1 });

/**
 * Invoices of the manual provider (Stripe keeps its own). Immutable once issued: a trigger
 * (migration 0011) refuses changes to anything but the payment state.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** What it bills: the first period, a renewal, or licences added within a period. */
    reason: text('reason', { enum: ['checkout', 'renewal', 'licences'] }).notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    interval: text('interval', { enum: INTERVALS }).notNull(),
    licences: integer('licences').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    netCents: integer('net_cents').notNull(),
    currency: text('currency').notNull(),
    paymentMethod: text('payment_method', { enum: METHODS }).notNull(),
    /** Buyer and seller as printed, so a later rename does not change an issued invoice. */
    billedTo: text('billed_to').notNull(),
    seller: text('seller').notNull(),
    /**
     * The same in parts (§14 Abs. 4 UStG: names, addresses, VAT ID or tax number, the account
     * to pay to), and the VAT charged; null on invoices issued before VAT was itemised.
     */
    sellerDetails: jsonb('seller_details').$type<InvoiceSeller>(),
    buyerDetails: jsonb('buyer_details').$type<InvoiceBuyer>(),
    vatPercent: numeric('vat_percent', { precision: 5, scale: 2, mode: 'number' }),
    vatCents: integer('vat_cents'),
    grossCents: integer('gross_cents'),
    status: text('status', { enum: ['open', 'paid'] }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [index('invoices_company_issued_idx').on(t.companyId, t.issuedAt)],
);

/** Webhook events already applied, by the provider's event id: a replay is ignored. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().default(sql`now()`),
});
