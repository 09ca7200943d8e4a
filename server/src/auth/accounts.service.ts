/**
 * Local sign-in accounts of the embedded identity provider: registration, password
 * sign-in with backoff, email verification and password reset by single-use mail links.
 * The account id is the token `sub` and the id of the API's `users` row, so confirming an
 * email also updates `users.email_verified`. With an external issuer there are no local
 * accounts and the password/verification calls answer 409.
 *
 * Called from the hosted pages (auth/interaction.routes.ts) and from the account API
 * (`PUT /me/password` → `setPassword`, `POST /me/request-verification` → `sendVerificationMail`).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { badRequest, conflict, type FieldError, HttpError } from '../http/errors.ts';
import { createMailer, type MailLogger } from '../mail/mailer.ts';
import {
  findAccountByEmail,
  findAccountById,
  findActiveAccount,
  type IdentityAccount,
  insertAccount,
  insertLinkToken,
  isLinkTokenUsable,
  markEmailVerified,
  replacePassword,
  spendLinkToken,
  userLanguage,
} from './accounts.repository.ts';
import { type Lang, t } from './pages.i18n.ts';
import { hasPasskey } from './passkeys.repository.ts';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password.ts';
import { hasConfirmedTotp } from './second-factor.repository.ts';
import {
  ACCOUNT_THRESHOLD,
  accountKey,
  clearFailures,
  IP_THRESHOLD,
  ipKey,
  lockedUntil,
  recordFailure,
  recordFailures,
} from './throttle.ts';

export interface IdentityDeps {
  db: Db;
  config: Config;
  /** Receives the outbox path of written mails (Fastify's `app.log` fits). */
  log?: MailLogger;
  /** What the sign-in's throttle and second factor read as now; default the machine's clock. */
  now?: Clock;
}

/** The instant `deps` act on (its clock, else the machine's). */
export const nowOf = (deps: IdentityDeps): Date => (deps.now ?? systemClock)();

const VERIFY_TTL_MS = 7 * 24 * 60 * 60_000;
const RESET_TTL_MS = 60 * 60_000;
const EmailSchema = z.email();

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** Field errors for a new password; empty when it is acceptable. */
export function passwordErrors(password: string, lang: Lang = 'en', field = 'password'): FieldError[] {
  return password.length < MIN_PASSWORD_LENGTH
    ? [{ field, message: t(lang, 'passwordTooShort', { min: MIN_PASSWORD_LENGTH }) }]
    : [];
}

export interface Registration {
  email: string;
  name: string;
  password: string;
}

/**
 * Creates an account (email trimmed, unique case-insensitively) and mails a verification link.
 * @throws HttpError 400 with field errors (email/name/password) or 409 when the email is taken.
 */
export async function registerAccount(
  deps: IdentityDeps,
  input: Registration,
  lang: Lang,
): Promise<IdentityAccount> {
  const email = input.email.trim();
  const name = input.name.trim();
  const errors: FieldError[] = [];
  if (!EmailSchema.safeParse(email).success)
    errors.push({ field: 'email', message: t(lang, 'emailInvalid') });
  if (!name) errors.push({ field: 'name', message: t(lang, 'nameRequired') });
  errors.push(...passwordErrors(input.password, lang));
  if (errors.length > 0) throw badRequest(errors[0]?.message ?? 'Invalid registration.', errors);
  if (await findAccountByEmail(deps.db, email)) throw conflict(t(lang, 'emailTaken'));
  const account = await insertAccount(deps.db, {
    id: randomUUID(),
    email,
    name,
    lang,
    passwordHash: await hashPassword(input.password),
  });
  // A concurrent registration of the same address lost the race on the unique index.
  if (!account) throw conflict(t(lang, 'emailTaken'));
  await mailVerificationLink(deps, account, lang);
  return account;
}

/** The second factors an account has: a confirmed TOTP (with recovery codes), passkeys. */
export interface SecondFactors {
  totp: boolean;
  passkey: boolean;
}

