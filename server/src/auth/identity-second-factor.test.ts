/**
 * The hosted sign-in with a second factor (decision 0072), end to end over HTTP: after the
 * password an account with a TOTP gets the code page; a current code or an unused recovery code
 * finishes the login, a replayed one does not, wrong codes count in the sign-in throttle, an
 * expired or forged pending token ends the attempt, and an account without TOTP signs in as before.
 * The app's clock is fixed (TOTP steps, pending expiry, throttle); the provider keeps its own.
 */
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { identityAccounts } from '../db/schema.ts';
import type { IdentityDeps } from './accounts.service.ts';
import {
  Browser,
  codeFrom,
  exchangeCode,
  parseForm,
  type RunningApp,
  registerAndSignIn,
  signInWithPassword,
  startApp,
} from './identity.test-kit.ts';
import {
  confirmTotpEnrolment,
  PENDING_TTL_MS,
  startTotpEnrolment,
  totpCode,
} from './second-factor.service.ts';

const clock = testClock(testInstant('2026-12-03T09:00:00Z'));
const STEP_MS = 30_000;
const epochNow = () => Math.floor(clock.now().getTime() / 1000);
let running: RunningApp;
let baseUrl: string;
let deps: IdentityDeps;

beforeAll(async () => {
  running = await startApp({ clock: clock.now });
  baseUrl = running.baseUrl;
  deps = { db: running.database.db, config: running.config, now: clock.now };
});
afterAll(async () => {
  await running?.close();
});

