/**
 * The company's second-factor policy (decision 0078) on the embedded account store: a member it
 * covers without a TOTP or passkey gets 403 `second_factor_required` from every company call
 * (the units page's own statement too), while the account calls that set a factor up still work
 * and `/api/me` says what is missing; a confirmed factor lets the member in again. An admin's
 * reset of a member's factors removes them, signs the member out, is logged and mailed. Adding a
 * factor needs the password (the step-up).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { auditLog, recoveryCodes, totpCredentials, users, webauthnCredentials } from '../db/schema.ts';
import { addMember, createCompany, expectProblem, recordMails } from '../modules/me/account.fixtures.ts';
import { STEP_UP_MAX_AGE_S } from '../modules/me/me.service.ts';
import { identityAccountPorts } from './account-ports.ts';
import { insertAccount } from './accounts.repository.ts';
import { AUTH_TIME_CLAIM, SIGN_OUT_EPOCH_CLAIM } from './bearer.ts';
import { hashPassword } from './password.ts';
import { totpCode } from './second-factor.service.ts';

const clock = testClock(testInstant('2026-12-03T09:00:00Z'));
const epochNow = () => Math.floor(clock.now().getTime() / 1000);
let t: TestApp;
let passwordHash: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await buildTestApp({}, { clock: clock.now });
  t.ports.account = identityAccountPorts(t.config, t.database.db, t.app.log, clock.now).account;
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => t.close());

/** A user with an embedded account (the policy covers only those). */
async function accountUser(sub: string) {
  expect((await t.call('GET', '/api/me/', undefined, sub)).statusCode).toBe(200);
  await insertAccount(t.database.db, { id: sub, email: `${sub}@example.test`, name: sub, passwordHash });
  return sub;
}

/** A company of `admin` (with an account) requiring `policy`, and a heating member with an account. */
async function world(prefix: string, policy: 'none' | 'admins' | 'all') {
  const admin = await accountUser(`${prefix}-admin`);
  const company = await createCompany(t, admin);
  const member = `${prefix}-member`;
  await addMember(t, company.id, member);
  await accountUser(member);
  const set = await t.call(
    'PATCH',
    `/api/companies/${company.id}/`,
    { second_factor_required: policy },
    admin,
  );
  expect(set.statusCode).toBe(200);
  return { admin, member, company };
}

const refused = (res: Awaited<ReturnType<TestApp['call']>>) => {
  expectProblem(res, 403);
  expect(res.json()).toMatchObject({ code: 'second_factor_required' });
};