export type SignInResult =
  /**
   * `secondFactor`: the account has a confirmed TOTP or a passkey (decision 0074), so the login
   * needs one of them first; `factors` says which the second step offers.
   */
  | { ok: true; account: IdentityAccount; secondFactor: boolean; factors: SecondFactors }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; until: Date };

/**
 * Checks email + password with per-account and per-IP backoff (auth/throttle.ts). A locked
 * key answers `locked` without checking the password, so guessing during a lock is useless.
 * Unknown emails count against the IP only and cost the same hashing time. A correct password
 * clears the account's failures only when no second factor follows: otherwise wrong codes would
 * be forgiven by entering the password again (the code step clears them, decision 0072).
 */
export async function signIn(
  deps: IdentityDeps,
  email: string,
  password: string,
  ip: string,
): Promise<SignInResult> {
  const found = await findAccountByEmail(deps.db, email);
  const account = found && (await findActiveAccount(deps.db, found.id));
  const keys = account ? [accountKey(account.id), ipKey(ip)] : [ipKey(ip)];
  const now = nowOf(deps);
  const until = await lockedUntil(deps.db, keys, now);
  if (until) return { ok: false, reason: 'locked', until };
  let valid = false;
  if (account) valid = await verifyPassword(password, account.passwordHash);
  else await hashPassword(password); // same time as a wrong password: no account oracle
  if (!account || !valid) {
    const lockedNow = await recordFailures(
      deps.db,
      [
        ...(account ? [{ key: accountKey(account.id), threshold: ACCOUNT_THRESHOLD }] : []),
        { key: ipKey(ip), threshold: IP_THRESHOLD },
      ],
      now,
    );
    return lockedNow ? { ok: false, reason: 'locked', until: lockedNow } : { ok: false, reason: 'invalid' };
  }
  const factors = {
    totp: await hasConfirmedTotp(deps.db, account.id),
    passkey: await hasPasskey(deps.db, account.id),
  };
  const secondFactor = factors.totp || factors.passkey;
  if (!secondFactor) await clearFailures(deps.db, accountKey(account.id));
  return { ok: true, account, secondFactor, factors };
}

async function issueLinkToken(db: Db, accountId: string, purpose: 'verify-email' | 'reset-password') {
  const token = randomBytes(32).toString('base64url');
  const ttl = purpose === 'verify-email' ? VERIFY_TTL_MS : RESET_TTL_MS;
  await insertLinkToken(db, sha256(token), accountId, purpose, new Date(Date.now() + ttl));
  return token;
}

/** Marks the link token used and returns its account id; undefined when unknown, used or expired. */
async function redeemLinkToken(db: Db, token: string, purpose: 'verify-email' | 'reset-password') {
  return spendLinkToken(db, sha256(token), purpose);
}

async function mailVerificationLink(deps: IdentityDeps, account: IdentityAccount, lang: Lang) {
  const token = await issueLinkToken(deps.db, account.id, 'verify-email');
  const link = `${deps.config.publicUrl}/auth/verify/${token}?lang=${lang}`;
  await createMailer(deps.config, deps.log).send({
    to: account.email,
    subject: t(lang, 'verifyMailSubject'),
    text: t(lang, 'verifyMailBody', { name: account.name, link }),
  });
}

/** The embedded account `accountId`. @throws HttpError 409 when there is none (accounts are external). */
export async function localAccountOrConflict(db: Db, accountId: string): Promise<IdentityAccount> {
  const account = await findAccountById(db, accountId);
  if (!account) throw conflict('Accounts are managed by the external identity provider.');
  return account;
}

/**
 * `POST /me/request-verification`: mails a new verification link in the user's language.
 * @throws HttpError 409 when the account is not local (external issuer) or already verified.
 */
export async function sendVerificationMail(deps: IdentityDeps, accountId: string): Promise<void> {
  const account = await localAccountOrConflict(deps.db, accountId);
  if (account.emailVerified) throw conflict('The email address is already verified.');
  await mailVerificationLink(deps, account, await userLanguage(deps.db, accountId));
}

