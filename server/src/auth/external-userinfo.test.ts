/**
 * External issuers whose access tokens carry no email/name (Zitadel, Entra ID): the first
 * request of a user fetches the profile from the issuer's userinfo endpoint. The
 * issuer here is a minimal stub (discovery, JWKS, userinfo) on a loopback port.
 */
import { createServer, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { freePort, type RunningApp, startApp, WHOAMI } from './identity.test-kit.ts';

let stub: Server;
let issuer = '';
let running: RunningApp;
const keys = await generateKeyPair('ES256');
const userinfoCalls: string[] = [];

/** Userinfo answers per subject; `impostor` gets another subject's profile. */
const profiles: Record<string, object> = {
  zoe: { sub: 'zoe', name: 'Zoe Ziegler', email: 'zoe@example.test', email_verified: true },
  impostor: { sub: 'someone-else', name: 'Mallory', email: 'mallory@example.test' },
};

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'stub', alg: 'ES256', use: 'sig' };
  stub = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(
        JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, userinfo_endpoint: `${issuer}/userinfo` }),
      );
    } else if (req.url === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else if (req.url === '/userinfo') {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const sub = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
      userinfoCalls.push(sub);
      res.end(JSON.stringify(profiles[sub] ?? {}));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => stub.listen(port, '127.0.0.1', resolve));
  running = await startApp({
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'spa', OIDC_AUDIENCE: 'heizplan-api' },
  });
});

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => stub?.close(resolve));
});

const tokenFor = (sub: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: 'stub' })
    .setIssuer(issuer)
    .setAudience('heizplan-api')
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(keys.privateKey);

const userRow = async (id: string) =>
  (await running.database.db.select().from(users).where(eq(users.id, id)))[0];

it('provisions a user from userinfo when the access token has no email, asking once per user', async () => {
  const token = await tokenFor('zoe');
  expect(
    (await fetch(`${running.baseUrl}${WHOAMI}`, { headers: { authorization: `Bearer ${token}` } })).status,
  ).toBe(200);
  expect(
    (await fetch(`${running.baseUrl}${WHOAMI}`, { headers: { authorization: `Bearer ${token}` } })).status,
  ).toBe(200);
  expect(await userRow('zoe')).toMatchObject({
    name: 'Zoe Ziegler',
    email: 'zoe@example.test',
    emailVerified: true,
  });
  expect(userinfoCalls.filter((s) => s === 'zoe')).toHaveLength(1);
});

it('ignores a userinfo answer about another subject', async () => {
  const res = await fetch(`${running.baseUrl}${WHOAMI}`, {
    headers: { authorization: `Bearer ${await tokenFor('impostor')}` },
  });
  expect(res.status).toBe(200);
  expect(await userRow('impostor')).toMatchObject({ name: '', email: '' });
});
