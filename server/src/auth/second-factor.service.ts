/**
 * The embedded provider's second factor (decision 0072): a TOTP authenticator per RFC 6238
 * (HMAC-SHA-1, 6 digits, 30 s steps, a code of the previous or next step accepted for clock
 * drift, no time step accepted twice) and ten single-use recovery codes kept as SHA-256 hashes.
 * Between the password and the code the hosted sign-in carries a pending token: an HMAC over
 * account id, interaction uid and expiry (5 minutes) with a key in `identity_secrets`, so any
 * instance checks it and no server state is kept.
 *
 * Time is an input: every check reads `deps.now` (the app's clock), never the machine's clock.
 * Called from the account API (through the account port) and the hosted sign-in pages.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  type SecondFactorStatus,
  type TotpEnrolment,
} from '@heizplan/contracts/second-factor';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { badRequest, conflict, forbidden } from '../http/errors.ts';
import { type IdentityDeps, localAccountOrConflict, nowOf, tooManyAttempts } from './accounts.service.ts';
import { loadOrCreateIdentitySecret } from './auth.repository.ts';
import { verifyPassword } from './password.ts';
import {
  confirmTotp,
  countUnusedRecoveryCodes,
  deleteAllFactors,
  deleteSecondFactor,
  findTotp,
  rememberDeviceTerms,
  spendRecoveryCode,
  storeUnconfirmedTotp,
  takeTotpStep,
} from './second-factor.repository.ts';
import { endOtherSessions } from './sessions.service.ts';
import { ACCOUNT_THRESHOLD, accountKey, clearFailures, lockedUntil, recordFailure } from './throttle.ts';

/** RFC 6238 time step X in seconds (the authenticator apps' default). */
export const TOTP_PERIOD_SECONDS = 30;
/** How long the code page of a sign-in stays valid after the password (ms). */
export const PENDING_TTL_MS = 5 * 60_000;
/** The issuer an authenticator app shows next to the account. */
const TOTP_ISSUER = 'Heizplan';
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The TOTP code of `secret` (base32) at `epoch` (Unix seconds), RFC 6238 with SHA-1.
 * @param digits 6 for authenticator apps; 8 for the RFC's test vectors.
 */
export function totpCode(secret: string, epoch: number, digits = 6): Promise<string> {
  return generate({ secret, epoch, digits, period: TOTP_PERIOD_SECONDS });
}

/**
 * The RFC 6238 time step `token` matches for `secret` at `epoch` (Unix seconds), looking one step
 * back and one ahead (RFC 6238 §5.2 allows this for clock drift); only steps after `afterStep`
 * count (replay protection). @returns the step, or null for no match or a malformed token.
 */
