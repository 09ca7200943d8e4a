/**
 * The account's sign-in sessions at the embedded provider (decision 0074), end to end over HTTP:
 * each browser's sign-in is listed with the browser and OS of its user agent, this session
 * marked; ending one, or all others, stops their refresh and access tokens while this one renews, and so
 * does adding or removing a passkey. A sign-in from a browser the account has not used is mailed.
 */
import { randomUUID } from 'node:crypto';
import type { PasskeyList } from '@heizplan/contracts/passkeys';
import type { SessionList } from '@heizplan/contracts/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  codeFrom,
  exchangeCode,
  openLoginPage,
  postToken,
  type RunningApp,
  readOutbox,
  registerAndSignIn,
  signInWithPassword,
  startApp,
  type TokenSet,
} from './identity.test-kit.ts';
import { SoftAuthenticator } from './passkeys.test-kit.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const EMAIL = 'sabine@example.test';
const PASSWORD = 'sabine password 1';

let running: RunningApp;
let baseUrl: string;

beforeAll(async () => {
  running = await startApp();
  baseUrl = running.baseUrl;
});
afterAll(async () => {
  await running?.close();
});

/** Signs in with the password in a fresh browser whose token requests carry `userAgent`. */
async function signInFrom(userAgent: string, email = EMAIL, password = PASSWORD): Promise<TokenSet> {
  const login = await signInWithPassword(new Browser(baseUrl), baseUrl, email, password);
  const response = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    body: new URLSearchParams({
      client_id: 'heizplan-web',
      grant_type: 'authorization_code',
      code: codeFrom(login.url, baseUrl),
      code_verifier: login.verifier,
      redirect_uri: `${baseUrl}/`,
    }).toString(),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TokenSet;
}

/** Signs in with `authenticator`'s passkey alone (as the login page's button does) and exchanges the code. */
async function signInFromWithPasskey(authenticator: SoftAuthenticator): Promise<TokenSet> {
  const browser = new Browser(baseUrl);
  const login = await openLoginPage(browser, baseUrl);
  const uid = new URL(login.url).pathname.split('/')[3] ?? '';
  const optionsResponse = await browser.request(`/auth/interaction/${uid}/passkey/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  const assertion = authenticator.assert((await optionsResponse.json()) as { challenge: string });
  const done = await browser.submit(
    `/auth/interaction/${uid}/passkey`,
    { lang: 'de', response: JSON.stringify(assertion) },
    `${baseUrl}/?`,
  );
  return exchangeCode(baseUrl, codeFrom(done.url, baseUrl), login.verifier);
}

const api = (tokens: TokenSet, method: string, path: string) =>
  fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${tokens.access_token}` } });

const list = async (tokens: TokenSet) =>
  (await (await api(tokens, 'GET', '/api/me/sessions')).json()) as SessionList;

const refreshes = async (tokens: TokenSet) =>
  (await postToken(baseUrl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }))
    .status;

