/**
 * Every environment variable Heizplan reads, parsed once with zod (docs/architecture.md).
 * `loadConfig` throws a `ConfigError` naming each bad variable, so a misconfigured
 * deployment fails at start instead of at the first request. The README's configuration
 * table documents the same keys; keep both in step.
 */
import path from 'node:path';
import { MAX_LICENCES } from '@heizplan/contracts/billing';
import { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };
import type { InvoiceSeller } from './db/schema/billing.ts';
import { airtimeBudgetMs } from './lorawan/airtime.ts';

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Version number of a legal document; bumping it makes every company accept again. */
const agreementVersion = z.coerce.number().int().min(1).default(1);

/** AppKey encryption key: 32 bytes as 64 hex digits or base64 (`openssl rand -hex 32`). */
const deviceKeySecret = z.string().transform((value, ctx) => {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
  ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64' });
  return z.NEVER;
});

/**
 * Which proxies may set X-Forwarded-For (Fastify `trustProxy`): `false` (default: the socket's
 * address is the client, so nobody can fake an IP to get around per-IP limits), `true` (every
 * hop — only behind a proxy that overwrites the header), a hop count, or IPs/CIDRs separated by
 * commas.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): boolean | number | string[] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every((entry) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) return entries;
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count or IPs/CIDRs separated by commas',
    });
    return z.NEVER;
  });

/** A VAT rate in percent like `19` or `7.5` (a dot, at most two decimals). */
const percent = z
  .string()
  .regex(/^(100|\d{1,2}(\.\d{1,2})?)$/, 'must be a percentage from 0 to 100 like 19 or 7.5')
  .transform(Number);

/** Optional text: empty counts as unset (an `.env` line `X=` leaves it out). */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

/** An IBAN with or without spaces, checked by its ISO 13616 mod-97 check digits → without spaces. */
const iban = z
  .string()
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .refine(
    (value) => /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value) && ibanChecksumValid(value),
    'must be a valid IBAN such as DE89 3704 0044 0532 0130 00',
  );

