/**
 * Chooses who issues API tokens: an external OIDC issuer when OIDC_ISSUER is set
 * (keys from its discovery document's `jwks_uri`, cached by jose and refetched on an unknown
 * `kid`, so key rotation is honoured), else the embedded provider (auth/provider.ts), whose
 * tokens are verified against its own key set in process.
 */
import { createRemoteJWKSet } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type AuthClaims, createTokenVerifier, type TokenVerifier } from './bearer.ts';
import { createIdentityProvider, type IdentityProvider } from './provider.ts';

interface DiscoveryDocument {
  jwks_uri: string;
  userinfo_endpoint?: string;
}

/** Reads `$issuer/.well-known/openid-configuration`. @throws when it is unreachable or lacks `jwks_uri`. */
export async function discover(issuer: string): Promise<DiscoveryDocument> {
  const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`OIDC discovery at ${issuer} answered ${res.status}`);
  const doc = (await res.json()) as Partial<DiscoveryDocument>;
  if (!doc.jwks_uri) throw new Error(`OIDC discovery at ${issuer} has no jwks_uri`);
  return { jwks_uri: doc.jwks_uri, userinfo_endpoint: doc.userinfo_endpoint };
}

/** Subs whose profile was already looked up; bounded so a long-running process stays small. */
const MAX_REMEMBERED = 10_000;

/**
 * Verifier for tokens of an external issuer. Many issuers (Zitadel, Entra ID, Auth0 without
 * rules) put no email/name into access tokens; then the first request of each `sub` in this
 * process asks the issuer's userinfo endpoint with the same token, so the user row is
 * provisioned with a real profile. A failing userinfo call leaves the claims as they
 * are: the token itself was valid.
 */
export async function externalIssuerVerifier(config: Config): Promise<TokenVerifier> {
  const issuer = config.oidc.issuer;
  if (!issuer) throw new Error('OIDC_ISSUER is not set');
  const doc = await discover(issuer);
  const verify = createTokenVerifier({
    issuer,
    audience: config.oidc.audience,
    jwks: createRemoteJWKSet(new URL(doc.jwks_uri)),
  });
  const userinfo = doc.userinfo_endpoint;
  if (!userinfo) return verify;
  const looked = new Set<string>();
  return async (token) => {
    const claims = await verify(token);
    if (claims.email || looked.has(claims.sub)) return claims;
    if (looked.size >= MAX_REMEMBERED) looked.clear();
    looked.add(claims.sub);
    return { ...claims, ...(await fetchProfile(userinfo, token, claims.sub)) };
  };
}

async function fetchProfile(url: string, token: string, sub: string): Promise<Partial<AuthClaims>> {
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) return {};
    const info = (await res.json()) as Record<string, unknown>;
    // OIDC Core 5.3.2: a userinfo response for another subject must not be used.
    if (info.sub !== sub) return {};
    return {
      ...(typeof info.name === 'string' ? { name: info.name } : {}),
      ...(typeof info.email === 'string' ? { email: info.email } : {}),
      ...(typeof info.email_verified === 'boolean' ? { email_verified: info.email_verified } : {}),
    };
  } catch {
    return {};
  }
}

/** Token verification for the API plus, in embedded mode, the provider to mount at /oidc. */
export async function createAuth(
  config: Config,
  db: Db,
): Promise<{ verifyToken: TokenVerifier; identity?: IdentityProvider }> {
  if (config.oidc.issuer) return { verifyToken: await externalIssuerVerifier(config) };
  const identity = await createIdentityProvider(config, db);
  return { verifyToken: identity.verifyToken, identity };
}
