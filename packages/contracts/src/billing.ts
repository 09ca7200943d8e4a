/**
 * Subscriptions and device licences (spec §1 "device licences billed by subscription", §3
 * "Subscription", §4 payment methods). Money is in the currency's minor unit (cents).
 * Prices are **net** (spec §1 "All prices shown are net prices"); the quote and the invoices add
 * VAT at BILLING_VAT_PERCENT for what is actually charged. Totals come from the server.
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

/**
 * Most licences one subscription may hold (a typo guard, not a business limit). One order is
 * limited further by the server's BILLING_MAX_LICENCES_PER_ORDER (`maxLicencesPerOrder` of the
 * overview): a checkout's licences, or the licences a change adds.
 */
export const MAX_LICENCES = 100_000;
export const LicencesSchema = z.number().int().min(1).max(MAX_LICENCES);

/**
 * Net price of one licence per interval, in cents, the currency (ISO 4217) and the VAT rate in
 * percent (e.g. 19) that is added to what is charged.
 */
export const PricesSchema = z.object({
  currency: z.string().length(3),
  perLicence: z.object({ monthly: z.number().int(), yearly: z.number().int(), '3yearly': z.number().int() }),
  vatPercent: z.number(),
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
  /**
   * Licences in use: every registered device and every enabled QR code needs one, so this is
   * the larger of `deviceCount` and `qrCodeCount` — the floor below which licences cannot be
   * removed ("remove unused licences" lowers the total to it, at least 1).
   */
  usedLicences: z.number().int(),
  unitCount: z.number().int(),
  deviceCount: z.number().int(),
  /** Enabled QR codes of the company's units. */
  qrCodeCount: z.number().int(),
  /** Most licences one order may buy: a checkout's total, or what a change adds. */
  maxLicencesPerOrder: z.number().int(),
  /** Whether a billing address is kept (`PUT …/billing/address`); paying by invoice needs one. */
  hasBillingAddress: z.boolean(),
  /** When the running subscription's checkout completed; null without one (or not known yet). */
  checkedOutAt: z.iso.datetime().nullable(),
  paymentMethod: PaymentMethodSchema.nullable(),
  currentPeriodEnd: z.iso.datetime().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  prices: PricesSchema,
  /** Net total per interval for the current licences, in cents; null without a subscription. */
  netTotal: z.number().int().nullable(),
});
export type BillingOverview = z.infer<typeof BillingOverviewSchema>;

/**
 * `POST /api/companies/{companyId}/billing/quote`: what ordering `licences` (the new total)
 * costs, computed by the server — everything the confirmation dialog shows. Without a running
 * subscription it prices a checkout in `interval` (required then); with one it prices the change
 * of the licence total, prorated in the subscription's own interval (`interval` may be left out;
 * an interval change only takes effect with the next period and costs nothing now).
 * @throws 400 `licence_order_too_large`, `licences_below_devices`, `licences_below_qr_codes`
 *   exactly as the order itself would.
 */
export const QuoteRequestSchema = z.object({
  interval: BillingIntervalSchema.optional(),
  licences: LicencesSchema,
});
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;
export const QuoteSchema = z.object({
  /** `checkout`: a new subscription; `change`: a new licence total of the running one. */
  kind: z.enum(['checkout', 'change']),
  currency: z.string(),
  interval: BillingIntervalSchema,
  /** The licence total after the order. */
  licences: z.number().int(),
  /** Licences before the order: null for a checkout. */
  currentLicences: z.number().int().nullable(),
  /** Licences billed now: all for a checkout, the added ones for a change (0 for a reduction). */
  billedLicences: z.number().int(),
  /** Net price of one licence per interval, in cents. */
  perLicence: z.number().int(),
  /** Net price per interval of all `licences` from the next period on, in cents. */
  netTotal: z.number().int(),
  /** The same with VAT, in cents. */
  grossTotal: z.number().int(),
  /** Period the amount below pays for: the first period, or now until the period's end. */
  periodStart: z.iso.datetime(),
  periodEnd: z.iso.datetime(),
  /**
   * For a change: net amount for the added licences over the rest of the period, in cents
   * (`billedLicences × perLicence × share of the period left`, rounded); null for a checkout.
   * Removed licences are not refunded.
   */
  proratedAmount: z.number().int().nullable(),
  /** Net amount charged now, in cents (the first period, or `proratedAmount`). */
  netAmount: z.number().int(),
  /** VAT rate in percent (BILLING_VAT_PERCENT). */
  vatPercent: z.number(),
  /** VAT on `netAmount`, in cents, rounded half up. */
  vatAmount: z.number().int(),
  /** `netAmount + vatAmount`: the gross amount charged now, in cents. */
  grossAmount: z.number().int(),
});
export type Quote = z.infer<typeof QuoteSchema>;