function ibanChecksumValid(value: string): boolean {
  const digits = [...`${value.slice(4)}${value.slice(0, 4)}`]
    .map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/** A net price like `4.90` (a dot, at most two decimals) → cents. */
const price = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, 'must be a net price like 4.90')
  .transform((value) => Math.round(Number(value) * 100));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_AUDIENCE: z.string().min(1).default('heizplan-api'),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// URL')
    .optional(),
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  MQTT_CLIENT_ID: z.string().min(1).max(23).default('heizplan'),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[^/+#]*$/, 'must not contain /, + or #')
    .optional(),
  INSTANCES: z.coerce.number().int().min(1).max(99).default(1),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (openssl rand -hex 32)').optional(),
  LORAWAN_NS: z.enum(['chirpstack', 'tts']).default('chirpstack'),
  AIRTIME_BUDGET_S: z.coerce.number().min(1).max(86_400).optional(),
  CHIRPSTACK_APPLICATION_ID: z.string().min(1).default('heizplan'),
  TTS_APP_ID: z.string().min(1).default('heizplan'),
  TTS_TENANT: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  DEMO: boolish.optional(),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(400),
  TELEMETRY_RETENTION_MONTHS: z.coerce.number().int().min(1).max(240).default(13),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(600),
  WEATHER_PROVIDER: z.enum(['brightsky', 'open-meteo', 'none']).default('brightsky'),
  WEATHER_URL: z.url().optional(),
  OPEN_METEO_API_KEY: z.string().min(1).optional(),
  TRUST_PROXY: trustProxy.default(false),
  DEVICE_KEY_SECRET: deviceKeySecret.optional(),
  AGREEMENT_VERSION_AVV: agreementVersion,
  AGREEMENT_VERSION_LICENSE: agreementVersion,
  AGREEMENT_VERSION_PRIVACY: agreementVersion,
  BILLING_PROVIDER: z.enum(['manual', 'stripe', 'none']).default('manual'),
  BILLING_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')
    .default('EUR'),
  PRICE_MONTHLY: price.default(490),
  PRICE_YEARLY: price.default(4900),
  PRICE_3YEARLY: price.default(12900),
  INVOICE_DUE_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  BILLING_SELLER: z.string().min(1).max(500).default('Heizplan'),
  BILLING_SELLER_NAME: optionalText(200),
  BILLING_SELLER_ADDRESS: optionalText(500),
  BILLING_SELLER_VAT_ID: optionalText(20)
    .transform((value) => value?.replace(/\s+/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{2}[0-9A-Z+*]{2,12}$/, 'must be a VAT ID such as DE123456789')
        .optional(),
    ),
  BILLING_SELLER_TAX_NUMBER: optionalText(30),
  BILLING_SELLER_IBAN: optionalText(50).pipe(iban.optional()),
  BILLING_SELLER_BIC: optionalText(11)
    .transform((value) => value?.toUpperCase())
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'must be a BIC of 8 or 11 characters')
        .optional(),
    ),
  BILLING_SELLER_BANK: optionalText(200),
  BILLING_VAT_PERCENT: percent.default(19),
  BILLING_MAX_LICENCES_PER_ORDER: z.coerce.number().int().min(1).max(MAX_LICENCES).default(1000),
  OPERATOR_TOKEN: z.string().min(24, 'must have at least 24 characters').optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_3YEARLY: z.string().min(1).optional(),
  STRIPE_API_URL: z.url().optional(),
  ALERT_EVALUATION_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  WEBHOOKS_ALLOW_HTTP: boolish.default(false),
  WEBHOOKS_ALLOW_PRIVATE: boolish.default(false),
  FEEDS_ALLOW_PRIVATE: boolish.default(false),
  SUPPORT_EMAIL: z.email().optional(),
  SUPPORT_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Who runs this installation, for the Impressum (§ 5 DDG) and the legal pages.
  OPERATOR_NAME: optionalText(200),
  OPERATOR_ADDRESS: optionalText(500),
  OPERATOR_EMAIL: z.email().optional(),
  OPERATOR_PHONE: optionalText(50),
  OPERATOR_REPRESENTATIVE: optionalText(200),
  OPERATOR_REGISTER: optionalText(200),
  OPERATOR_VAT_ID: optionalText(20),
  SENTRY_DSN: z.url({ protocol: /^https?$/ }).optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Base URL the browser uses, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  /** Absolute path of the folder holding embedded-mode state (PGlite data, outbox, keys). */
  dataDir: string;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Folder of the built web app; served with SPA fallback when it exists. */
  webDist: string;
  oidc: { issuer?: string; clientId?: string; audience: string };
  /** Broker of the LoRaWAN network server; undefined = start the embedded broker. */
  mqttUrl?: string;
  /**
   * How many server instances share this deployment's database and broker (INSTANCES). Above 1
   * the embedded database and broker are refused; see docs/decisions/0032.
   */
  instances: number;
  lorawan: {
    networkServer: 'chirpstack' | 'tts';
    /**
     * Each device's daily airtime budget, ms (lorawan/airtime.ts): AIRTIME_BUDGET_S, else
     * The Things Network's fair use (30 s) with LORAWAN_NS=tts and the 1 % duty cycle otherwise.
     */
    airtimeBudgetMs: number;
    /**
     * Base of the MQTT client ids of the persistent ingest sessions: the id itself for a plain
     * subscription, `<id>-<n>` for the n-th member of a shared subscription (≤ 23 characters).
     */
    clientId: string;
    /**
     * Shared-subscription group (`$share/<group>/…`) the instances spread uplinks over, only when
     * MQTT_SHARE_GROUP sets it; undefined = one plain persistent session, one instance consuming
     * at a time and the others standing by.
     */
    shareGroup?: string;
    username?: string;
    password?: string;
    /** ChirpStack application that downlinks are enqueued in. */
    chirpstackApplicationId: string;
    ttsAppId: string;
    /** undefined for The Things Stack Open Source (topics without `@tenant`). */
    ttsTenant?: string;
  };
  /** Bearer token `/metrics` requires; undefined = open (development). */
  metricsToken?: string;
  smtpUrl?: string;
  /** Sender of outgoing mail, e.g. `Heizplan <no-reply@example.com>`. */
  mailFrom?: string;
  /** Proxies whose X-Forwarded-For is believed (see TRUST_PROXY); false = none. */
  trustProxy: boolean | number | string[];
  /** Start the demo company and device simulator; undefined = only when the DB is empty. */
  demo?: boolean;
  /** AES-256 key for device AppKeys; unset = generated once in `$DATA_DIR/device-key`. */
  deviceKey?: Buffer;
  /**
   * Current versions of the data-processing agreement (AVV), licence terms and privacy
   * policy; a company whose accepted version differs is sent back to setup step 3.
   */
  agreements: { avv: number; license: number; privacy: number };
  billing: BillingConfig;
  alerts: {
    /** Seconds between two evaluations of the time-based alert conditions. */
    evaluationSeconds: number;
    /** Accept http:// webhook endpoints (development and tests only; production needs https). */
    webhooksAllowHttp: boolean;
    /** Webhook endpoints on loopback, link-local, private or unique-local addresses are allowed. */
    webhooksAllowPrivate: boolean;
  };
  /** Booking feeds (decision 0053). */
  feeds: {
    /**
     * Feed URLs on loopback, link-local, private or unique-local addresses are fetched; off, only
     * public addresses and the app's own origin (PUBLIC_URL, e.g. the demo's calendar) are.
     */
    allowPrivate: boolean;
  };
  /**
   * Outdoor temperature per building (decision 0057): the provider, its API base (default the
   * public instance) and Open-Meteo's key (its customer API, for commercial use).
   */
  weather: { provider: 'brightsky' | 'open-meteo' | 'none'; url: string; apiKey?: string };
  /** Requests per minute one company API token may make (decision 0058). */
  apiTokenRateLimit: number;
  /** Days the audit log keeps an entry (decision 0059). */
  auditRetentionDays: number;
  /** Full months of raw telemetry kept before the current one; rollups stay (decision 0061). */
  telemetryRetentionMonths: number;
  /** Bearer token of the operator-only API; unset = generated once in `$DATA_DIR/operator-token`. */
  operatorToken?: string;
  /** Where operators get help, shown on settings → help (both optional). */
  support: { email?: string; url?: string };
  /**
   * Who runs this installation, named by the Impressum and the legal pages (OPERATOR_*; name,
   * address and VAT ID fall back to the invoices' seller when BILLING_SELLER_* sets them).
   */
  operator: OperatorDetails;
  /** Sentry project of the server and the web app; unset = errors go to the server's log only. */
  sentry: { dsn?: string };
  version: string;
}

