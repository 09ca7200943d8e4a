/**
 * Chooses who issues API tokens (issue 4): an external OIDC issuer when OIDC_ISSUER is set
 * (keys from its discovery document's `jwks_uri`, cached by jose and refetched on an unknown
 * `kid`, so key rotation is honoured), else the embedded provider (auth/provider.ts), whose
 * tokens are verified against its own key set in process.
 */
import { createRemoteJWKSet } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createTokenVerifier, type TokenVerifier } from './bearer.ts';
import { createIdentityProvider, type IdentityProvider } from './provider.ts';

/** Reads `$issuer/.well-known/openid-configuration`. @throws when it is unreachable or lacks `jwks_uri`. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`OIDC discovery at ${issuer} answered ${res.status}`);
  const doc = (await res.json()) as { jwks_uri?: string; issuer?: string };
  if (!doc.jwks_uri) throw new Error(`OIDC discovery at ${issuer} has no jwks_uri`);
  return doc.jwks_uri;
}

export async function externalIssuerVerifier(config: Config): Promise<TokenVerifier> {
  const issuer = config.oidc.issuer;
  if (!issuer) throw new Error('OIDC_ISSUER is not set');
  const jwks = createRemoteJWKSet(new URL(await discoverJwksUri(issuer)));
  return createTokenVerifier({ issuer, audience: config.oidc.audience, jwks });
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
