/**
 * External issuer mode for real: a second oidc-provider instance on another loopback
 * port plays Keycloak/Auth0; the app, configured with OIDC_ISSUER/OIDC_CLIENT_ID/OIDC_AUDIENCE,
 * discovers its JWKS and accepts its JWT access tokens, while expired, forged and
 * wrong-audience tokens get 401 problem+json. The embedded provider is off in this mode.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { users } from '../db/schema.ts';
import { freePort, type RunningApp, startApp, WHOAMI } from './identity.test-kit.ts';
import { Provider } from './oidc-provider-module.ts';

const API = 'https://api.heizplan.test';
const OTHER_API = 'https://other.example.test';

function rsaKey(): JWK {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

let issuerServer: Server;
let issuer = '';
const signingKey = rsaKey();
let running: RunningApp;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    jwks: { keys: [signingKey] } as never,
    cookies: { keys: ['external-test-cookie-key'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API,
        getResourceServerInfo: (_ctx, indicator) => ({
          scope: 'api',
          audience: indicator === API ? 'heizplan-api' : 'other-api',
          accessTokenFormat: 'jwt',
          accessTokenTTL: 600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: () => ({ name: 'Machine User', email: 'machine@example.test', email_verified: true }),
    clientBasedCORS: () => false,
    ttl: { ClientCredentials: 600 },
  });
  issuerServer = provider.listen(port, '127.0.0.1');
  running = await startApp({
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'heizplan-spa', OIDC_AUDIENCE: 'heizplan-api' },
  });
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => issuerServer?.close(resolve));
});

async function clientCredentialsToken(resource: string): Promise<string> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', resource }).toString(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const whoami = (token: string) =>
  fetch(`${running.baseUrl}${WHOAMI}`, { headers: { authorization: `Bearer ${token}` } });

async function expect401(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(await res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
}

describe('external issuer mode', () => {
  it('refuses to start without the SPA client id at the external issuer', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
  });

  it('accepts the external issuer’s JWT access tokens and provisions the user from its claims', async () => {
    const res = await whoami(await clientCredentialsToken(API));
    expect(res.status).toBe(200);
    const claims = (await res.json()) as { sub: string; iss: string; aud: string };
    expect(claims).toMatchObject({ sub: 'machine', iss: issuer, aud: 'heizplan-api' });
    const [user] = await running.database.db.select().from(users).where(eq(users.id, 'machine'));
    expect(user).toMatchObject({ name: 'Machine User', email: 'machine@example.test', emailVerified: true });
  });

  it('rejects a token for another audience', async () => {
    await expect401(await whoami(await clientCredentialsToken(OTHER_API)));
  });

  it('rejects an expired token signed with the issuer’s own key (beyond the 60 s leeway)', async () => {
    // Real time on purpose: jose checks `exp` against its own (the machine's) clock.
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid ?? '' })
      .setIssuer(issuer)
      .setAudience('heizplan-api')
      .setSubject('machine')
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 120)
      .sign(await importJWK(signingKey, 'RS256'));
    await expect401(await whoami(expired));
  });

  it('rejects a token forged with another key under the issuer’s key id', async () => {
    const forger = rsaKey();
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid ?? '' })
      .setIssuer(issuer)
      .setAudience('heizplan-api')
      .setSubject('machine')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(forger, 'RS256'));
    await expect401(await whoami(forged));
  });

  it('turns the embedded provider off and tells the SPA about the external issuer', async () => {
    expect(running.identity).toBeUndefined();
    expect((await fetch(`${running.baseUrl}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    const config = await (await fetch(`${running.baseUrl}/api/public/auth-config`)).json();
    expect(config).toEqual({
      issuer,
      client_id: 'heizplan-spa',
      audience: 'heizplan-api',
      scope: 'openid profile email offline_access',
      public_url: running.baseUrl,
    });
  });
});
