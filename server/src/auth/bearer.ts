/**
 * Bearer-token authentication for `/api` (docs/architecture.md): every route needs
 * `Authorization: Bearer <JWT>` unless its route config says `public: true`. The JWT is
 * verified with jose against the issuer's JWKS: signature, `iss`, `aud`, `exp` with 60 s
 * leeway. The first authenticated call provisions the user row (id = `sub`). A company API
 * token (`hp_…`, decision 0058) is accepted in its place (`api-token-auth.ts`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Db } from '../db/client.ts';
import { unauthorized } from '../http/errors.ts';
import { API_TOKEN_PREFIX, type ApiTokenAuthOptions, apiTokenAuth } from './api-token-auth.ts';
import { prepareBearerUserLookup, provisionUser } from './auth.repository.ts';

export interface AuthClaims extends JWTPayload {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/** Verifies a compact JWT and returns its claims; rejects with a message on any failure. */
export type TokenVerifier = (token: string) => Promise<AuthClaims>;

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** Key source: `createRemoteJWKSet(url)` (cached, honours rotation) or a local set in tests. */
  jwks: JWTVerifyGetKey;
}

export function createTokenVerifier({ issuer, audience, jwks }: VerifierOptions): TokenVerifier {
  return async (token) => {
    const { payload } = await jwtVerify(token, jwks, { issuer, audience, clockTolerance: 60 });
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
      throw new Error('token has no subject');
    }
    return payload as AuthClaims;
  };
}

/** How many verified tokens `rememberVerified` keeps (about 1 kB each). */
const REMEMBERED_TOKENS = 10_000;

/**
 * Remembers the claims of tokens `verify` accepted until they expire (with the verifier's 60 s
 * leeway), so a client's next request with the same token costs a map lookup instead of an RS256
 * or ES256 signature check — about a sixth of the units page's CPU (docs/decisions/0035). Only a
 * token byte-for-byte equal to a verified one is found; anything else is verified. A token without
 * `exp` is not remembered. The oldest entry goes when the map is full.
 */
export function rememberVerified(verify: TokenVerifier, max = REMEMBERED_TOKENS): TokenVerifier {
  const verified = new Map<string, { claims: AuthClaims; until: number }>();
  return async (token) => {
    const known = verified.get(token);
    if (known && known.until > Date.now()) return known.claims;
    if (known) verified.delete(token);
    const claims = await verify(token);
    if (typeof claims.exp === 'number') {
      if (verified.size >= max) verified.delete(verified.keys().next().value as string);
      verified.set(token, { claims, until: (claims.exp + 60) * 1000 });
    }
    return claims;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for authenticated requests; `null` on public routes. */
    auth: AuthClaims | null;
  }
  interface FastifyContextConfig {
    /** Route needs no bearer token (health, docs, public heating view). */
    public?: boolean;
    /**
     * The route's own statement reads the caller's user row and refuses a deactivated one
     * (`deactivated()`), so the hook skips its lookup: one round trip less on a hot route
     * (the units page, docs/decisions/0035). Such a route does not provision a new `sub`; it
     * cannot be a member of anything yet, and its next call of another route provisions it.
     */
    checksUser?: boolean;
  }
}

/** 401 for a user whose account is deactivated (a deletion was requested). */
export const deactivated = () => unauthorized('This account has been deactivated.');

/** 401 for a token issued before the account's password was reset or changed. */
export const signedOut = () =>
  unauthorized('This sign-in ended when the password was changed. Sign in again with the new password.');

/** 401 for a token of a provider session the account ended in its session list (decision 0074). */
export const sessionEnded = () =>
  unauthorized('This sign-in was ended from the list of sessions. Sign in again.');

/** The provider session an access token was issued in (decision 0074): `GET /me/sessions` marks it. */
export const SESSION_CLAIM = 'sid';

/**
 * Claim of the embedded provider's access tokens: the account's `users.tokens_valid_from` (ms)
 * when the token was issued, 0 before any password reset or change.
 */
export const SIGN_OUT_EPOCH_CLAIM = 'sv';

/**
 * When the session's sign-in happened (seconds since the epoch; RFC 9068 §2.2.1): the step-up
 * before a factor is added accepts a sign-in of the last 10 minutes instead of the password
 * (decision 0078).
 */
export const AUTH_TIME_CLAIM = 'auth_time';

/**
 * True when a token was issued before the account's last password reset or change
 * (`tokensValidFrom`): every session of the account was ended then. Compared through the
 * token's sign-out epoch rather than `iat`, whose whole seconds cannot tell a token of the
 * same second before the reset from one after it. Tokens of an external issuer never meet a
 * `tokensValidFrom` (it manages passwords itself).
 */
export function issuedBeforeSignOut(claims: AuthClaims, tokensValidFrom: Date | null | undefined): boolean {
  if (!tokensValidFrom) return false;
  const epoch = claims[SIGN_OUT_EPOCH_CLAIM];
  return (typeof epoch === 'number' ? epoch : 0) < tokensValidFrom.getTime();
}

/** The authenticated caller's claims; throws 401 when the route ran without a token. */
export function requireAuth(request: FastifyRequest): AuthClaims {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Adds the onRequest hook to every `/api` route registered after it. A deactivated user
 * (`users.active = false`, e.g. after `DELETE /me/request_deletion`), a token issued before
 * the account's password was reset or changed, and a token of a session the account ended get
 * 401 even while the token is valid, so the lookup runs on every request. The first call of a new `sub`
 * provisions its row (an insert that does nothing when the row exists); profile fields from
 * later tokens do not overwrite edits the user made through `PUT /me/`.
 */
export function installBearerAuth(
  app: FastifyInstance,
  verifyToken: TokenVerifier,
  db: Db,
  apiTokens: ApiTokenAuthOptions,
) {
  const verify = rememberVerified(verifyToken);
  const apiToken = apiTokenAuth(db, apiTokens);
  // Prepared once: built and planned once per connection instead of on every request.
  const userLookup = prepareBearerUserLookup(db);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return;
    if (request.routeOptions.config.public) return;
    if (!request.routeOptions.url) return; // unmatched route: the 404 handler answers
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    // A company API token (decision 0058) instead of a sign-in's JWT.
    if (match[1].startsWith(API_TOKEN_PREFIX)) {
      request.auth = await apiToken(match[1], request);
      return;
    }
    let claims: AuthClaims;
    try {
      claims = await verify(match[1]);
    } catch (err) {
      request.log.info({ reason: (err as Error).message }, 'bearer token rejected');
      throw unauthorized('The bearer token is invalid or expired.');
    }
    if (request.routeOptions.config.checksUser) {
      request.auth = claims;
      return;
    }
    const sid = claims[SESSION_CLAIM];
    const [user] = await userLookup.execute({ id: claims.sub, sid: typeof sid === 'string' ? sid : '' });
    if (user && !user.active) throw deactivated();
    if (user && issuedBeforeSignOut(claims, user.tokensValidFrom)) throw signedOut();
    if (user?.sessionEnded) throw sessionEnded();
    if (!user) {
      await provisionUser(db, {
        id: claims.sub,
        name: (claims.name ?? '').trim(),
        email: (claims.email ?? '').trim(),
        emailVerified: claims.email_verified === true,
        lastLogin: new Date(),
      });
    }
    request.auth = claims;
  });
}
