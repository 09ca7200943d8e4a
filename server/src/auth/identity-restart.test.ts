/**
 * Keys, sessions and refresh tokens of the embedded provider survive a restart on the same
 * PGlite data dir ("keys generated on first start and persisted, not regenerated").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  authorizeUrl,
  Browser,
  codeFrom,
  exchangeCode,
  freePort,
  pkcePair,
  postToken,
  registerAndSignIn,
  startApp,
  WHOAMI,
} from './identity.test-kit.ts';

let dataDir = '';
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const jwksKids = async (baseUrl: string) =>
  ((await (await fetch(`${baseUrl}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map(
    (k) => k.kid,
  );

// The first start on disk initialises PGlite: ~30 s on a busy 2-core machine.
it('keeps signing keys, sessions and refresh tokens across a restart', { timeout: 120_000 }, async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-idp-restart-'));
  const options = { dataDir, pgliteDir: path.join(dataDir, 'pglite'), port: await freePort() };

  const first = await startApp(options);
  const browser = new Browser(first.baseUrl);
  const tokens = await registerAndSignIn(browser, first.baseUrl, {
    name: 'Resi',
    email: 'resi@example.test',
    password: 'restart password',
  });
  const kidsBefore = await jwksKids(first.baseUrl);
  await first.close();

  const second = await startApp(options);
  try {
    expect(await jwksKids(second.baseUrl)).toEqual(kidsBefore);
    const res = await fetch(`${second.baseUrl}${WHOAMI}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.status).toBe(200);

    const refreshed = await postToken(second.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);

    // The browser's session cookie still signs in silently.
    const { verifier, challenge } = pkcePair();
    const silent = await browser.follow(
      authorizeUrl(second.baseUrl, challenge, { prompt: 'none' }),
      {},
      `${second.baseUrl}/?`,
    );
    await exchangeCode(second.baseUrl, codeFrom(silent.url, second.baseUrl), verifier);
  } finally {
    await second.close();
  }
});
