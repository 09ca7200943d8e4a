/**
 * The embedded identity provider end to end over HTTP: hosted registration and
 * login, authorization code + PKCE, JWT access tokens the API accepts, refresh-token rotation,
 * silent login, logout, mail links for verification and password reset, brute-force backoff.
 */
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityAccounts, users } from '../db/schema.ts';
import { scriptHashSource } from '../http/security-headers.ts';
import {
  authorizeUrl,
  Browser,
  codeFrom,
  exchangeCode,
  lastMailedLink,
  pkcePair,
  postToken,
  type RunningApp,
  registerAndSignIn,
  signInWithPassword,
  startApp,
  WHOAMI,
} from './identity.test-kit.ts';
import { FORM_MESSAGES_SCRIPT } from './pages.ts';

let running: RunningApp;
let baseUrl: string;

beforeAll(async () => {
  // As behind a reverse proxy: the per-IP limits below key on X-Forwarded-For.
  running = await startApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  baseUrl = running.baseUrl;
});
afterAll(async () => {
  await running?.close();
});

const whoami = (token?: string) =>
  fetch(`${baseUrl}${WHOAMI}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('code flow with PKCE through the hosted pages', () => {
  it('registers, signs in and gets a JWT for the API with the profile claims', async () => {
    const browser = new Browser(baseUrl);
    const tokens = await registerAndSignIn(browser, baseUrl, {
      name: '  Ada Lovelace ',
      email: 'Ada@Example.test',
      password: 'correct horse battery',
    });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();

    const claims = decodeJwt(tokens.access_token);
    expect(claims.iss).toBe(`${baseUrl}/oidc`);
    expect(claims.aud).toBe('heizplan-api');
    expect(claims).toMatchObject({ name: 'Ada Lovelace', email: 'Ada@Example.test', email_verified: false });
    // Registered on the German pages (the default): the app's setup preselects German from this.
    expect(decodeJwt(tokens.id_token ?? '')).toMatchObject({ locale: 'de' });
    await expect(running.identity?.verifyToken(tokens.access_token)).resolves.toMatchObject({
      sub: claims.sub,
    });

    const ok = await whoami(tokens.access_token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ sub: claims.sub, email: 'Ada@Example.test' });
    const [user] = await running.database.db
      .select()
      .from(users)
      .where(eq(users.id, String(claims.sub)));
    expect(user).toMatchObject({ name: 'Ada Lovelace', email: 'Ada@Example.test' });
  });

  it('rejects a missing or tampered token with 401 problem+json', async () => {
    expect((await whoami()).status).toBe(401);
    const browser = new Browser(baseUrl);
    const tokens = await registerAndSignIn(browser, baseUrl, {
      name: 'Tamper',
      email: 'tamper@example.test',
      password: 'long enough password',
    });
    const [head, body, sig] = tokens.access_token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(tokens.access_token), sub: 'someone-else' }),
    ).toString('base64url');
    const res = await whoami(`${head}.${forged}.${sig}`);
    expect(body).not.toBe(forged);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses a token request without the PKCE verifier', async () => {
    const browser = new Browser(baseUrl);
    await registerAndSignIn(browser, baseUrl, {
      name: 'P',
      email: 'pkce@example.test',
      password: 'pkce password 1',
    });
    const { challenge } = pkcePair();
    const { url } = await browser.follow(authorizeUrl(baseUrl, challenge), {}, `${baseUrl}/?`);
    const res = await postToken(baseUrl, {
      grant_type: 'authorization_code',
      code: codeFrom(url, baseUrl),
      redirect_uri: `${baseUrl}/`,
      code_verifier: pkcePair().verifier,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('shows German or English pages by Accept-Language, with a switch link', async () => {
    const browser = new Browser(baseUrl);
    const { challenge } = pkcePair();
    const de = await browser.follow(authorizeUrl(baseUrl, challenge), {
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    const deHtml = await de.response.text();
    expect(deHtml).toContain('<html lang="de">');
    expect(deHtml).toContain('Passwort vergessen?');
    // The browser's own validation bubbles would speak the browser's language: the page's
    // script replaces them with these texts, and the CSP lets exactly that script run.
    expect(deHtml).toContain('data-msg-missing="Bitte füllen Sie dieses Feld aus."');
    expect(deHtml).toContain('data-msg-type="Bitte geben Sie eine gültige E-Mail-Adresse ein."');
    expect(deHtml).toContain(`<script>${FORM_MESSAGES_SCRIPT}</script>`);
    expect(de.response.headers.get('content-security-policy')).toContain(
      scriptHashSource(FORM_MESSAGES_SCRIPT),
    );
    const en = await browser.follow(`${new URL(de.url).pathname}?lang=en`);
    const enHtml = await en.response.text();
    expect(enHtml).toContain('<html lang="en">');
    expect(enHtml).toContain('Forgot password?');
    expect(enHtml).toContain('>Deutsch</a>');

    const { challenge: other } = pkcePair();
    const asked = await new Browser(baseUrl).follow(authorizeUrl(baseUrl, other, { ui_locales: 'en' }), {
      headers: { 'accept-language': 'de-DE' },
    });
    expect(await asked.response.text()).toContain('<html lang="en">');
  });
});

describe('auth config for the SPA', () => {
  it('describes the embedded provider without a token', async () => {
    const res = await fetch(`${baseUrl}/api/public/auth-config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: `${baseUrl}/oidc`,
      client_id: 'heizplan-web',
      audience: 'heizplan-api',
      scope: 'openid profile email offline_access',
      resource: `${baseUrl}/api`,
      public_url: baseUrl,
    });
  });
});

