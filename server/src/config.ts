/**
 * Every environment variable Heizplan reads, parsed once with zod (ARCHITECTURE.md §3).
 * `loadConfig` throws a `ConfigError` naming each bad variable, so a misconfigured
 * deployment fails at start instead of at the first request. The README's configuration
 * table documents the same keys; keep both in step.
 */
import path from 'node:path';
import { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };

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
  LORAWAN_NS: z.enum(['chirpstack', 'tts']).default('chirpstack'),
  CHIRPSTACK_APPLICATION_ID: z.string().min(1).default('heizplan'),
  TTS_APP_ID: z.string().min(1).default('heizplan'),
  TTS_TENANT: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  DEMO: boolish.optional(),
  TRUST_PROXY: trustProxy.default(false),
  DEVICE_KEY_SECRET: deviceKeySecret.optional(),
  AGREEMENT_VERSION_AVV: agreementVersion,
  AGREEMENT_VERSION_LICENSE: agreementVersion,
  AGREEMENT_VERSION_PRIVACY: agreementVersion,
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
  lorawan: {
    networkServer: 'chirpstack' | 'tts';
    /** MQTT client id of the persistent ingest session (≤ 23 characters for MQTT 3.1.1). */
    clientId: string;
    username?: string;
    password?: string;
    /** ChirpStack application that downlinks are enqueued in. */
    chirpstackApplicationId: string;
    ttsAppId: string;
    /** undefined for The Things Stack Open Source (topics without `@tenant`). */
    ttsTenant?: string;
  };
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
  version: string;
}

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
  const dataDir = path.resolve(e.DATA_DIR);
  return {
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
    lorawan: {
      networkServer: e.LORAWAN_NS,
      clientId: e.MQTT_CLIENT_ID,
      username: e.MQTT_USERNAME,
      password: e.MQTT_PASSWORD,
      chirpstackApplicationId: e.CHIRPSTACK_APPLICATION_ID,
      ttsAppId: e.TTS_APP_ID,
      ttsTenant: e.TTS_TENANT,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    demo: e.DEMO,
    trustProxy: e.TRUST_PROXY,
    deviceKey: e.DEVICE_KEY_SECRET,
    agreements: {
      avv: e.AGREEMENT_VERSION_AVV,
      license: e.AGREEMENT_VERSION_LICENSE,
      privacy: e.AGREEMENT_VERSION_PRIVACY,
    },
    version: packageVersion,
  };
}

const packageVersion: string = pkg.version;
