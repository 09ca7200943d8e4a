/**
 * Signing keys and cookie keys of the embedded provider, generated on first start and kept in
 * `identity_secrets` so tokens, sessions and cookies stay valid across restarts. When two
 * instances start at once on PostgreSQL the first insert wins and both read it back.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import type { Db } from '../db/client.ts';
import { loadOrCreateIdentitySecret } from './auth.repository.ts';

export interface ProviderKeys {
  /** Private JWKs (RS256) for oidc-provider's `jwks` option. */
  jwks: { keys: JWK[] };
  /** Keys for signed cookies (keygrip); first one signs. */
  cookieKeys: string[];
}

function createSigningKey(): { keys: JWK[] } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { keys: [{ ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' }] };
}

export async function loadProviderKeys(db: Db): Promise<ProviderKeys> {
  const [jwks, cookieKeys] = [
    await loadOrCreateIdentitySecret(db, 'jwks', createSigningKey),
    await loadOrCreateIdentitySecret(db, 'cookies', () => [randomBytes(32).toString('base64url')]),
  ];
  return { jwks, cookieKeys };
}

/** The public half of each key, for verifying tokens in process. */
export function publicJwks({ jwks }: ProviderKeys): { keys: JWK[] } {
  return {
    keys: jwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
}
