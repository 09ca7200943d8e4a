/**
 * Passkeys of the embedded provider (decision 0074): WebAuthn Level 2 credentials registered in
 * the settings and used on the hosted login, either instead of email and password (a
 * discoverable credential, §5.4.6 `residentKey: required`, with user verification) or as the
 * second factor after the password. Checks are `@simplewebauthn/server`'s (§7.1 registration,
 * §7.2 assertion); what stays here is the relying party, the challenges and the counters.
 *
 * - Relying party id and origin come from PUBLIC_URL, never from a request (§5.1.4.1: a browser
 *   signs the origin it talks to; trusting a Host header would let another origin's answer pass).
 * - Challenges are 32 random bytes, stored 5 minutes with what they are bound to (the user; the
 *   interaction and, for a second factor, the account) and deleted when taken (§13.4.3).
 * - The signature counter must grow unless the authenticator keeps none (§6.1.1); a counter that
 *   does not is a cloned authenticator or a replay, refused like a wrong code.
 *
 * Time is an input: `deps.now` (the app's clock) dates challenges, uses and the throttle.
 */
import { randomBytes } from 'node:crypto';
import type { Passkey, PasskeyRegistrationOptions } from '@heizplan/contracts/passkeys';
import type { ProblemCode } from '@heizplan/contracts/problem-codes';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Config } from '../config.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { findActiveAccount } from './accounts.repository.ts';
import { type IdentityDeps, localAccountOrConflict, nowOf } from './accounts.service.ts';
import {
  deleteCredential,
  findCredential,
  insertCredential,
  listCredentials,
  type PasskeyRow,
  recordCredentialUse,
  renameCredential,
  storeChallenge,
  takeChallenge,
} from './passkeys.repository.ts';
import {
  ACCOUNT_THRESHOLD,
  accountKey,
  clearFailures,
  IP_THRESHOLD,
  ipKey,
  type KeyLimit,
  lockedUntil,
  recordFailures,
} from './throttle.ts';

/** How long a challenge may be answered (ms); also the browser's timeout for the ceremony. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** The relying party's name an authenticator shows next to the account (§5.4.1 `rp.name`). */
const RP_NAME = 'Heizplan';
/** ES256 and RS256 (COSE -7, -257): what platform authenticators and security keys offer (§5.8.3). */
const ALGORITHMS = [-7, -257];

/** The relying party of PUBLIC_URL: its host as RP ID (§5.1.4.1: no scheme, no port) and its origin. */
export function relyingParty(config: Pick<Config, 'publicUrl'>): { id: string; origin: string } {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin };
}

const newChallenge = () => randomBytes(32).toString('base64url');

/** The challenge a browser signed (clientDataJSON.challenge, base64url), or undefined when unreadable. */
function signedChallenge(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== 'string') return undefined;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

const responseRefused = (message: string, code: ProblemCode) =>
  badRequest(message, [{ field: 'body.response', message, code }], { code });

/** `GET /me/passkeys`: the user's passkeys, oldest first. @throws HttpError 409 for no local account. */
export async function listPasskeys(deps: IdentityDeps, userId: string): Promise<Passkey[]> {
  await localAccountOrConflict(deps.db, userId);
  return (await listCredentials(deps.db, userId)).map(toPasskey);
}

/**
 * `POST /me/passkeys/registration-options`: options for `navigator.credentials.create` (§5.4): a
 * discoverable credential (`residentKey: required`) with user verification, "none" attestation,
 * the user's passkeys excluded (§5.4 `excludeCredentials`: one authenticator, one passkey). The
 * user handle is the account id (opaque, no personal data, §14.6.1); the challenge is stored for
 * CHALLENGE_TTL_MS. @throws HttpError 409 for no local account.
 */
