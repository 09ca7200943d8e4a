/**
 * "Trust this browser" after the code step (decision 0078), end to end over HTTP: offered only
 * when every company of the account allows remembering, it sets an HttpOnly cookie below /auth;
 * the same browser then skips the code step, another browser does not, and a password change
 * ends the trust. The app's clock is fixed; the provider keeps its own.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { identityAccounts } from '../db/schema.ts';
import type { IdentityDeps } from './accounts.service.ts';
import {
  Browser,
  type RunningApp,
  registerAndSignIn,
  signInWithPassword,
  startApp,
} from './identity.test-kit.ts';
import {
  confirmTotpEnrolment,
  issueTrustedDevice,
  isTrustedDevice,
  resetSecondFactors,
  startTotpEnrolment,
  TRUSTED_DEVICE_COOKIE,
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

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** An account with a TOTP, admin of its own company remembering browsers for `days`. */
async function admin(email: string, password: string, days: 0 | 30) {
  const tokens = await registerAndSignIn(new Browser(baseUrl), baseUrl, { name: email, email, password });
  const token = tokens.access_token;
  const created = await api(token, 'POST', `/api/companies/setup?company_name=${encodeURIComponent(email)}`);
  expect(created.status).toBe(201);
  const company = (await created.json()) as { id: string };
  const patched = await api(token, 'PATCH', `/api/companies/${company.id}/`, { remember_device_days: days });
  expect(patched.status).toBe(200);
  const [account] = await running.database.db
    .select({ id: identityAccounts.id })
    .from(identityAccounts)
    .where(eq(identityAccounts.email, email));
  const id = account?.id ?? '';
  const { secret } = await startTotpEnrolment(deps, id);
  await confirmTotpEnrolment(deps, id, await totpCode(secret, epochNow()));
  clock.advance(STEP_MS);
  return { id, token, secret };
}

/** Password, then the code (ticking "trust this browser" when `remember`); @returns whether signed in. */
async function signInWithCode(
  browser: Browser,
  email: string,
  password: string,
  secret: string,
  remember: boolean,
) {
  const step = await signInWithPassword(browser, baseUrl, email, password);
  expect(step.html).toContain('<h1>Bestätigungscode</h1>');
  const fields = { code: await totpCode(secret, epochNow()), ...(remember ? { remember: 'on' } : {}) };
  const done = await browser.submitForm(step.html, fields, `${baseUrl}/?`);
  clock.advance(STEP_MS);
  return { html: step.html, signedIn: done.url.startsWith(`${baseUrl}/?`), response: done.response };
}

describe('trusting a browser for the code step', () => {
  it('offers it where every company allows it, skips the code on that browser only, until the password changes', async () => {
    const email = 'trudi@example.test';
    const password = 'trudi password 1';
    const { token, secret } = await admin(email, password, 30);
    const browser = new Browser(baseUrl);
    const first = await signInWithCode(browser, email, password, secret, true);
    expect(first.html).toMatch(
      /<label class="check"><input type="checkbox" name="remember" value="on"> Diesem Browser 30 Tage vertrauen<\/label>/,
    );
    expect(first.signedIn).toBe(true);

    // The same browser, its sign-in session over: straight in after the password.
    browser.forgetAllBut(TRUSTED_DEVICE_COOKIE);
    const again = await signInWithPassword(browser, baseUrl, email, password);
    expect(again.url.startsWith(`${baseUrl}/?`)).toBe(true);
    // Another browser still gets the code step.
    const other = await signInWithPassword(new Browser(baseUrl), baseUrl, email, password);
    expect(other.html).toContain('<h1>Bestätigungscode</h1>');

    // A password change ends every trusted browser.
    const changed = await api(token, 'PUT', '/api/me/password', {
      currentPassword: password,
      password: 'trudi password 2',
    });
    expect(changed.status).toBe(204);
    browser.forgetAllBut(TRUSTED_DEVICE_COOKIE);
    const after = await signInWithPassword(browser, baseUrl, email, 'trudi password 2');
    expect(after.html).toContain('<h1>Bestätigungscode</h1>');
  });

  it('offers nothing and remembers nothing where a company does not allow it', async () => {
    const email = 'nora-nie@example.test';
    const password = 'nora password 1';
    const { secret } = await admin(email, password, 0);
    const browser = new Browser(baseUrl);
    const first = await signInWithCode(browser, email, password, secret, true);
    expect(first.html).not.toContain('name="remember"');
    expect(first.signedIn).toBe(true);
    browser.forgetAllBut(TRUSTED_DEVICE_COOKIE);
    const again = await signInWithPassword(browser, baseUrl, email, password);
    expect(again.html).toContain('<h1>Bestätigungscode</h1>');
  });
});

describe('the trusted-browser cookie', () => {
  it('names one account, is tamper-proof, and ends with an admin’s factor reset or after its days', async () => {
    const { id } = await admin('resi@example.test', 'resi password 1', 30);
    const value = await issueTrustedDevice(deps, id, 30);
    expect(await isTrustedDevice(deps, value, id)).toBe(true);
    expect(await isTrustedDevice(deps, value, 'another-account')).toBe(false);
    const [payload, signature] = value.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const longer = Buffer.from(JSON.stringify({ ...claims, e: Number(claims.e) * 2 })).toString('base64url');
    expect(await isTrustedDevice(deps, `${longer}.${signature}`, id)).toBe(false);

    const later = await issueTrustedDevice(deps, id, 30);
    clock.advance(30 * 86_400_000);
    expect(await isTrustedDevice(deps, later, id)).toBe(false);

    const fresh = await issueTrustedDevice(deps, id, 30);
    expect(await isTrustedDevice(deps, fresh, id)).toBe(true);
    await resetSecondFactors(deps, id);
    expect(await isTrustedDevice(deps, fresh, id)).toBe(false);
  });
});