describe('sign-in sessions', () => {
  it('lists, ends one and ends all others', async () => {
    const first = await registerAndSignIn(new Browser(baseUrl), baseUrl, {
      name: 'Sabine',
      email: EMAIL,
      password: PASSWORD,
    });
    expect((await api(first, 'GET', '/api/me/')).status).toBe(200);
    const firefox = await signInFrom(FIREFOX_WINDOWS);

    const both = await list(firefox);
    expect(both.results).toHaveLength(2);
    const mine = both.results.find((s) => s.current);
    expect(mine).toMatchObject({ browser: 'Firefox', os: 'Windows', current: true });
    const other = both.results.find((s) => !s.current);
    expect(other).toBeDefined();
    expect((await list(first)).results.find((s) => s.current)?.id).toBe(other?.id);

    // Ending the other session stops its refresh token; this one still renews.
    expect((await api(firefox, 'DELETE', `/api/me/sessions/${other?.id}`)).status).toBe(204);
    expect(await refreshes(first)).toBe(400);
    // Its access token stops at once too, not when it expires.
    expect((await api(first, 'GET', '/api/me/')).status).toBe(401);
    expect((await api(firefox, 'GET', '/api/me/')).status).toBe(200);
    // Also on the units page, whose statement checks the caller itself: 401, not the 404 of a stranger.
    const units = `/api/companies/${randomUUID()}/units`;
    expect((await api(first, 'GET', units)).status).toBe(401);
    expect((await api(firefox, 'GET', units)).status).toBe(404);
    expect((await list(firefox)).results.map((s) => s.id)).toEqual([mine?.id]);
    expect((await api(firefox, 'DELETE', `/api/me/sessions/${other?.id}`)).status).toBe(404);

    // Ending all others leaves only this one.
    const safari = await signInFrom(SAFARI_MAC);
    expect((await list(firefox)).results.map((s) => s.browser).sort()).toEqual(['Firefox', 'Safari']);
    expect((await api(firefox, 'DELETE', '/api/me/sessions?others=true')).status).toBe(204);
    expect(await refreshes(safari)).toBe(400);
    expect((await api(safari, 'GET', '/api/me/sessions')).status).toBe(401);
    expect(await refreshes(firefox)).toBe(200);
    expect((await list(firefox)).results.map((s) => s.id)).toEqual([mine?.id]);
  });

  it('ends the other sessions when a passkey is added or removed, keeping this one', async () => {
    const laptop = await signInFrom(FIREFOX_WINDOWS);
    const phone = await signInFrom(SAFARI_MAC);
    const authenticator = new SoftAuthenticator(baseUrl);
    const optionsResponse = await fetch(`${baseUrl}/api/me/passkeys/registration-options`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptop.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    const options = (await optionsResponse.json()) as { challenge: string; user: { id: string } };
    const created = await fetch(`${baseUrl}/api/me/passkeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptop.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Laptop', response: authenticator.register(options) }),
    });
    expect(created.status).toBe(201);
    expect(await refreshes(phone)).toBe(400);
    const renewed = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: laptop.refresh_token ?? '',
    });
    expect(renewed.status).toBe(200);
    const current = (await renewed.json()) as TokenSet;
    const tablet = await signInFromWithPasskey(authenticator);
    const passkeys = (await (await api(current, 'GET', '/api/me/passkeys')).json()) as PasskeyList;
    const id = passkeys.results[0]?.id ?? '';
    expect((await api(current, 'DELETE', `/api/me/passkeys/${id}`)).status).toBe(204);
    expect(await refreshes(tablet)).toBe(400);
    expect((await list(current)).results.map((s) => s.current)).toEqual([true]);
  });

  it('mails a sign-in from a new browser, not one from a known browser or the first', async () => {
    const email = 'nora@example.test';
    const password = 'nora password 1';
    const newSignIns = async () =>
      (await readOutbox(running.dataDir)).filter(
        (mail) => mail.includes(`To: ${email}`) && mail.includes('Subject: Neue Anmeldung bei Heizplan'),
      );
    await registerAndSignIn(new Browser(baseUrl), baseUrl, { name: 'Nora', email, password });
    expect(await newSignIns()).toEqual([]);
    await signInFrom(FIREFOX_WINDOWS, email, password);
    const [mail, ...more] = await newSignIns();
    expect(more).toEqual([]);
    expect(mail).toContain('Firefox auf Windows');
    expect(mail).toContain('/settings/general');
    // Firefox on Windows is known now: the next sign-in from it sends nothing.
    await signInFrom(FIREFOX_WINDOWS, email, password);
    expect(await newSignIns()).toHaveLength(1);
  });

  it('answers 400 naming the query without others=true', async () => {
    const tokens = await signInFrom(FIREFOX_WINDOWS);
    const response = await api(tokens, 'DELETE', '/api/me/sessions');
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('querystring.others');
  });
});