/** The provider of the installation as the Impressum names it (§ 5 DDG); every field optional. */
export interface OperatorDetails {
  name?: string;
  /** Lines of the postal address. */
  address: string[];
  email?: string;
  phone?: string;
  /** Who may represent the operator (Vertretungsberechtigte), for a company. */
  representative?: string;
  /** Register court and number, e.g. "Amtsgericht München, HRB 123456". */
  register?: string;
  vatId?: string;
}

/** Subscriptions and licences: which provider bills and the net prices it charges. */
export interface BillingConfig {
  provider: 'manual' | 'stripe' | 'none';
  currency: string;
  /** Net price of one licence per interval, in cents. */
  prices: { monthly: number; yearly: number; '3yearly': number };
  /** Days an invoice of the `invoice` payment method may be paid in. */
  invoiceDueDays: number;
  /** The seller as printed on invoices (§14 Abs. 4 Nr. 1, 2 UStG) with the account to pay to. */
  seller: SellerDetails;
  /** VAT rate in percent added to net amounts on quotes and invoices (BILLING_VAT_PERCENT). */
  vatPercent: number;
  /** Most licences one order may buy: a checkout's, or what a change adds. */
  maxLicencesPerOrder: number;
  stripe?: {
    secretKey: string;
    webhookSecret: string;
    prices: { monthly: string; yearly: string; '3yearly': string };
    /** API base of a stand-in (tests, stripe-mock); unset = api.stripe.com. */
    apiUrl?: string;
  };
}