describe('sessions', () => {
  it('rotates refresh tokens: the new one works, the used one is rejected', async () => {
    const browser = new Browser(baseUrl);
    const first = await registerAndSignIn(browser, baseUrl, {
      name: 'Rota',
      email: 'rota@example.test',
      password: 'rotation password',
    });
    const refreshed = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await whoami(second.access_token)).status).toBe(200);

    const reused = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
    });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('signs in silently with prompt=none while the session lasts, and not after logout', async () => {
    const browser = new Browser(baseUrl);
    const tokens = await registerAndSignIn(browser, baseUrl, {
      name: 'Silent',
      email: 'silent@example.test',
      password: 'silent password',
    });
    const { verifier, challenge } = pkcePair();
    const silent = await browser.follow(
      authorizeUrl(baseUrl, challenge, { prompt: 'none', redirect_uri: `${baseUrl}/silent-renew.html` }),
      {},
      `${baseUrl}/silent-renew.html?`,
    );
    const code = new URL(silent.url).searchParams.get('code') ?? '';
    const renewed = await postToken(baseUrl, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: `${baseUrl}/silent-renew.html`,
    });
    expect(renewed.status).toBe(200);

    // RP-initiated logout: confirmation page, then back to the app.
    const logoutStart = await browser.follow(
      `/oidc/session/end?${new URLSearchParams({
        id_token_hint: tokens.id_token ?? '',
        post_logout_redirect_uri: `${baseUrl}/`,
        client_id: 'heizplan-web',
      })}`,
    );
    const confirm = await logoutStart.response.text();
    // Asked by the app (valid id_token_hint): the page confirms itself in the browser.
    expect(confirm).toContain('form.submit()');
    const unasked = await new Browser(baseUrl).follow(`/oidc/session/end?client_id=heizplan-web`);
    expect(await unasked.response.text()).not.toContain('form.submit()');
    const xsrf = confirm.match(/name="xsrf" value="([^"]+)"/)?.[1] ?? '';
    const action = confirm.match(/action="([^"]+)"/)?.[1] ?? '';
    const out = await browser.submit(action, { xsrf, logout: 'yes' }, `${baseUrl}/`);
    expect(out.url).toBe(`${baseUrl}/`);

    const after = await browser.follow(
      authorizeUrl(baseUrl, challenge, { prompt: 'none' }),
      {},
      `${baseUrl}/?`,
    );
    expect(new URL(after.url).searchParams.get('error')).toBe('login_required');
  });

  it('gives a deactivated user 401 and no new tokens', async () => {
    const browser = new Browser(baseUrl);
    const tokens = await registerAndSignIn(browser, baseUrl, {
      name: 'Leaver',
      email: 'leaver@example.test',
      password: 'leaving password',
    });
    expect((await whoami(tokens.access_token)).status).toBe(200);
    const sub = String(decodeJwt(tokens.access_token).sub);
    await running.database.db.update(users).set({ active: false }).where(eq(users.id, sub));

    const res = await whoami(tokens.access_token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ detail: 'This account has been deactivated.' });
    const refresh = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(refresh.status).toBe(400);
  });
});