/** Registers `email` through the hosted pages and sets up its TOTP; @returns secret and recovery codes. */
async function accountWithTotp(email: string, password: string) {
  const tokens = await registerAndSignIn(new Browser(baseUrl), baseUrl, { name: email, email, password });
  // The first API call makes the user row, as the app's first request after sign-in does.
  const me = await fetch(`${baseUrl}/api/me/`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(me.status).toBe(200);
  const [account] = await running.database.db
    .select({ id: identityAccounts.id })
    .from(identityAccounts)
    .where(eq(identityAccounts.email, email));
  const id = account?.id ?? '';
  const { secret } = await startTotpEnrolment(deps, id);
  const recoveryCodes = await confirmTotpEnrolment(deps, id, await totpCode(secret, epochNow()));
  // The confirming code's step is taken: sign-ins use the next one.
  clock.advance(STEP_MS);
  return { id, secret, recoveryCodes };
}

/** Password step in a fresh browser: @returns the browser and the code page. */
async function passwordStep(email: string, password: string) {
  const browser = new Browser(baseUrl);
  const step = await signInWithPassword(browser, baseUrl, email, password);
  expect(step.status).toBe(200);
  return { browser, ...step };
}

async function submitCode(browser: Browser, html: string, code: string) {
  const done = await browser.submitForm(html, { code }, `${baseUrl}/?`);
  const signedIn = done.url.startsWith(`${baseUrl}/?`);
  return {
    url: done.url,
    status: done.response.status,
    retryAfter: done.response.headers.get('retry-after'),
    html: signedIn ? '' : await done.response.text(),
    signedIn,
  };
}

describe('sign-in with a second factor', () => {
  it('signs an account without TOTP in straight after the password, as before', async () => {
    await registerAndSignIn(new Browser(baseUrl), baseUrl, {
      name: 'Plain',
      email: 'plain@example.test',
      password: 'plain password 1',
    });
    const browser = new Browser(baseUrl);
    const login = await signInWithPassword(browser, baseUrl, 'plain@example.test', 'plain password 1');
    const tokens = await exchangeCode(baseUrl, codeFrom(login.url, baseUrl), login.verifier);
    expect(decodeJwt(tokens.access_token).email).toBe('plain@example.test');
    // When the session signed in, for the step-up before a factor is added (decision 0078).
    const claims = decodeJwt(tokens.access_token);
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims.auth_time).toBeLessThanOrEqual(Number(claims.iat));
  });

  it('asks for the code after the password and signs in with a current one', async () => {
    const { id, secret } = await accountWithTotp('otto@example.test', 'otto password 1');
    const step = await passwordStep('otto@example.test', 'otto password 1');
    expect(step.url).toContain('/auth/interaction/');
    expect(step.html).toContain('<h1>Bestätigungscode</h1>');
    expect(step.html).toContain('Wiederherstellungscodes');
    expect(step.html).toMatch(
      /<input id="f-code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric"/,
    );
    const form = parseForm(step.html);
    expect(form.action).toMatch(/^\/auth\/interaction\/[\w-]+\/second-factor$/);
    expect(form.hidden.pending).toBeTruthy();

    // Reloading the code page's address goes back to the password form.
    const reload = await step.browser.request(form.action);
    expect(reload.status).toBe(303);
    expect(reload.headers.get('location')).toBe(`${form.action.replace(/\/second-factor$/, '')}?lang=de`);

    const done = await submitCode(step.browser, step.html, await totpCode(secret, epochNow()));
    expect(done.signedIn).toBe(true);
    const tokens = await exchangeCode(baseUrl, codeFrom(done.url, baseUrl), step.verifier);
    expect(decodeJwt(tokens.access_token).sub).toBe(id);
  });

  it('accepts the code of the step before, never the same step twice', async () => {
    const { secret } = await accountWithTotp('rita@example.test', 'rita password 1');
    // Two steps after the confirming code: the step before now is one not taken yet.
    clock.advance(STEP_MS);
    const previous = await totpCode(secret, epochNow() - 30);
    const first = await passwordStep('rita@example.test', 'rita password 1');
    expect((await submitCode(first.browser, first.html, previous)).signedIn).toBe(true);

    const second = await passwordStep('rita@example.test', 'rita password 1');
    const replay = await submitCode(second.browser, second.html, previous);
    expect(replay.signedIn).toBe(false);
    expect(replay.status).toBe(401);
    expect(replay.html).toContain('Der Code stimmt nicht.');
    // The page stays usable: the current step's code still signs in.
    expect((await submitCode(second.browser, replay.html, await totpCode(secret, epochNow()))).signedIn).toBe(
      true,
    );
  });

  it('accepts a recovery code once', async () => {
    const { recoveryCodes } = await accountWithTotp('rosa@example.test', 'rosa password 1');
    const code = (recoveryCodes[0] ?? '').toUpperCase();
    const first = await passwordStep('rosa@example.test', 'rosa password 1');
    expect((await submitCode(first.browser, first.html, code)).signedIn).toBe(true);
    const second = await passwordStep('rosa@example.test', 'rosa password 1');
    const again = await submitCode(second.browser, second.html, code);
    expect(again.status).toBe(401);
    expect(again.html).toContain('Der Code stimmt nicht.');
    expect((await submitCode(second.browser, again.html, recoveryCodes[1] ?? '')).signedIn).toBe(true);
  });

  it('locks the account after five wrong codes, with Retry-After, even for the right code', async () => {
    const { secret } = await accountWithTotp('tim@example.test', 'tim password 12');
    const step = await passwordStep('tim@example.test', 'tim password 12');
    const right = await totpCode(secret, epochNow());
    const wrong = right === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    let html = step.html;
    let last: Awaited<ReturnType<typeof submitCode>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await submitCode(step.browser, html, wrong);
      statuses.push(last.status);
      html = last.html;
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(Number(last?.retryAfter)).toBeGreaterThan(0);
    expect(html).toContain('Zu viele fehlgeschlagene Anmeldungen');
    const locked = await submitCode(step.browser, html, right);
    expect(locked.status).toBe(429);
    expect(locked.signedIn).toBe(false);
    // A correct password does not forgive the wrong codes.
    const retry = await signInWithPassword(
      new Browser(baseUrl),
      baseUrl,
      'tim@example.test',
      'tim password 12',
    );
    expect(retry.status).toBe(429);
  });

  it('ends the attempt when the pending token expired or was changed', async () => {
    const { secret } = await accountWithTotp('eva@example.test', 'eva password 12');
    const step = await passwordStep('eva@example.test', 'eva password 12');
    const form = parseForm(step.html);
    const forged = await step.browser.submit(
      form.action,
      { ...form.hidden, pending: `${form.hidden.pending}x`, code: await totpCode(secret, epochNow()) },
      `${baseUrl}/?`,
    );
    expect(forged.response.status).toBe(400);
    expect(await forged.response.text()).toContain('Die Anmeldung ist abgelaufen oder ungültig.');

    clock.advance(PENDING_TTL_MS + 1);
    const late = await submitCode(step.browser, step.html, await totpCode(secret, epochNow()));
    expect(late.signedIn).toBe(false);
    expect(late.status).toBe(400);
    expect(late.html).toContain('Die Anmeldung ist abgelaufen oder ungültig.');
  });
});