export async function matchTotp(
  secret: string,
  token: string,
  epoch: number,
  options: { digits?: number; afterStep?: number | null } = {},
): Promise<number | null> {
  const digits = options.digits ?? 6;
  if (!new RegExp(`^\\d{${digits}}$`).test(token)) return null;
  const result = await verify({
    secret,
    token,
    epoch,
    digits,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(options.afterStep != null ? { afterTimeStep: options.afterStep } : {}),
  });
  // The TOTP strategy's valid result carries the step; `in` narrows otplib's TOTP|HOTP union.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** A typed code without spaces and dashes, lower case: how codes are compared and hashed. */
function normalise(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

const isTotpShaped = (code: string) => /^\d{6}$/.test(code);

/** A new recovery code: 10 base32 characters (50 random bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Hash under which a recovery code is stored: SHA-256 hex of the normalised code. */
export const recoveryCodeHash = (code: string) => sha256(normalise(code));

/** `GET /me/second-factor`: whether a confirmed TOTP guards the sign-in, and unused recovery codes. */
export async function secondFactorStatus(deps: IdentityDeps, userId: string): Promise<SecondFactorStatus> {
  const totp = await findTotp(deps.db, userId);
  const confirmed = totp?.confirmedAt != null;
  return {
    totp: confirmed,
    recoveryCodesLeft: confirmed ? await countUnusedRecoveryCodes(deps.db, userId) : 0,
  };
}

/**
 * The step-up before a sign-in factor is added (decision 0078; OWASP ASVS 5.0 V6.4, factor
 * lifecycle): the account's password must come with the request. A wrong one counts as a failed
 * sign-in of the account (the backoff of auth/throttle.ts), so a stolen session cannot guess it.
 * @throws HttpError 403 `step_up_required` without a password, 400 `current_password_wrong` on
 *   `body.password`, 429 while the account is locked, 409 for no local account.
 */
export async function requireStepUp(deps: IdentityDeps, userId: string, password: string | undefined) {
  const account = await localAccountOrConflict(deps.db, userId);
  if (password === undefined) {
    throw forbidden(
      'Confirm with your password (JSON body {"password": "…"}) before adding a sign-in factor.',
      {
        code: 'step_up_required',
        params: { field: 'body.password' },
      },
    );
  }
  const now = nowOf(deps);
  const key = accountKey(userId);
  const locked = await lockedUntil(deps.db, [key], now);
  if (locked) throw tooManyAttempts(locked, now);
  if (!(await verifyPassword(password, account.passwordHash))) {
    const lockedNow = await recordFailure(deps.db, key, ACCOUNT_THRESHOLD, now);
    if (lockedNow) throw tooManyAttempts(lockedNow, now);
    const message = 'The password is not correct.';
    throw badRequest(message, [{ field: 'body.password', message, code: 'current_password_wrong' }], {
      code: 'current_password_wrong',
    });
  }
}

/**
 * `POST /me/second-factor/totp`: a new unconfirmed secret (replacing an unconfirmed one) with its
 * `otpauth://` URI (label: the account's email) and that URI as an SVG QR code.
 * @throws HttpError 409 `totp_already_enabled` while a confirmed TOTP exists; 409 for no local account.
 */
export async function startTotpEnrolment(deps: IdentityDeps, userId: string): Promise<TotpEnrolment> {
  const account = await localAccountOrConflict(deps.db, userId);
  const secret = generateSecret();
  if (!(await storeUnconfirmedTotp(deps.db, userId, secret, nowOf(deps)))) {
    throw conflict('Two-factor sign-in is already set up; disable it first.', {
      code: 'totp_already_enabled',
    });
  }
  const otpauthUri = generateURI({ issuer: TOTP_ISSUER, label: account.email, secret });
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri, qrSvg };
}

const codeWrong = () => {
  const message = 'The code is not correct.';
  return badRequest(message, [{ field: 'body.code', message, code: 'totp_code_wrong' }], {
    code: 'totp_code_wrong',
  });
};

/**
 * `POST /me/second-factor/totp/confirm`: confirms the unconfirmed TOTP with a current code and
 * hands out ten new recovery codes, stored only as hashes.
 * @returns the recovery codes, shown this once.
 * @throws HttpError 400 `totp_code_wrong` on `body.code`; 409 `totp_not_started` without an
 * unconfirmed TOTP, `totp_already_enabled` when it is confirmed already.
 */
export async function confirmTotpEnrolment(
  deps: IdentityDeps,
  userId: string,
  code: string,
): Promise<string[]> {
  const totp = await findTotp(deps.db, userId);
  if (totp?.confirmedAt) {
    throw conflict('Two-factor sign-in is already set up.', { code: 'totp_already_enabled' });
  }
  if (!totp) throw conflict('Start the setup first.', { code: 'totp_not_started' });
  const now = nowOf(deps);
  const step = await matchTotp(totp.secret, normalise(code), epochSeconds(now));
  if (step === null) throw codeWrong();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  if (!(await confirmTotp(deps.db, userId, totp.secret, step, now, codes.map(recoveryCodeHash)))) {
    throw conflict('Start the setup again.', { code: 'totp_not_started' });
  }
  return codes;
}

/**
 * Accepts a second-factor code of `accountId`'s confirmed TOTP: a 6-digit TOTP code of the current
 * step ±1 not taken before (then its step is taken), or an unused recovery code (then it is used).
 * @returns false for anything else, without saying which part was wrong.
 */
export async function redeemSecondFactorCode(
  deps: IdentityDeps,
  accountId: string,
  code: string,
): Promise<boolean> {
  const typed = normalise(code);
  const totp = await findTotp(deps.db, accountId);
  if (!totp?.confirmedAt || typed === '') return false;
  const now = nowOf(deps);
  if (isTotpShaped(typed)) {
    const step = await matchTotp(totp.secret, typed, epochSeconds(now), { afterStep: totp.lastUsedStep });
    return step !== null && (await takeTotpStep(deps.db, accountId, step));
  }
  return spendRecoveryCode(deps.db, accountId, recoveryCodeHash(typed), now);
}

/**
 * `DELETE /me/second-factor/totp`: removes the TOTP and the recovery codes after checking the
 * sign-in password and a TOTP or recovery code. Wrong ones count as failed sign-ins of the
 * account (auth/throttle.ts); while it is locked nothing is checked.
 * @throws HttpError 400 on `body.password` (`current_password_wrong`) or `body.code`
 * (`totp_code_wrong`), 429 while locked, 409 `totp_not_enabled` without a confirmed TOTP.
 */
export async function disableTotp(
  deps: IdentityDeps,
  userId: string,
  password: string,
  code: string,
): Promise<void> {
  const account = await localAccountOrConflict(deps.db, userId);
  const totp = await findTotp(deps.db, userId);
  if (!totp?.confirmedAt) throw conflict('Two-factor sign-in is not set up.', { code: 'totp_not_enabled' });
  const now = nowOf(deps);
  const key = accountKey(userId);
  const locked = await lockedUntil(deps.db, [key], now);
  if (locked) throw tooManyAttempts(locked, now);
  const failed = async (error: ReturnType<typeof codeWrong>) => {
    const lockedNow = await recordFailure(deps.db, key, ACCOUNT_THRESHOLD, now);
    return lockedNow ? tooManyAttempts(lockedNow, now) : error;
  };
  if (!(await verifyPassword(password, account.passwordHash))) {
    const message = 'The password is not correct.';
    throw await failed(
      badRequest(message, [{ field: 'body.password', message, code: 'current_password_wrong' }], {
        code: 'current_password_wrong',
      }),
    );
  }
  if (!(await redeemSecondFactorCode(deps, userId, code))) throw await failed(codeWrong());
  await deleteSecondFactor(deps.db, userId);
  await clearFailures(deps.db, key);
}

const pendingKeys = new WeakMap<IdentityDeps['db'], Promise<string>>();

/**
 * The HMAC key of pending tokens, made once and shared by every instance (`identity_secrets`);
 * read from the database once per process, as the provider's cookie keys are, not per sign-in.
 */
function pendingKey(deps: IdentityDeps): Promise<string> {
  let key = pendingKeys.get(deps.db);
  if (!key) {
    key = loadOrCreateIdentitySecret(deps.db, 'second-factor-pending', () =>
      randomBytes(32).toString('base64url'),
    );
    // A failed read is tried again on the next sign-in.
    key.catch(() => pendingKeys.delete(deps.db));
    pendingKeys.set(deps.db, key);
  }
  return key;
}

const sign = (key: string, payload: string) =>
  createHmac('sha256', key).update(`second-factor.${payload}`).digest('base64url');

/**
 * A token that the password of `accountId` was right in interaction `uid`, valid for
 * PENDING_TTL_MS: `base64url(JSON {a, u, e}) . base64url(HMAC-SHA-256)`. Not secret, but
 * tamper-proof; it only helps together with that interaction's cookie.
 */
export async function issuePendingToken(deps: IdentityDeps, accountId: string, uid: string): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({ a: accountId, u: uid, e: nowOf(deps).getTime() + PENDING_TTL_MS }),
  ).toString('base64url');
  return `${payload}.${sign(await pendingKey(deps), payload)}`;
}