describe('mail links and brute-force protection', () => {
  it('verification link marks the account verified; the next token says so', async () => {
    const browser = new Browser(baseUrl);
    const tokens = await registerAndSignIn(browser, baseUrl, {
      name: 'Vera',
      email: 'vera@example.test',
      password: 'verify me please',
    });
    const sub = String(decodeJwt(tokens.access_token).sub);
    expect((await whoami(tokens.access_token)).status).toBe(200); // provisions the users row
    const link = await lastMailedLink(running.dataDir, '/auth/verify/');

    const page = await fetch(`${baseUrl}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('vera@example.test');
    const [account] = await running.database.db
      .select()
      .from(identityAccounts)
      .where(eq(identityAccounts.id, sub));
    expect(account?.emailVerified).toBe(true);
    const [user] = await running.database.db.select().from(users).where(eq(users.id, sub));
    expect(user?.emailVerified).toBe(true);

    const refreshed = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    const next = (await refreshed.json()) as { access_token: string };
    expect(decodeJwt(next.access_token).email_verified).toBe(true);

    expect((await fetch(`${baseUrl}${link}`)).status).toBe(400); // single use
  });

  it('forgot password: mailed link sets a new password; the old one and every session stop working', async () => {
    const registering = new Browser(baseUrl);
    const other = await registerAndSignIn(registering, baseUrl, {
      name: 'Fay',
      email: 'fay@example.test',
      password: 'old password 1',
    });

    const browser = new Browser(baseUrl);
    const forgot = await browser.follow('/auth/forgot?lang=en');
    const sent = await browser.submitForm(await forgot.response.text(), { email: 'FAY@example.test' });
    expect(await sent.response.text()).toContain('we have sent a reset link');
    const link = await lastMailedLink(running.dataDir, '/auth/reset/');

    const form = await (await browser.follow(link)).response.text();
    const mismatch = await browser.submitForm(form, {
      password: 'new password 22',
      password2: 'new password 23',
    });
    expect(mismatch.response.status).toBe(400);
    expect(await mismatch.response.text()).toContain('The passwords do not match');
    const tooShort = await browser.submitForm(form, { password: 'short', password2: 'short' });
    expect(tooShort.response.status).toBe(400);
    const done = await browser.submitForm(form, {
      password: 'new password 22',
      password2: 'new password 22',
    });
    expect(done.response.status).toBe(200);

    // The session signed in before the reset is over: its access token, refresh token and
    // browser session at the provider.
    const stale = await whoami(other.access_token);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toMatchObject({ detail: expect.stringContaining('password was changed') });
    const refresh = await postToken(baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: other.refresh_token ?? '',
    });
    expect(refresh.status).toBe(400);
    const { challenge } = pkcePair();
    const silent = await registering.follow(
      authorizeUrl(baseUrl, challenge, { prompt: 'none', redirect_uri: `${baseUrl}/silent-renew.html` }),
      {},
      `${baseUrl}/silent-renew.html?`,
    );
    expect(new URL(silent.url).searchParams.get('error')).toBe('login_required');

    expect(
      (await signInWithPassword(new Browser(baseUrl), baseUrl, 'fay@example.test', 'old password 1')).status,
    ).toBe(401);
    const ok = await signInWithPassword(new Browser(baseUrl), baseUrl, 'fay@example.test', 'new password 22');
    const fresh = await exchangeCode(baseUrl, codeFrom(ok.url, baseUrl), ok.verifier);
    expect((await whoami(fresh.access_token)).status).toBe(200);
    expect(
      (await browser.submitForm(form, { password: 'third password', password2: 'third password' })).response
        .status,
    ).toBe(400); // link used
  });

  it('caps reset-mail requests per client IP at 5 per 15 minutes', async () => {
    const browser = new Browser(baseUrl);
    const form = await (await browser.follow('/auth/forgot')).response.text();
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const action = form.match(/action="([^"]+)"/)?.[1] ?? '';
      const res = await browser.request(action, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=nobody%40example.test',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers 400, not 500, to a NUL in a form field (PostgreSQL cannot hold it)', async () => {
    const login = await signInWithPassword(new Browser(baseUrl), baseUrl, 'nul\u0000@example.test', 'x');
    expect(login.status).toBe(400);
    const browser = new Browser(baseUrl);
    const form = await (await browser.follow('/auth/forgot')).response.text();
    const forgot = await browser.submitForm(form, { email: 'nul\u0000@example.test' });
    expect(forgot.response.status).toBe(400);
  });

  it('locks an account after 5 wrong passwords, even for the right one, with a clear message', async () => {
    const registering = new Browser(baseUrl);
    await registerAndSignIn(registering, baseUrl, {
      name: 'Bruno',
      email: 'bruno@example.test',
      password: 'the real password',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await signInWithPassword(new Browser(baseUrl), baseUrl, 'bruno@example.test', `guess ${i}`)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await signInWithPassword(
      new Browser(baseUrl),
      baseUrl,
      'bruno@example.test',
      'the real password',
    );
    expect(locked.status).toBe(429);
    expect(locked.html).toMatch(/Zu viele fehlgeschlagene Anmeldungen|Too many failed sign-ins/);
  });

  it('rejects a short password and a taken email on the registration page', async () => {
    const browser = new Browser(baseUrl);
    await registerAndSignIn(browser, baseUrl, {
      name: 'Dup',
      email: 'dup@example.test',
      password: 'dup password 1',
    });
    const again = new Browser(baseUrl);
    const { html } = await (async () => {
      const { challenge } = pkcePair();
      const login = await again.follow(authorizeUrl(baseUrl, challenge));
      const loginHtml = await login.response.text();
      const registerHref = loginHtml.match(/href="(\/auth\/interaction\/[\w-]+\/register[^"]*)"/)?.[1] ?? '';
      const page = await again.follow(registerHref.replaceAll('&amp;', '&'));
      return { html: await page.response.text() };
    })();
    const taken = await again.submitForm(html, {
      name: 'Dup',
      email: 'DUP@example.test',
      password: 'another pw 123',
      lang: 'en',
    });
    expect(taken.response.status).toBe(409);
    expect(await taken.response.text()).toContain('An account with this email address already exists.');
    const short = await again.submitForm(html, {
      name: 'X',
      email: 'x@example.test',
      password: 'short',
      lang: 'en',
    });
    expect(short.response.status).toBe(400);
    expect(await short.response.text()).toContain('at least 10 characters');
  });
});