/** `POST /api/companies/{companyId}/billing/checkout`: starts a subscription. */
export const CheckoutRequestSchema = z.object({
  interval: BillingIntervalSchema,
  licences: LicencesSchema,
  paymentMethod: PaymentMethodSchema,
});
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;
/**
 * Where the browser goes next — Stripe's hosted checkout, or the app's `/success` page — and
 * the id under which `GET …/billing/checkout/{checkoutId}` confirms the checkout. The web keeps
 * `checkoutId` (Stripe also puts it in the return URL as `session_id`) and shows `/success` only
 * for a confirmed one.
 */
export const CheckoutResponseSchema = z.object({ redirectUrl: z.string(), checkoutId: z.string() });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** Ids the checkout confirmation accepts: ours (UUIDs) and Stripe's (`cs_…`). */
export const CheckoutIdSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * `GET /api/companies/{companyId}/billing/checkout/{checkoutId}`: whether that checkout of this
 * company completed — a subscription was set up (with `delayed` it stays `pending` until paid).
 * An id that is not this company's latest checkout answers 404 `checkout_unknown`.
 */
export const CheckoutStatusSchema = z.object({
  checkoutId: z.string(),
  /** True once the subscription is set up; false while the hosted checkout is still open. */
  completed: z.boolean(),
  /** The state of the subscription this checkout set up (`pending` until recorded or paid). */
  status: SubscriptionStatusSchema,
  /** How it is paid; null until the subscription is recorded (Stripe: its webhook arrived). */
  paymentMethod: PaymentMethodSchema.nullable(),
});
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;

/**
 * `PATCH /api/companies/{companyId}/billing/subscription`: change the licence total (never below
 * the licences in use, adding at most `maxLicencesPerOrder`), the interval (from the next period on), how future invoices are paid,
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
  /** VAT and gross amount in cents; null on invoices issued before VAT was itemised. */
  vatAmount: z.number().int().nullable(),
  grossAmount: z.number().int().nullable(),
  currency: z.string(),
  status: InvoiceStatusSchema,
  dueAt: z.iso.datetime().nullable(),
  pdfUrl: z.string().nullable(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;
export const InvoiceListSchema = z.object({ results: z.array(InvoiceSchema) });

/** `POST /api/companies/{companyId}/billing/portal`: the provider's page for payment details. */
export const PortalResponseSchema = z.object({ url: z.string() });

/**
 * The company's billing address, printed on its invoices (§14 Abs. 4 Nr. 1 UStG: the buyer's
 * full name and address). `country` is ISO 3166-1 alpha-2; `vatId` the buyer's VAT
 * identification number, optional.
 */
export const BillingAddressSchema = z.object({
  name: z.string(),
  street: z.string(),
  postcode: z.string(),
  city: z.string(),
  country: z.string(),
  vatId: z.string().nullable(),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

/** Trimmed text without control characters (PostgreSQL `text` cannot hold NUL). */
const addressText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^\P{Cc}*$/u, 'must not contain control characters');

/** `PUT /api/companies/{companyId}/billing/address` body (admins): every field but `vatId` required. */
export const BillingAddressInputSchema = z.object({
  name: addressText(200),
  street: addressText(200),
  postcode: addressText(20),
  city: addressText(100),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE'),
  /** Spaces, dots and dashes are dropped and letters upper-cased; empty or absent = none. */
  vatId: z
    .string()
    .nullish()
    .transform((value) => (value ?? '').replace(/[\s.-]/g, '').toUpperCase() || null)
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{2}[0-9A-Z+*]{2,12}$/, 'must be a VAT ID such as DE123456789')
        .nullable(),
    ),
});
export type BillingAddressInput = z.input<typeof BillingAddressInputSchema>;

/** `GET|PUT …/billing/address` answer: the kept address, or null while none is kept. */
export const BillingAddressResponseSchema = z.object({ address: BillingAddressSchema.nullable() });
export type BillingAddressResponse = z.infer<typeof BillingAddressResponseSchema>;
