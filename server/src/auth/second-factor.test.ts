/**
 * The second factor (decision 0072): RFC 6238 through the TOTP wrapper, the pending token of the
 * sign-in's code step, and the account API (`/api/me/second-factor…`) on the embedded account
 * store, at a fixed clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { identityAccountPorts } from './account-ports.ts';
import { insertAccount } from './accounts.repository.ts';
import type { IdentityDeps } from './accounts.service.ts';
import { hashPassword } from './password.ts';
import {
  issuePendingToken,
  matchTotp,
  PENDING_TTL_MS,
  readPendingToken,
  TOTP_PERIOD_SECONDS,
  totpCode,
} from './second-factor.service.ts';

/** RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890" (ASCII) in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1234567890, '89005924'],
];

describe('TOTP per RFC 6238', () => {
  it.each(RFC_VECTORS)(
    'at T=%i gives %s (8 digits) and its last six as the 6-digit code',
    async (epoch, code) => {
      expect(await totpCode(RFC_SECRET, epoch, 8)).toBe(code);
      expect(await totpCode(RFC_SECRET, epoch)).toBe(code.slice(2));
      const step = Math.floor(epoch / TOTP_PERIOD_SECONDS);
      expect(await matchTotp(RFC_SECRET, code, epoch, { digits: 8 })).toBe(step);
      expect(await matchTotp(RFC_SECRET, code.slice(2), epoch)).toBe(step);
    },
  );

  it('accepts the previous and the next step, not two steps away', async () => {
    const epoch = 1234567890;
    const step = Math.floor(epoch / TOTP_PERIOD_SECONDS);
    for (const offset of [-1, 0, 1]) {
      const code = await totpCode(RFC_SECRET, epoch + offset * TOTP_PERIOD_SECONDS);
      expect(await matchTotp(RFC_SECRET, code, epoch)).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      const code = await totpCode(RFC_SECRET, epoch + offset * TOTP_PERIOD_SECONDS);
      expect(await matchTotp(RFC_SECRET, code, epoch)).toBeNull();
    }
  });

  it('refuses a step already taken, and malformed codes', async () => {
    const epoch = 1234567890;
    const step = Math.floor(epoch / TOTP_PERIOD_SECONDS);
    const code = await totpCode(RFC_SECRET, epoch);
    expect(await matchTotp(RFC_SECRET, code, epoch, { afterStep: step })).toBeNull();
    expect(await matchTotp(RFC_SECRET, code, epoch, { afterStep: step - 1 })).toBe(step);
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 005924']) {
      expect(await matchTotp(RFC_SECRET, bad, epoch)).toBeNull();
    }
  });
});

const clock = testClock(testInstant('2026-12-03T09:00:00Z'));
const epochNow = () => Math.floor(clock.now().getTime() / 1000);
const PASSWORD = 'correct horse battery';
let t: TestApp;
let deps: IdentityDeps;

beforeAll(async () => {
  t = await buildTestApp({}, { clock: clock.now });
  deps = { db: t.database.db, config: t.config, now: clock.now };
  t.ports.account = identityAccountPorts(t.config, t.database.db, t.app.log, clock.now).account;
});
afterAll(() => t.close());

/** A signed-in user with an embedded account (password PASSWORD). */
async function accountUser(sub: string) {
  expect((await t.call('GET', '/api/me/', undefined, sub)).statusCode).toBe(200);
  await insertAccount(t.database.db, {
    id: sub,
    email: `${sub}@example.test`,
    name: sub,
    passwordHash: await hashPassword(PASSWORD),
  });
  return sub;
}

/** Enrols and confirms a TOTP for `sub`; @returns its secret and recovery codes. */
async function enrol(sub: string) {
  const started = await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, sub);
  expect(started.statusCode).toBe(200);
  const { secret } = started.json() as { secret: string };
  const confirmed = await t.call(
    'POST',
    '/api/me/second-factor/totp/confirm',
    { code: await totpCode(secret, epochNow()) },
    sub,
  );
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes };
}