export async function passkeyRegistrationOptions(
  deps: IdentityDeps,
  userId: string,
): Promise<PasskeyRegistrationOptions> {
  const account = await localAccountOrConflict(deps.db, userId);
  const rp = relyingParty(deps.config);
  const now = nowOf(deps);
  const challenge = newChallenge();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: account.email,
    userDisplayName: account.name,
    userID: new TextEncoder().encode(account.id),
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: (await listCredentials(deps.db, userId)).map((c) => ({
      id: c.credentialId,
      transports: c.transports,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(
    deps.db,
    {
      challenge: options.challenge,
      purpose: 'register',
      userId,
      interactionUid: null,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    },
    now,
  );
  // Fresh object literals: the contract's loose objects take any further member.
  return { ...options, rp: { ...options.rp }, user: { ...options.user } };
}

/**
 * `POST /me/passkeys`: checks the browser's answer to the user's registration challenge (§7.1:
 * challenge, origin, RP ID hash, user presence and verification, algorithm) and stores the
 * passkey under `name`. The challenge is used up whatever the outcome.
 * @throws HttpError 400 on `body.response` (`passkey_challenge_expired`, `passkey_not_verified`);
 * 409 `passkey_exists` when the credential is registered already, or for no local account.
 */
export async function registerPasskey(
  deps: IdentityDeps,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
): Promise<Passkey> {
  await localAccountOrConflict(deps.db, userId);
  const now = nowOf(deps);
  const challenge = signedChallenge(response.response?.clientDataJSON);
  const binding = { purpose: 'register' as const, userId, interactionUid: null };
  if (!challenge || !(await takeChallenge(deps.db, challenge, binding, now))) {
    throw responseRefused('The passkey request expired; start again.', 'passkey_challenge_expired');
  }
  const rp = relyingParty(deps.config);
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    info = verified.registrationInfo;
  } catch (err) {
    deps.log?.info({ reason: (err as Error).message }, 'passkey registration refused');
  }
  if (!info) throw responseRefused('The passkey could not be verified.', 'passkey_not_verified');
  const row = await insertCredential(deps.db, {
    userId,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: (response.response.transports ?? []).slice(0, 16),
    name,
    createdAt: now,
  });
  if (!row) throw conflict('This passkey is registered already.', { code: 'passkey_exists' });
  return toPasskey(row);
}

/**
 * `PATCH /me/passkeys/:passkeyId`: a new name; without one (and for `GET`) the passkey as it is.
 * @throws HttpError 404 when the user has no such passkey.
 */
export async function renamePasskey(
  deps: IdentityDeps,
  userId: string,
  id: string,
  name: string | undefined,
): Promise<Passkey> {
  const row =
    name === undefined
      ? (await listCredentials(deps.db, userId)).find((c) => c.id === id)
      : await renameCredential(deps.db, userId, id, name);
  if (!row) throw notFound('No such passkey.');
  return toPasskey(row);
}

/** `DELETE /me/passkeys/:passkeyId`. @throws HttpError 404 when the user has no such passkey. */
export async function removePasskey(deps: IdentityDeps, userId: string, id: string): Promise<void> {
  if (!(await deleteCredential(deps.db, userId, id))) throw notFound('No such passkey.');
}

/**
 * Options for `navigator.credentials.get` on the hosted login (§5.5), bound to interaction `uid`
 * for CHALLENGE_TTL_MS. Without `accountId` (sign-in without password): no `allowCredentials`,
 * so the authenticator offers its discoverable credentials (§5.5 step 12), with user
 * verification required. With `accountId` (second factor after the password): that account's
 * passkeys, user verification preferred (the password was the knowledge factor).
 */
export async function passkeySignInOptions(
  deps: IdentityDeps,
  uid: string,
  accountId?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const now = nowOf(deps);
  const challenge = newChallenge();
  const credentials = accountId ? await listCredentials(deps.db, accountId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CHALLENGE_TTL_MS,
    userVerification: accountId ? 'preferred' : 'required',
    allowCredentials: credentials.map((c) => ({ id: c.credentialId, transports: c.transports })),
  });
  await storeChallenge(
    deps.db,
    {
      challenge: options.challenge,
      purpose: 'sign-in',
      userId: accountId ?? null,
      interactionUid: uid,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    },
    now,
  );
  return options;
}

export type PasskeySignInResult =
  | { ok: true; accountId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; until: Date };

/** The browser's AuthenticationResponseJSON from a form field, or undefined when it is not one. */
function parseAssertion(text: string): AuthenticationResponseJSON | undefined {
  try {
    const value = JSON.parse(text) as Partial<AuthenticationResponseJSON> | null;
    if (!value || typeof value.id !== 'string' || typeof value.response !== 'object' || !value.response)
      return undefined;
    return value as AuthenticationResponseJSON;
  } catch {
    return undefined;
  }
}

/**
 * Checks an assertion (`responseText`: the browser's AuthenticationResponseJSON) on the hosted
 * login's interaction `uid` (§7.2): the credential is known (and, with `accountId`, that
 * account's), its challenge was issued for this interaction and account and is taken now, the
 * signature, origin, RP ID hash and flags hold, and the counter grew. Failures count on the same
 * throttle keys as a wrong password (auth/throttle.ts): the account's when it is known and the
 * IP's; while one is locked nothing is checked. Success clears the account's failures.
 */
export async function verifyPasskeySignIn(
  deps: IdentityDeps,
  input: { uid: string; responseText: string; ip: string; accountId?: string },
): Promise<PasskeySignInResult> {
  const now = nowOf(deps);
  const assertion = parseAssertion(input.responseText);
  const credential = assertion ? await findCredential(deps.db, assertion.id) : undefined;
  const owner = input.accountId ?? credential?.userId;
  const limits: KeyLimit[] = [
    ...(owner ? [{ key: accountKey(owner), threshold: ACCOUNT_THRESHOLD }] : []),
    { key: ipKey(input.ip), threshold: IP_THRESHOLD },
  ];
  const locked = await lockedUntil(
    deps.db,
    limits.map((l) => l.key),
    now,
  );
  if (locked) return { ok: false, reason: 'locked', until: locked };
  const accountId =
    assertion && credential ? await checkAssertion(deps, input, assertion, credential, now) : undefined;
  if (accountId) {
    await clearFailures(deps.db, accountKey(accountId));
    return { ok: true, accountId };
  }
  const lockedNow = await recordFailures(deps.db, limits, now);
  return lockedNow ? { ok: false, reason: 'locked', until: lockedNow } : { ok: false, reason: 'invalid' };
}

/** The account the assertion signs in, or undefined when any check of verifyPasskeySignIn fails. */
async function checkAssertion(
  deps: IdentityDeps,
  input: { uid: string; accountId?: string },
  assertion: AuthenticationResponseJSON,
  credential: PasskeyRow,
  now: Date,
): Promise<string | undefined> {
  // A passkey of another account than the one that passed the password is refused (§7.2 step 6).
  if (input.accountId && credential.userId !== input.accountId) return undefined;
  // Without a password step the user handle, when the authenticator sends one, names the owner.
  const handle = assertion.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== credential.userId) return undefined;
  const challenge = signedChallenge(assertion.response.clientDataJSON);
  const binding = { purpose: 'sign-in' as const, userId: input.accountId ?? null, interactionUid: input.uid };
  if (!challenge || !(await takeChallenge(deps.db, challenge, binding, now))) return undefined;
  const rp = relyingParty(deps.config);
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: credential.credentialId,
        publicKey: Buffer.from(credential.publicKey, 'base64url'),
        counter: credential.counter,
        transports: credential.transports,
      },
      requireUserVerification: !input.accountId,
    });
    if (!verified) return undefined;
    if (!(await recordCredentialUse(deps.db, credential.id, authenticationInfo.newCounter, now)))
      return undefined;
  } catch (err) {
    deps.log?.info({ reason: (err as Error).message }, 'passkey assertion refused');
    return undefined;
  }
  return (await findActiveAccount(deps.db, credential.userId)) ? credential.userId : undefined;
}
