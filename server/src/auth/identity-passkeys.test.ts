/**
 * Passkeys end to end over HTTP (decision 0074), with a software authenticator (ES256, "none"
 * attestation): registering through `/api/me/passkeys`, signing in with one instead of email and
 * password, and as the second factor after the password; an answer replayed, one with a counter
 * that did not grow, one from another account's passkey and one for another origin are refused
 * and count in the sign-in throttle. The app's clock is fixed (challenges, throttle).
 */
import type { Passkey, PasskeyList } from '@heizplan/contracts/passkeys';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { identityAccounts } from '../db/schema.ts';
import {
  Browser,
  codeFrom,
  exchangeCode,
  openLoginPage,
  parseForm,
  type RunningApp,
  registerAndSignIn,
  signInWithPassword,
  startApp,
} from './identity.test-kit.ts';
import { CHALLENGE_TTL_MS } from './passkeys.service.ts';
import { SoftAuthenticator } from './passkeys.test-kit.ts';
import { confirmTotpEnrolment, startTotpEnrolment, totpCode } from './second-factor.service.ts';

const clock = testClock(testInstant('2026-12-03T09:00:00Z'));
let running: RunningApp;
let baseUrl: string;

beforeAll(async () => {
  running = await startApp({ clock: clock.now });
  baseUrl = running.baseUrl;
});
afterAll(async () => {
  await running?.close();
});

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** Registers `email` through the hosted pages; @returns its id and an access token. */
async function person(email: string): Promise<Person> {
  const password = `${email} password`;
  const tokens = await registerAndSignIn(new Browser(baseUrl), baseUrl, { name: email, email, password });
  // The first API call makes the user row, as the app's first request after sign-in does.
  expect((await api(tokens.access_token, 'GET', '/api/me/')).status).toBe(200);
  const [account] = await running.database.db
    .select({ id: identityAccounts.id })
    .from(identityAccounts)
    .where(eq(identityAccounts.email, email));
  return { id: account?.id ?? '', email, password, token: tokens.access_token };
}

/** The WebAuthn options members the tests look at. */
interface Options {
  challenge: string;
  user: { id: string };
  [member: string]: unknown;
}
interface Problem {
  code?: string;
  errors: { field: string; code?: string }[];
}

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