/** Confirms the email of a verification link; returns the account, or undefined for a bad link. */
export async function confirmEmail(db: Db, token: string): Promise<IdentityAccount | undefined> {
  const accountId = await redeemLinkToken(db, token, 'verify-email');
  if (!accountId) return undefined;
  return markEmailVerified(db, accountId);
}

/** Mails a reset link when an account has this email; silent otherwise (no account oracle). */
export async function requestPasswordReset(deps: IdentityDeps, email: string, lang: Lang): Promise<void> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) return;
  const token = await issueLinkToken(deps.db, account.id, 'reset-password');
  const link = `${deps.config.publicUrl}/auth/reset/${token}?lang=${lang}`;
  await createMailer(deps.config, deps.log).send({
    to: account.email,
    subject: t(lang, 'resetMailSubject'),
    text: t(lang, 'resetMailBody', { name: account.name, link }),
  });
}

/** True when `token` is an unused, unexpired reset link (the form is shown only then). */
export async function isResetTokenValid(db: Db, token: string): Promise<boolean> {
  return isLinkTokenUsable(db, sha256(token), 'reset-password');
}

/**
 * Sets a new password from a reset link and lifts the account's sign-in lock.
 * @returns false when the link is unknown, used or expired. @throws HttpError 400 for a short password.
 */
export async function resetPassword(
  deps: IdentityDeps,
  token: string,
  password: string,
  lang: Lang,
): Promise<boolean> {
  const errors = passwordErrors(password, lang);
  if (errors.length > 0) throw badRequest(errors[0]?.message ?? 'Invalid password.', errors);
  const accountId = await redeemLinkToken(deps.db, token, 'reset-password');
  if (!accountId) return false;
  await storePassword(deps.db, accountId, password);
  return true;
}

/**
 * `PUT /me/password`: replaces the caller's password (min 10 characters) after checking the
 * current one. A wrong current password counts as a failed sign-in of the account (the same
 * backoff, auth/throttle.ts); while the account is locked nothing is checked.
 * @throws HttpError 400 with a `currentPassword` field error when it does not match, or for a
 * short new password; 429 while locked; 409 when accounts are managed by an external issuer.
 */
export async function setPassword(
  deps: IdentityDeps,
  accountId: string,
  currentPassword: string,
  password: string,
): Promise<void> {
  const errors = passwordErrors(password);
  if (errors.length > 0) throw badRequest(errors[0]?.message ?? 'Invalid password.', errors);
  const account = await localAccountOrConflict(deps.db, accountId);
  const key = accountKey(accountId);
  const locked = await lockedUntil(deps.db, [key]);
  if (locked) throw tooManyAttempts(locked);
  if (!(await verifyPassword(currentPassword, account.passwordHash))) {
    const lockedNow = await recordFailure(deps.db, key, ACCOUNT_THRESHOLD);
    if (lockedNow) throw tooManyAttempts(lockedNow);
    const message = 'The current password is not correct.';
    throw badRequest(message, [{ field: 'currentPassword', message }], { code: 'current_password_wrong' });
  }
  await storePassword(deps.db, accountId, password);
}

/** 429 `too_many_attempts` with Retry-After: the seconds from `now` until `until`. */
export function tooManyAttempts(until: Date, now = new Date()) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new HttpError(
    429,
    'Too Many Requests',
    'Too many wrong passwords. Try again after the number of seconds in Retry-After.',
    undefined,
    { code: 'too_many_attempts' },
    { 'retry-after': String(seconds) },
  );
}

/**
 * Stores a new password and signs the account out everywhere: every session, grant, refresh
 * and access token of it at the identity provider is deleted, and access tokens (JWTs, which
 * nothing can delete) issued before now are refused from now on (`users.tokens_valid_from`).
 */
async function storePassword(db: Db, accountId: string, password: string) {
  const passwordHash = await hashPassword(password);
  await replacePassword(db, accountId, passwordHash);
  await clearFailures(db, accountKey(accountId));
}
