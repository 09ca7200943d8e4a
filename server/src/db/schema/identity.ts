/**
 * Embedded identity provider state (docs/architecture.md "identity provider"):
 * local sign-in accounts, the provider's signing/cookie keys, its artefacts (sessions,
 * grants, codes, refresh tokens, interactions) and brute-force counters. Unused when an
 * external issuer (OIDC_ISSUER) manages accounts. An account's id is the `sub` of its tokens
 * and therefore the id of its `users` row.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export const identityAccounts = pgTable(
  'identity_accounts',
  {
    id: text('id').primaryKey(),
    /** Stored as typed; uniqueness is case-insensitive (index on lower(email)). */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** `scrypt$N$r$p$salt$hash` (base64url), see auth/password.ts. */
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /**
     * Language of the pages the account was registered on; the ID token's `locale` claim, so the
     * app's setup preselects it instead of asking a German speaker in English.
     */
    lang: text('lang', { enum: ['de', 'en'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('identity_accounts_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** Keys the provider must keep across restarts: `jwks` (private signing JWKs) and `cookies`. */
export const identitySecrets = pgTable('identity_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** oidc-provider adapter storage, one row per (model kind, id); see auth/oidc-adapter.ts. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oidc_payloads_grant_id_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
  ],
);

/** Failed sign-ins per key (`account:<id>` or `ip:<address>`) for exponential backoff. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Single-use mail link tokens; only the SHA-256 of the token is stored. */
export const identityTokens = pgTable('identity_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: text('account_id')
    .notNull()
    .references(() => identityAccounts.id, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['verify-email', 'reset-password'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * A user's TOTP authenticator (RFC 6238, decision 0072): at most one per user. The base32 secret
 * is kept as is because every check recomputes codes from it. `confirmed_at` stays null while
 * the enrolment waits for its first code; only a confirmed one is asked for at sign-in.
 * `last_used_step` is the RFC 6238 time step of the last accepted code, so no code is taken twice.
 */
export const totpCredentials = pgTable('totp_credentials', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Single-use recovery codes of a user with a confirmed TOTP, ten per confirmation; only the
 * SHA-256 hex of the normalised code is stored. `used_at` marks a spent code.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/**
 * A user's passkeys (WebAuthn Level 2 public key credentials, decision 0074): the credential id
 * (base64url, unique across accounts, as the authenticator chose it), the COSE public key
 * (base64url), the signature counter of the last accepted assertion (§6.1.1: 0 when the
 * authenticator keeps none), the transports the browser reported (hints for the next sign-in)
 * and a name the user gives it.
 */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webauthn_credentials_credential_id_idx').on(t.credentialId),
    index('webauthn_credentials_user_id_idx').on(t.userId),
  ],
);

/**
 * Outstanding WebAuthn challenges (WebAuthn Level 2 §13.4.3: random, used once, short-lived):
 * a registration's is bound to its user, a sign-in's to the hosted login's interaction and, as a
 * second factor, to the account that passed the password. Taking one deletes it, so a challenge
 * is accepted once on any instance; expired rows are swept when new ones are stored.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign-in'] }).notNull(),
    userId: text('user_id'),
    interactionUid: text('interaction_uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * The embedded provider's sign-in sessions as the account's settings list them (decision 0074):
 * one row per provider session (`session_uid`, the Session model's stable uid), with the user
 * agent it signed in from, its browser and OS as parsed then, and when it was first and last
 * used (sign-in, token refresh). The provider's own Session row carries no user agent; this one
 * stays after the session ended (`ended_at`) so a later sign-in can tell a known browser.
 */
export const accountSessions = pgTable(
  'account_sessions',
  {
    sessionUid: text('session_uid').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => identityAccounts.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent').notNull().default(''),
    browser: text('browser').notNull().default(''),
    os: text('os').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('account_sessions_account_id_idx').on(t.accountId)],
);