function api(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Registers a new software passkey for `who` under `name`; @returns the authenticator. */
async function addPasskey(who: Person, name = 'Laptop') {
  const authenticator = new SoftAuthenticator(baseUrl);
  const options = await json<Options>(
    api(who.token, 'POST', '/api/me/passkeys/registration-options', { password: who.password }),
  );
  const created = await api(who.token, 'POST', '/api/me/passkeys', {
    name,
    response: authenticator.register(options),
  });
  expect(created.status).toBe(201);
  return authenticator;
}

/** The interaction uid of a login page's address. */
const uidOf = (url: string) => new URL(url).pathname.split('/')[3] ?? '';

/** The passkey button's options request, as the page's script sends it. */
async function signInOptions(browser: Browser, uid: string, pending = '') {
  const response = await browser.request(`/auth/interaction/${uid}/passkey/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ pending }).toString(),
  });
  return { status: response.status, options: (await response.json()) as Record<string, unknown> };
}

/** Posts a passkey answer as the page's script does; @returns where the browser ended. */
async function postAssertion(browser: Browser, uid: string, assertion: unknown, pending?: string) {
  const done = await browser.submit(
    `/auth/interaction/${uid}/passkey`,
    { lang: 'de', response: JSON.stringify(assertion), ...(pending ? { pending } : {}) },
    `${baseUrl}/?`,
  );
  const signedIn = done.url.startsWith(`${baseUrl}/?`);
  return {
    ...done,
    signedIn,
    status: done.response.status,
    html: signedIn ? '' : await done.response.text(),
  };
}

/** Signs in with the authenticator alone on a fresh login page; @returns the outcome and the verifier. */
async function passkeySignIn(authenticator: SoftAuthenticator, assertOptions = {}) {
  const browser = new Browser(baseUrl);
  const login = await openLoginPage(browser, baseUrl);
  const uid = uidOf(login.url);
  const { options } = await signInOptions(browser, uid);
  const assertion = authenticator.assert(options as { challenge: string }, assertOptions);
  return {
    ...(await postAssertion(browser, uid, assertion)),
    verifier: login.verifier,
    assertion,
    browser,
    uid,
  };
}

describe('passkeys', () => {
  it('registers a passkey, lists, renames and removes it', async () => {
    const paula = await person('paula@example.test');
    const options = await json<Options>(
      api(paula.token, 'POST', '/api/me/passkeys/registration-options', { password: paula.password }),
    );
    // Relying party from PUBLIC_URL (the host, no port), a discoverable credential with UV.
    expect(options.rp).toEqual({ name: 'Heizplan', id: '127.0.0.1' });
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(paula.id);
    const authenticator = new SoftAuthenticator(baseUrl);
    const response = authenticator.register(options);
    const created = await api(paula.token, 'POST', '/api/me/passkeys', { name: ' Laptop ', response });
    expect(created.status).toBe(201);
    const passkey = await json<Passkey>(created);
    expect(passkey).toMatchObject({
      name: 'Laptop',
      last_used_at: null,
      created_at: clock.now().toISOString(),
    });

    // The challenge is used up: the same answer again is refused on `body.response`.
    const again = await api(paula.token, 'POST', '/api/me/passkeys', { name: 'Laptop', response });
    expect(again.status).toBe(400);
    expect((await json<Problem>(again)).errors[0]).toMatchObject({
      field: 'body.response',
      code: 'passkey_challenge_expired',
    });
    // The next options exclude it (one authenticator, one passkey).
    const next = await json<Options>(
      api(paula.token, 'POST', '/api/me/passkeys/registration-options', { password: paula.password }),
    );
    expect(next.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);

    const renamed = await api(paula.token, 'PATCH', `/api/me/passkeys/${passkey.id}`, { name: 'Büro' });
    expect(renamed.status).toBe(200);
    expect((await json<Passkey>(renamed)).name).toBe('Büro');
    const list = await json<PasskeyList>(api(paula.token, 'GET', '/api/me/passkeys'));
    expect(list.results.map((p) => p.name)).toEqual(['Büro']);

    // Another account neither renames nor removes it.
    const otto = await person('otto.pk@example.test');
    expect((await api(otto.token, 'PATCH', `/api/me/passkeys/${passkey.id}`, { name: 'x' })).status).toBe(
      404,
    );
    expect((await api(otto.token, 'DELETE', `/api/me/passkeys/${passkey.id}`)).status).toBe(404);

    expect((await api(paula.token, 'DELETE', `/api/me/passkeys/${passkey.id}`)).status).toBe(204);
    expect((await json<PasskeyList>(api(paula.token, 'GET', '/api/me/passkeys'))).results).toEqual([]);
  });

  it('refuses a registration for another origin or after the challenge expired', async () => {
    const rolf = await person('rolf@example.test');
    const authenticator = new SoftAuthenticator(baseUrl);
    const options = await json<Options>(
      api(rolf.token, 'POST', '/api/me/passkeys/registration-options', { password: rolf.password }),
    );
    const foreign = authenticator.register(options, { origin: 'https://evil.example' });
    const refused = await api(rolf.token, 'POST', '/api/me/passkeys', { name: 'x', response: foreign });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await json<Problem>(refused)).errors[0]).toMatchObject({
      field: 'body.response',
      code: 'passkey_not_verified',
    });

    const late = await json<Options>(
      api(rolf.token, 'POST', '/api/me/passkeys/registration-options', { password: rolf.password }),
    );
    clock.advance(CHALLENGE_TTL_MS + 1);
    const expired = await api(rolf.token, 'POST', '/api/me/passkeys', {
      name: 'x',
      response: authenticator.register(late),
    });
    expect((await json<Problem>(expired)).code).toBe('passkey_challenge_expired');
  });

  it('signs in with a passkey instead of email and password', async () => {
    const sina = await person('sina@example.test');
    const authenticator = await addPasskey(sina);
    const browser = new Browser(baseUrl);
    const login = await openLoginPage(browser, baseUrl);
    expect(login.html).toContain('Mit Passkey anmelden');
    const { status, options } = await signInOptions(browser, uidOf(login.url));
    expect(status).toBe(200);
    // A discoverable credential: the authenticator offers its own, none are named.
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('127.0.0.1');
    const done = await postAssertion(
      browser,
      uidOf(login.url),
      authenticator.assert(options as { challenge: string }),
    );
    expect(done.signedIn).toBe(true);
    const tokens = await exchangeCode(baseUrl, codeFrom(done.url, baseUrl), login.verifier);
    expect(decodeJwt(tokens.access_token).sub).toBe(sina.id);
    const [listed] = (await json<PasskeyList>(api(sina.token, 'GET', '/api/me/passkeys'))).results;
    expect(listed?.last_used_at).toBe(clock.now().toISOString());
  });

  it('refuses a replayed answer and one whose counter did not grow', async () => {
    const rudi = await person('rudi@example.test');
    const authenticator = await addPasskey(rudi);
    const first = await passkeySignIn(authenticator);
    expect(first.signedIn).toBe(true);

    // The same answer again, on a new login: its challenge is used up.
    const browser = new Browser(baseUrl);
    const login = await openLoginPage(browser, baseUrl);
    const replay = await postAssertion(browser, uidOf(login.url), first.assertion);
    expect(replay.signedIn).toBe(false);
    expect(replay.status).toBe(401);
    expect(replay.html).toContain('Der Passkey wurde nicht erkannt.');

    // A fresh challenge signed with the old counter: a cloned authenticator (§6.1.1).
    const cloned = await passkeySignIn(authenticator, { counter: authenticator.counter });
    expect(cloned.signedIn).toBe(false);
    expect(cloned.status).toBe(401);
    // The counter moved on by the first sign-in only: the next one still works.
    expect((await passkeySignIn(authenticator)).signedIn).toBe(true);
  });

  it('refuses a passkey without user verification as the only factor', async () => {
    const uwe = await person('uwe@example.test');
    const authenticator = await addPasskey(uwe);
    expect((await passkeySignIn(authenticator, { userVerified: false })).signedIn).toBe(false);
  });

  it('asks an account with a passkey for it after the password', async () => {
    const pia = await person('pia@example.test');
    const authenticator = await addPasskey(pia);
    const browser = new Browser(baseUrl);
    const step = await signInWithPassword(browser, baseUrl, pia.email, pia.password);
    expect(step.status).toBe(200);
    expect(step.html).toContain('<h1>Passkey bestätigen</h1>');
    expect(step.html).toContain('Passkey verwenden');
    expect(step.html).not.toContain('name="code"');
    const pending = parseForm(step.html).hidden.pending ?? '';
    expect(pending).not.toBe('');
    const uid = uidOf(step.url);
    const { options } = await signInOptions(browser, uid, pending);
    // As a second factor the account's passkeys are named.
    expect(options.allowCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
    const done = await postAssertion(
      browser,
      uid,
      authenticator.assert(options as { challenge: string }),
      pending,
    );
    expect(done.signedIn).toBe(true);
    const tokens = await exchangeCode(baseUrl, codeFrom(done.url, baseUrl), step.verifier);
    expect(decodeJwt(tokens.access_token).sub).toBe(pia.id);
  });

  it('offers the passkey beside the code to an account with both', async () => {
    const tom = await person('tom.pk@example.test');
    const deps = { db: running.database.db, config: running.config, now: clock.now };
    const { secret } = await startTotpEnrolment(deps, tom.id);
    await confirmTotpEnrolment(
      deps,
      tom.id,
      await totpCode(secret, Math.floor(clock.now().getTime() / 1000)),
    );
    const authenticator = await addPasskey(tom);
    const browser = new Browser(baseUrl);
    const step = await signInWithPassword(browser, baseUrl, tom.email, tom.password);
    expect(step.html).toContain('<h1>Bestätigungscode</h1>');
    expect(step.html).toContain('name="code"');
    expect(step.html).toContain('Passkey verwenden');
    const pending = parseForm(step.html).hidden.pending ?? '';
    const uid = uidOf(step.url);
    const { options } = await signInOptions(browser, uid, pending);
    const done = await postAssertion(
      browser,
      uid,
      authenticator.assert(options as { challenge: string }),
      pending,
    );
    expect(done.signedIn).toBe(true);
  });

  it('refuses another account’s passkey as the second factor and counts it in the throttle', async () => {
    const ada = await person('ada@example.test');
    const eve = await person('eve.pk@example.test');
    await addPasskey(ada);
    const evesKey = await addPasskey(eve);
    const browser = new Browser(baseUrl);
    const step = await signInWithPassword(browser, baseUrl, ada.email, ada.password);
    const pending = parseForm(step.html).hidden.pending ?? '';
    const uid = uidOf(step.url);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof postAssertion>> | undefined;
    for (let i = 0; i < 5; i++) {
      const { options } = await signInOptions(browser, uid, pending);
      last = await postAssertion(browser, uid, evesKey.assert(options as { challenge: string }), pending);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(Number(last?.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.html).toContain('Zu viele fehlgeschlagene Anmeldungen');
  });

  it('refuses the options of a forged pending token', async () => {
    const browser = new Browser(baseUrl);
    const login = await openLoginPage(browser, baseUrl);
    const { status, options } = await signInOptions(browser, uidOf(login.url), 'forged.token');
    expect(status).toBe(400);
    expect(options).toMatchObject({ status: 400, errors: [{ field: 'body.pending' }] });
  });

  it('loads the WebAuthn bundle by the page’s nonce and allows nothing else', async () => {
    const browser = new Browser(baseUrl);
    const { verifier: _, ...login } = await openLoginPage(browser, baseUrl);
    const page = await browser.request(login.url);
    const csp = page.headers.get('content-security-policy') ?? '';
    const html = await page.text();
    const nonce = html.match(/<script nonce="([^"]+)" src="\/auth\/assets\/simplewebauthn-browser.js">/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain(`'nonce-${nonce}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).toMatch(/^default-src 'none'/);
    // A fresh nonce per answer.
    const again = await browser.request(login.url);
    expect(again.headers.get('content-security-policy')).not.toContain(`'nonce-${nonce}'`);
    const bundle = await fetch(`${baseUrl}/auth/assets/simplewebauthn-browser.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(await bundle.text()).toContain('SimpleWebAuthnBrowser');
  });
});
