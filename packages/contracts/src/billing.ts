/**
 * Subscriptions and device licences (spec §1 "device licences billed by subscription", §3
 * "Subscription", §4 payment methods; issue 13). Money is in the currency's minor unit (cents)
 * and always **net** (spec §1 "All prices shown are net prices"); totals come from the server.
 */
import { z } from 'zod';

/** Billing intervals of spec §9. */
export const BillingIntervalSchema = z.enum(['monthly', 'yearly', '3yearly']);
export type BillingInterval = z.infer<typeof BillingIntervalSchema>;

/**
 * Payment methods of spec §4: `immediate` (usable at once), `delayed` (usable once the payment
 * is processed; pending until then), `invoice` (payment details by email; usable at once).
 */
export const PaymentMethodSchema = z.enum(['immediate', 'delayed', 'invoice']);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** Internal subscription states; the web words what they mean instead of showing them (spec §4). */
export const SubscriptionStatusSchema = z.enum(['none', 'pending', 'active', 'past_due', 'cancelled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

/** Which provider bills (BILLING_PROVIDER): `none` means unlimited licences and no billing screens. */
export const BillingProviderSchema = z.enum(['manual', 'stripe', 'none']);
export type BillingProvider = z.infer<typeof BillingProviderSchema>;

/** Most licences one subscription may hold (a typo guard, not a business limit). */
export const MAX_LICENCES = 100_000;
export const LicencesSchema = z.number().int().min(1).max(MAX_LICENCES);

/** Net price of one licence per interval, in cents, and the currency (ISO 4217). */
export const PricesSchema = z.object({
  currency: z.string().length(3),
  perLicence: z.object({ monthly: z.number().int(), yearly: z.number().int(), '3yearly': z.number().int() }),
});
export type Prices = z.infer<typeof PricesSchema>;

/** `GET /api/companies/{companyId}/billing`: everything the billing screens and the navigation need. */
export const BillingOverviewSchema = z.object({
  provider: BillingProviderSchema,
  status: SubscriptionStatusSchema,
  interval: BillingIntervalSchema.nullable(),
  /** Interval from the next period on, when a change is scheduled. */
  nextInterval: BillingIntervalSchema.nullable(),
  /** Licences bought; null without a subscription (or unlimited with provider `none`). */
  licences: z.number().int().nullable(),
  /** Licences usable now (0 while pending or after cancellation); null = unlimited. */
  usableLicences: z.number().int().nullable(),
  /** Licences in use = registered devices. */
  usedLicences: z.number().int(),
  unitCount: z.number().int(),
  deviceCount: z.number().int(),
  paymentMethod: PaymentMethodSchema.nullable(),
  currentPeriodEnd: z.iso.datetime().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  prices: PricesSchema,
  /** Net total per interval for the current licences, in cents; null without a subscription. */
  netTotal: z.number().int().nullable(),
});
export type BillingOverview = z.infer<typeof BillingOverviewSchema>;

/** `POST /api/companies/{companyId}/billing/quote`: net price of a choice, computed by the server. */
export const QuoteRequestSchema = z.object({ interval: BillingIntervalSchema, licences: LicencesSchema });
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;
export const QuoteSchema = z.object({
  currency: z.string(),
  interval: BillingIntervalSchema,
  licences: z.number().int(),
  perLicence: z.number().int(),
  netTotal: z.number().int(),
});
export type Quote = z.infer<typeof QuoteSchema>;

/** `POST /api/companies/{companyId}/billing/checkout`: starts a subscription. */
export const CheckoutRequestSchema = z.object({
  interval: BillingIntervalSchema,
  licences: LicencesSchema,
  paymentMethod: PaymentMethodSchema,
});
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;
/** Where the browser goes next: Stripe's hosted checkout, or the app's `/success` page. */
export const CheckoutResponseSchema = z.object({ redirectUrl: z.string() });

/**
 * `PATCH /api/companies/{companyId}/billing/subscription`: change the licence total (never below
 * the licences in use), the interval (from the next period on), how future invoices are paid,
 * or cancel / resume at period end.
 */
export const SubscriptionPatchSchema = z
  .object({
    licences: LicencesSchema,
    interval: BillingIntervalSchema,
    paymentMethod: PaymentMethodSchema,
    cancelAtPeriodEnd: z.boolean(),
  })
  .partial();
export type SubscriptionPatch = z.infer<typeof SubscriptionPatchSchema>;

export const InvoiceStatusSchema = z.enum(['open', 'paid', 'void', 'uncollectible', 'draft']);
/** One invoice: `pdfUrl` is the app's PDF download (manual) or Stripe's hosted PDF. */
export const InvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  issuedAt: z.iso.datetime(),
  netAmount: z.number().int(),
  currency: z.string(),
  status: InvoiceStatusSchema,
  dueAt: z.iso.datetime().nullable(),
  pdfUrl: z.string().nullable(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;
export const InvoiceListSchema = z.object({ results: z.array(InvoiceSchema) });

/** `POST /api/companies/{companyId}/billing/portal`: the provider's page for payment details. */
export const PortalResponseSchema = z.object({ url: z.string() });