describe('the pending token of the code step', () => {
  it('names the account for its interaction for five minutes, and nothing forged', async () => {
    const token = await issuePendingToken(deps, 'account-1', 'interaction-1');
    expect(await readPendingToken(deps, token, 'interaction-1')).toBe('account-1');
    expect(await readPendingToken(deps, token, 'interaction-2')).toBeUndefined();
    const [payload, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, a: 'account-2' })).toString('base64url');
    expect(await readPendingToken(deps, `${forged}.${signature}`, 'interaction-1')).toBeUndefined();
    expect(
      await readPendingToken(deps, `${payload}.${signature.slice(1)}x`, 'interaction-1'),
    ).toBeUndefined();
    expect(await readPendingToken(deps, 'garbage', 'interaction-1')).toBeUndefined();
    clock.advance(PENDING_TTL_MS);
    expect(await readPendingToken(deps, token, 'interaction-1')).toBeUndefined();
  });
});

describe('/api/me/second-factor', () => {
  it('enrols: a secret with its otpauth URI and QR code, confirmed by a code, with ten recovery codes', async () => {
    const sub = await accountUser('tf-enrol');
    expect((await t.call('GET', '/api/me/second-factor', undefined, sub)).json()).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
    });
    const first = (
      await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, sub)
    ).json() as {
      secret: string;
    };
    // A second start replaces the unconfirmed secret: the first one's codes no longer confirm.
    const started = await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, sub);
    const body = started.json() as { secret: string; otpauthUri: string; qrSvg: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.secret).not.toBe(first.secret);
    expect(body.otpauthUri).toContain(`secret=${body.secret}`);
    expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Heizplan:tf-enrol%40example\.test\?/);
    expect(body.qrSvg).toMatch(/^<svg /);
    const stale = await t.call(
      'POST',
      '/api/me/second-factor/totp/confirm',
      { code: await totpCode(first.secret, epochNow()) },
      sub,
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'totp_code_wrong', errors: [{ field: 'body.code' }] });

    const confirmed = await t.call(
      'POST',
      '/api/me/second-factor/totp/confirm',
      { code: await totpCode(body.secret, epochNow()) },
      sub,
    );
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await t.call('GET', '/api/me/second-factor', undefined, sub)).json()).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
    });
    const again = await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, sub);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'totp_already_enabled' });
  });

  it('confirms nothing without a started setup', async () => {
    const sub = await accountUser('tf-unstarted');
    const res = await t.call('POST', '/api/me/second-factor/totp/confirm', { code: '123456' }, sub);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'totp_not_started' });
  });

  it('disables only with the right password and a code, naming the wrong field', async () => {
    const sub = await accountUser('tf-disable');
    const { secret, recoveryCodes } = await enrol(sub);
    clock.advance(TOTP_PERIOD_SECONDS * 1000);
    const code = await totpCode(secret, epochNow());

    const wrongPassword = await t.call(
      'DELETE',
      '/api/me/second-factor/totp',
      { password: 'nope', code },
      sub,
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({
      code: 'current_password_wrong',
      errors: [{ field: 'body.password', code: 'current_password_wrong' }],
    });
    const wrongCode = await t.call(
      'DELETE',
      '/api/me/second-factor/totp',
      { password: PASSWORD, code: code === '000000' ? '111111' : '000000' },
      sub,
    );
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toMatchObject({ errors: [{ field: 'body.code', code: 'totp_code_wrong' }] });
    expect((await t.call('GET', '/api/me/second-factor', undefined, sub)).json()).toMatchObject({
      totp: true,
    });

    const ok = await t.call(
      'DELETE',
      '/api/me/second-factor/totp',
      { password: PASSWORD, code: recoveryCodes[3] },
      sub,
    );
    expect(ok.statusCode).toBe(204);
    expect((await t.call('GET', '/api/me/second-factor', undefined, sub)).json()).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
    });
    const gone = await t.call('DELETE', '/api/me/second-factor/totp', { password: PASSWORD, code }, sub);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'totp_not_enabled' });
  });
});

describe('with an external issuer', () => {
  let external: TestApp;
  beforeAll(async () => {
    external = await buildTestApp({ OIDC_ISSUER: 'http://external.test', OIDC_CLIENT_ID: 'heizplan-web' });
  });
  afterAll(() => external.close());

  it('answers 409 accounts_external: the issuer owns the second factor', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/me/second-factor', undefined],
      ['POST', '/api/me/second-factor/totp', undefined],
      ['POST', '/api/me/second-factor/totp/confirm', { code: '123456' }],
      ['DELETE', '/api/me/second-factor/totp', { password: PASSWORD, code: '123456' }],
    ] as const) {
      const res = await external.call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json()).toMatchObject({ code: 'accounts_external' });
    }
  });
});
