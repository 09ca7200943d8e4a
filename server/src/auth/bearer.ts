/**
 * Bearer-token authentication for `/api` (issue 4, ARCHITECTURE.md §6): every route needs
 * `Authorization: Bearer <JWT>` unless its route config says `public: true`. The JWT is
 * verified with jose against the issuer's JWKS: signature, `iss`, `aud`, `exp` with 60 s
 * leeway. The first authenticated call provisions the user row (id = `sub`).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { unauthorized } from '../http/errors.ts';

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

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for authenticated requests; `null` on public routes. */
    auth: AuthClaims | null;
  }
  interface FastifyContextConfig {
    /** Route needs no bearer token (health, docs, public heating view). */
    public?: boolean;
  }
}

/** The authenticated caller's claims; throws 401 when the route ran without a token. */
export function requireAuth(request: FastifyRequest): AuthClaims {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * Adds the onRequest hook to every `/api` route registered after it. A deactivated user
 * (`users.active = false`, e.g. after `DELETE /me/request_deletion`) gets 401 even with a
 * still-valid token, so the lookup runs on every request. The first call of a new `sub`
 * provisions its row (an insert that does nothing when the row exists); profile fields from
 * later tokens do not overwrite edits the user made through `PUT /me/`.
 */
export function installBearerAuth(app: FastifyInstance, verify: TokenVerifier, db: Db) {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return;
    if (request.routeOptions.config.public) return;
    if (!request.routeOptions.url) return; // unmatched route: the 404 handler answers
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    let claims: AuthClaims;
    try {
      claims = await verify(match[1]);
    } catch (err) {
      request.log.info({ reason: (err as Error).message }, 'bearer token rejected');
      throw unauthorized('The bearer token is invalid or expired.');
    }
    const [user] = await db
      .select({ active: users.active })
      .from(users)
      .where(eq(users.id, claims.sub))
      .limit(1);
    if (user && !user.active) throw unauthorized('This account has been deactivated.');
    if (!user) {
      await db
        .insert(users)
        .values({
          id: claims.sub,
          name: (claims.name ?? '').trim(),
          email: (claims.email ?? '').trim(),
          emailVerified: claims.email_verified === true,
          lastLogin: new Date(),
        })
        .onConflictDoNothing();
    }
    request.auth = claims;
  });
}