describe('a company requiring a second factor of all members', () => {
  it('refuses its calls to a member without one, leaves the enrolment calls open, and lets them in once enrolled', async () => {
    const { member, company } = await world('pol-all', 'all');
    refused(await t.call('GET', `/api/companies/${company.id}/`, undefined, member));
    refused(await t.call('GET', `/api/companies/${company.id}/units`, undefined, member));
    refused(await t.call('GET', `/api/companies/${company.id}/members/`, undefined, member));
    refused(await t.call('GET', `/api/licenses/${company.id}/`, undefined, member));
    const me = await t.call('GET', '/api/me/', undefined, member);
    expect(me.json()).toMatchObject({ second_factor_required: true, company_ids: [company.id] });
    expect((await t.call('GET', '/api/me/second-factor', undefined, member)).statusCode).toBe(200);
    expect((await t.call('GET', '/api/me/passkeys', undefined, member)).statusCode).toBe(200);
    expect(
      (await t.call('POST', '/api/me/passkeys/registration-options', { password: PASSWORD }, member))
        .statusCode,
    ).toBe(200);
    expect((await t.call('GET', '/api/me/sessions', undefined, member)).statusCode).toBe(200);

    const started = await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, member);
    expect(started.statusCode).toBe(200);
    const { secret } = started.json() as { secret: string };
    // A started but unconfirmed TOTP is no second factor yet.
    refused(await t.call('GET', `/api/companies/${company.id}/`, undefined, member));
    const code = await totpCode(secret, epochNow());
    const confirmed = await t.call('POST', '/api/me/second-factor/totp/confirm', { code }, member);
    expect(confirmed.statusCode).toBe(200);

    expect((await t.call('GET', `/api/companies/${company.id}/`, undefined, member)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/companies/${company.id}/units`, undefined, member)).statusCode).toBe(
      200,
    );
    expect((await t.call('GET', '/api/me/', undefined, member)).json()).toMatchObject({
      second_factor_required: false,
    });
  });

  it('covers only accounts of the embedded provider: a user signed in elsewhere is not asked', async () => {
    const { company } = await world('pol-ext', 'all');
    await addMember(t, company.id, 'pol-ext-foreign');
    expect(
      (await t.call('GET', `/api/companies/${company.id}/`, undefined, 'pol-ext-foreign')).statusCode,
    ).toBe(200);
    expect((await t.call('GET', '/api/me/', undefined, 'pol-ext-foreign')).json()).toMatchObject({
      second_factor_required: false,
    });
  });
});

describe('a company requiring a second factor of its admins', () => {
  it('refuses the admin without one and lets other members in', async () => {
    const { admin, member, company } = await world('pol-admins', 'admins');
    refused(await t.call('GET', `/api/companies/${company.id}/`, undefined, admin));
    refused(
      await t.call('PATCH', `/api/companies/${company.id}/`, { second_factor_required: 'none' }, admin),
    );
    expect((await t.call('GET', `/api/companies/${company.id}/`, undefined, member)).statusCode).toBe(200);
    expect((await t.call('GET', '/api/me/', undefined, admin)).json()).toMatchObject({
      second_factor_required: true,
    });
    expect((await t.call('GET', '/api/me/', undefined, member)).json()).toMatchObject({
      second_factor_required: false,
    });
  });

  it('keeps the admin’s other company without a policy open', async () => {
    const { admin, company } = await world('pol-other', 'admins');
    const own = await createCompany(t, admin, 'No policy here');
    expect((await t.call('GET', `/api/companies/${own.id}/`, undefined, admin)).statusCode).toBe(200);
    refused(await t.call('GET', `/api/companies/${company.id}/`, undefined, admin));
  });
});

/** Enrols and confirms a TOTP for `sub` through the API. */
async function enrolTotp(sub: string) {
  const started = await t.call('POST', '/api/me/second-factor/totp', { password: PASSWORD }, sub);
  const { secret } = started.json() as { secret: string };
  const code = await totpCode(secret, epochNow());
  expect((await t.call('POST', '/api/me/second-factor/totp/confirm', { code }, sub)).statusCode).toBe(200);
}

describe('POST /api/companies/{id}/members/{sub}/second-factor/reset', () => {
  it('removes TOTP, recovery codes and passkeys, signs the member out, logs and mails it', async () => {
    const { admin, member, company } = await world('reset', 'all');
    await enrolTotp(admin);
    await enrolTotp(member);
    await t.database.db
      .insert(webauthnCredentials)
      .values({ userId: member, credentialId: 'reset-key', publicKey: 'pk', name: 'Laptop' });
    const memberHeaders = await t.as(member);
    const mails = recordMails(t);

    const url = `/api/companies/${company.id}/members/${member}/second-factor/reset`;
    const res = await t.call('POST', url, undefined, admin);
    expect(res.statusCode).toBe(204);

    const db = t.database.db;
    expect(await db.select().from(totpCredentials).where(eq(totpCredentials.userId, member))).toEqual([]);
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, member))).toEqual([]);
    expect(await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, member))).toEqual(
      [],
    );
    // The admin's own factor stays.
    expect(await db.select().from(totpCredentials).where(eq(totpCredentials.userId, admin))).toHaveLength(1);
    // The token the member held before is refused: every session ended.
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/me/', headers: memberHeaders }), 401);

    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.resourceId, member)));
    expect(entries).toMatchObject([{ actorId: admin, method: 'POST', resource: 'members', status: 204 }]);

    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: `${member}@example.test`,
      subject: 'Ihre Anmeldung bei Heizplan wurde zurückgesetzt',
    });
    expect(mails[0]?.text).toContain(`${admin}, Administrator der Firma ${company.name}`);
    expect(mails[0]?.text).toContain('/settings/general');

    // A fresh sign-in (its token carries the sign-out epoch it was issued in) finds the policy
    // again: the member must set a factor up anew.
    const [row] = await db
      .select({ validFrom: users.tokensValidFrom })
      .from(users)
      .where(eq(users.id, member));
    const fresh = await t.issuer.sign(member, { [SIGN_OUT_EPOCH_CLAIM]: row?.validFrom?.getTime() });
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/me/',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(again.json()).toMatchObject({ second_factor_required: true });
  });

  it('mails in English to a member who chose English', async () => {
    const { admin, member, company } = await world('reset-en', 'none');
    expect((await t.call('POST', '/api/me/language?lang=en', undefined, member)).statusCode).toBe(200);
    const mails = recordMails(t);
    const url = `/api/companies/${company.id}/members/${member}/second-factor/reset`;
    expect((await t.call('POST', url, undefined, admin)).statusCode).toBe(204);
    expect(mails[0]?.subject).toBe('Your Heizplan sign-in was reset');
  });

  it('refuses one’s own reset (409), members who are not admins (403), strangers and non-members (404)', async () => {
    const { admin, member, company } = await world('reset-refuse', 'none');
    const base = `/api/companies/${company.id}/members`;
    const own = await t.call('POST', `${base}/${admin}/second-factor/reset`, undefined, admin);
    expectProblem(own, 409);
    expect(own.json()).toMatchObject({ code: 'second_factor_reset_self' });
    expectProblem(await t.call('POST', `${base}/${admin}/second-factor/reset`, undefined, member), 403);
    const stranger = await accountUser('reset-stranger');
    await createCompany(t, stranger);
    expectProblem(await t.call('POST', `${base}/${member}/second-factor/reset`, undefined, stranger), 404);
    expectProblem(await t.call('POST', `${base}/nobody-here/second-factor/reset`, undefined, admin), 404);
  });
});

describe('the step-up before a factor is added', () => {
  it.each([
    ['a TOTP', '/api/me/second-factor/totp'],
    ['a passkey', '/api/me/passkeys/registration-options'],
  ])(
    'refuses %s without the password (403) or with a wrong one (400), and goes on with it',
    async (_what, url) => {
      const sub = await accountUser(`step-up-${url.length}`);
      const bare = await t.call('POST', url, undefined, sub);
      expectProblem(bare, 403);
      expect(bare.json()).toMatchObject({ code: 'step_up_required', params: { field: 'body.password' } });
      expectProblem(await t.call('POST', url, {}, sub), 403);
      const wrong = await t.call('POST', url, { password: 'not the password' }, sub);
      expectProblem(wrong, 400);
      expect(wrong.json()).toMatchObject({
        errors: [{ field: 'body.password', code: 'current_password_wrong' }],
      });
      expect((await t.call('POST', url, { password: PASSWORD }, sub)).statusCode).toBe(200);
    },
  );
});

describe('a recent sign-in as the step-up', () => {
  it.each([
    ['a TOTP', '/api/me/second-factor/totp'],
    ['a passkey', '/api/me/passkeys/registration-options'],
  ])(
    'lets a sign-in of the last 10 minutes add %s without the password, not an older one',
    async (_what, url) => {
      const sub = await accountUser(`step-up-recent-${url.length}`);
      const nowS = Math.floor(clock.now().getTime() / 1000);
      const call = async (authTime: number) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${await t.issuer.sign(sub, { [AUTH_TIME_CLAIM]: authTime })}` },
        });
      const old = await call(nowS - STEP_UP_MAX_AGE_S - 1);
      expectProblem(old, 403);
      expect(old.json()).toMatchObject({ code: 'step_up_required' });
      // A sign-in time ahead of now is no proof.
      expectProblem(await call(nowS + 60), 403);
      expect((await call(nowS - STEP_UP_MAX_AGE_S)).statusCode).toBe(200);
    },
  );
});