/** The account id of a pending token for `uid`; undefined when forged, for another uid or expired. */
export async function readPendingToken(
  deps: IdentityDeps,
  token: string,
  uid: string,
): Promise<string | undefined> {
  const [payload = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !payload || !signature) return undefined;
  const expected = Buffer.from(sign(await pendingKey(deps), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (claims.u !== uid || typeof claims.a !== 'string' || typeof claims.e !== 'number') return undefined;
    return claims.e > nowOf(deps).getTime() ? claims.a : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A company admin's reset of a member's sign-in factors (decision 0078), for a member who lost
 * phone and recovery codes: removes TOTP, recovery codes and passkeys, ends every session of the
 * account at the provider and refuses its access tokens issued until now. The member signs in
 * with the password alone next time and, where a company requires one, sets a factor up again.
 * Tokens carry the machine's time (the provider's), so the cut-off is the machine's time too.
 */
export async function resetSecondFactors(deps: IdentityDeps, userId: string): Promise<void> {
  await deleteAllFactors(deps.db, userId, new Date());
  await endOtherSessions(deps, userId, undefined);
}

/** The cookie of a browser trusted to skip the code step (decision 0078); sent only below /auth. */
export const TRUSTED_DEVICE_COOKIE = 'heizplan_trusted_device';

const signTrusted = (key: string, payload: string) =>
  createHmac('sha256', key).update(`trusted-device.${payload}`).digest('base64url');

/**
 * The days a browser of `accountId` may be trusted for now: the smallest setting of the account's
 * companies (0 = the code step is never skipped).
 */
export async function rememberDeviceDays(deps: IdentityDeps, accountId: string): Promise<number> {
  return (await rememberDeviceTerms(deps.db, accountId)).days;
}

/**
 * The value of the trusted-browser cookie after a code step with "trust this browser":
 * `base64url(JSON {a, e, v}) . HMAC-SHA-256` — the account, the expiry `days` ahead and the
 * account's `tokens_valid_from` (ms, 0 when none), under the pending tokens' key with another
 * domain prefix. A password change or reset and an admin's factor reset move `tokens_valid_from`,
 * so every trusted browser of the account ends with them; no table of browsers is needed.
 */
export async function issueTrustedDevice(
  deps: IdentityDeps,
  accountId: string,
  days: number,
): Promise<string> {
  const { tokensValidFrom } = await rememberDeviceTerms(deps.db, accountId);
  const payload = Buffer.from(
    JSON.stringify({
      a: accountId,
      e: nowOf(deps).getTime() + days * 86_400_000,
      v: tokensValidFrom?.getTime() ?? 0,
    }),
  ).toString('base64url');
  return `${payload}.${signTrusted(await pendingKey(deps), payload)}`;
}

/**
 * Whether `value` (the cookie) trusts this browser for `accountId` now: signed by us, for this
 * account, not expired, issued after the account's last password change or factor reset, and
 * every company of the account still allows remembering.
 */
export async function isTrustedDevice(
  deps: IdentityDeps,
  value: string,
  accountId: string,
): Promise<boolean> {
  const [payload = '', signature = '', ...rest] = value.split('.');
  if (rest.length > 0 || !payload || !signature) return false;
  const expected = Buffer.from(signTrusted(await pendingKey(deps), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (claims.a !== accountId || typeof claims.e !== 'number' || claims.e <= nowOf(deps).getTime())
    return false;
  const { days, tokensValidFrom } = await rememberDeviceTerms(deps.db, accountId);
  return days > 0 && claims.v === (tokensValidFrom?.getTime() ?? 0);
}