/**
 * The seller of the licences: name and postal address, VAT ID or tax number, and the bank
 * account that invoices are paid to. BILLING_SELLER (lines separated by `;` or newlines) still
 * works: its first line is the name and the rest the address, unless the new variables are set.
 */
export type SellerDetails = InvoiceSeller;

export class ConfigError extends Error {
  constructor(public readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` (normally `process.env`) into a `Config`.
 * @throws ConfigError listing every invalid variable by name.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ variable: String(i.path[0]), message: i.message })),
    );
  }
  const e = parsed.data;
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    // The web app needs its client id at the external issuer to sign in at all.
    throw new ConfigError([{ variable: 'OIDC_CLIENT_ID', message: 'required when OIDC_ISSUER is set' }]);
  }
  // Opt-in only, whatever INSTANCES says: see `configWarnings`.
  const shareGroup = e.MQTT_URL ? e.MQTT_SHARE_GROUP || undefined : undefined;
  const clusterIssues = clusterRefusals(e, shareGroup);
  if (clusterIssues.length > 0) throw new ConfigError(clusterIssues);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    billing: billingConfig(e),
    alerts: {
      evaluationSeconds: e.ALERT_EVALUATION_SECONDS,
      webhooksAllowHttp: e.WEBHOOKS_ALLOW_HTTP,
      webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    },
    feeds: { allowPrivate: e.FEEDS_ALLOW_PRIVATE },
    apiTokenRateLimit: e.API_TOKEN_RATE_LIMIT,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    telemetryRetentionMonths: e.TELEMETRY_RETENTION_MONTHS,
    weather: {
      provider: e.WEATHER_PROVIDER,
      url:
        e.WEATHER_URL ??
        (e.WEATHER_PROVIDER === 'open-meteo'
          ? e.OPEN_METEO_API_KEY
            ? 'https://customer-api.open-meteo.com'
            : 'https://api.open-meteo.com'
          : 'https://api.brightsky.dev'),
      ...(e.OPEN_METEO_API_KEY ? { apiKey: e.OPEN_METEO_API_KEY } : {}),
    },
    operatorToken: e.OPERATOR_TOKEN,
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    oidc: { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, audience: e.OIDC_AUDIENCE },
    mqttUrl: e.MQTT_URL,
    instances: e.INSTANCES,
    lorawan: {
      networkServer: e.LORAWAN_NS,
      airtimeBudgetMs: airtimeBudgetMs(e.LORAWAN_NS, e.AIRTIME_BUDGET_S),
      clientId: e.MQTT_CLIENT_ID,
      shareGroup,
      username: e.MQTT_USERNAME,
      password: e.MQTT_PASSWORD,
      chirpstackApplicationId: e.CHIRPSTACK_APPLICATION_ID,
      ttsAppId: e.TTS_APP_ID,
      ttsTenant: e.TTS_TENANT,
    },
    metricsToken: e.METRICS_TOKEN,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    // The demo's simulator runs in the process that seeded it; several instances would each run one.
    demo: e.INSTANCES > 1 ? false : e.DEMO,
    trustProxy: e.TRUST_PROXY,
    deviceKey: e.DEVICE_KEY_SECRET,
    agreements: {
      avv: e.AGREEMENT_VERSION_AVV,
      license: e.AGREEMENT_VERSION_LICENSE,
      privacy: e.AGREEMENT_VERSION_PRIVACY,
    },
    support: { email: e.SUPPORT_EMAIL, url: e.SUPPORT_URL },
    operator: operatorDetails(e),
    sentry: { dsn: e.SENTRY_DSN },
    version: packageVersion,
  };
}

/** @throws ConfigError naming the Stripe variables BILLING_PROVIDER=stripe needs but lacks. */
function billingConfig(e: z.infer<typeof envSchema>): BillingConfig {
  const stripeKeys = {
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_MONTHLY: e.STRIPE_PRICE_MONTHLY,
    STRIPE_PRICE_YEARLY: e.STRIPE_PRICE_YEARLY,
    STRIPE_PRICE_3YEARLY: e.STRIPE_PRICE_3YEARLY,
  };
  const missing = Object.entries(stripeKeys).filter(([, value]) => !value);
  if (e.BILLING_PROVIDER === 'stripe' && missing.length > 0) {
    throw new ConfigError(
      missing.map(([variable]) => ({ variable, message: 'required when BILLING_PROVIDER=stripe' })),
    );
  }
  return {
    provider: e.BILLING_PROVIDER,
    currency: e.BILLING_CURRENCY,
    prices: { monthly: e.PRICE_MONTHLY, yearly: e.PRICE_YEARLY, '3yearly': e.PRICE_3YEARLY },
    invoiceDueDays: e.INVOICE_DUE_DAYS,
    seller: sellerDetails(e),
    vatPercent: e.BILLING_VAT_PERCENT,
    maxLicencesPerOrder: e.BILLING_MAX_LICENCES_PER_ORDER,
    ...(e.BILLING_PROVIDER === 'stripe'
      ? {
          stripe: {
            secretKey: e.STRIPE_SECRET_KEY as string,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET as string,
            prices: {
              monthly: e.STRIPE_PRICE_MONTHLY as string,
              yearly: e.STRIPE_PRICE_YEARLY as string,
              '3yearly': e.STRIPE_PRICE_3YEARLY as string,
            },
            apiUrl: e.STRIPE_API_URL,
          },
        }
      : {}),
  };
}

/**
 * What the configuration allows but an operator should know, for the log at start (`main.ts`);
 * unlike a `ConfigError` none of these stops the server.
 *
 * A shared subscription (MQTT_SHARE_GROUP) loses uplinks across a broker restart: Mosquitto
 * 2.0.11 brings the group back without a subscribed member, so what the network server publishes
 * between the broker's restart and Heizplan's re-subscribe is dropped, while a plain persistent
 * session queues it (measured, docs/decisions/0034). Hence the group is never a default. (The
 * Things Stack's MQTT server has no shared subscriptions at all: TTS docs, "MQTT Server".)
 */
export function configWarnings(config: Config): { variable: string; message: string }[] {
  const warnings: { variable: string; message: string }[] = billingWarnings(config);
  const { operator } = config;
  if (config.env === 'production' && (!operator.name || operator.address.length === 0 || !operator.email)) {
    warnings.push({
      variable: 'OPERATOR_NAME',
      message:
        'the Impressum and the privacy notice name no operator: set OPERATOR_NAME, OPERATOR_ADDRESS and ' +
        'OPERATOR_EMAIL (a provider in Germany must name itself, § 5 DDG)',
    });
  }
  if (config.lorawan.shareGroup) {
    warnings.push({
      variable: 'MQTT_SHARE_GROUP',
      message:
        `uplinks are taken through the shared subscription $share/${config.lorawan.shareGroup}/…: ` +
        'uplinks the network server publishes while the broker restarts can be lost (Mosquitto 2); ' +
        'leave MQTT_SHARE_GROUP empty for one plain persistent session, which loses none',
    });
  }
  return warnings;
}

/** Splits `;`- or newline-separated lines, dropping empty ones. */
const lines = (text: string | undefined) =>
  (text ?? '')
    .split(/\s*[;\n]\s*/)
    .map((line) => line.trim())
    .filter(Boolean);

/** OPERATOR_*, with the seller's name, address and VAT ID where BILLING_SELLER_* sets them. */
function operatorDetails(e: z.infer<typeof envSchema>): OperatorDetails {
  const address = lines(e.OPERATOR_ADDRESS);
  const sellerAddress = lines(e.BILLING_SELLER_ADDRESS);
  return {
    name: e.OPERATOR_NAME ?? e.BILLING_SELLER_NAME,
    address: address.length > 0 ? address : sellerAddress,
    email: e.OPERATOR_EMAIL,
    phone: e.OPERATOR_PHONE,
    representative: e.OPERATOR_REPRESENTATIVE,
    register: e.OPERATOR_REGISTER,
    vatId: e.OPERATOR_VAT_ID ?? e.BILLING_SELLER_VAT_ID,
  };
}

/** The BILLING_SELLER_* variables, falling back to BILLING_SELLER's lines for name and address. */
function sellerDetails(e: z.infer<typeof envSchema>): SellerDetails {
  const [legacyName = 'Heizplan', ...legacyAddress] = lines(e.BILLING_SELLER);
  const address = lines(e.BILLING_SELLER_ADDRESS);
  return {
    name: e.BILLING_SELLER_NAME ?? legacyName,
    address: address.length > 0 ? address : e.BILLING_SELLER_NAME ? [] : legacyAddress,
    vatId: e.BILLING_SELLER_VAT_ID,
    taxNumber: e.BILLING_SELLER_TAX_NUMBER,
    iban: e.BILLING_SELLER_IBAN,
    bic: e.BILLING_SELLER_BIC,
    bank: e.BILLING_SELLER_BANK,
  };
}

/**
 * A production server whose manual provider issues invoices without what §14 Abs. 4 UStG asks
 * of the seller (address, VAT ID or tax number) or without an account to pay them to.
 */
function billingWarnings(config: Config): { variable: string; message: string }[] {
  const { provider, seller } = config.billing;
  if (config.env !== 'production' || provider !== 'manual') return [];
  const warnings: { variable: string; message: string }[] = [];
  if (seller.address.length === 0) {
    warnings.push({
      variable: 'BILLING_SELLER_ADDRESS',
      message: 'unset: invoices lack the seller’s address (§14 UStG)',
    });
  }
  if (!seller.vatId && !seller.taxNumber) {
    warnings.push({
      variable: 'BILLING_SELLER_VAT_ID',
      message:
        'unset, and BILLING_SELLER_TAX_NUMBER too: invoices lack the seller’s VAT ID or tax number (§14 UStG)',
    });
  }
  if (!seller.iban) {
    warnings.push({
      variable: 'BILLING_SELLER_IBAN',
      message: 'unset: invoices paid by transfer name no account to pay to',
    });
  }
  return warnings;
}

/**
 * What a multi-instance deployment (INSTANCES > 1) cannot run on: PGlite and the embedded broker
 * live inside one process, a generated AppKey secret differs per instance, and the demo simulator
 * would run once per instance. Shared-subscription client ids get a `-<n>` suffix, so the base
 * id must leave room for it within MQTT 3.1.1's 23 characters.
 */
function clusterRefusals(
  e: z.infer<typeof envSchema>,
  shareGroup: string | undefined,
): { variable: string; message: string }[] {
  const issues: { variable: string; message: string }[] = [];
  if (shareGroup && e.MQTT_CLIENT_ID.length > 20) {
    issues.push({
      variable: 'MQTT_CLIENT_ID',
      message: 'at most 20 characters with a shared subscription (the instances add -<n>)',
    });
  }
  if (e.INSTANCES === 1) return issues;
  const why = `INSTANCES=${e.INSTANCES} needs it`;
  if (!e.DATABASE_URL) {
    issues.push({
      variable: 'DATABASE_URL',
      message: `${why}: the embedded database (PGlite) belongs to one process`,
    });
  }
  if (!e.MQTT_URL) {
    issues.push({ variable: 'MQTT_URL', message: `${why}: the embedded MQTT broker belongs to one process` });
  }
  if (!e.DEVICE_KEY_SECRET) {
    issues.push({
      variable: 'DEVICE_KEY_SECRET',
      message: `${why}: every instance must encrypt AppKeys with the same key`,
    });
  }
  if (e.DEMO === true) {
    issues.push({ variable: 'DEMO', message: `must be off with INSTANCES=${e.INSTANCES}` });
  }
  return issues;
}

const packageVersion: string = pkg.version;
