/**
 * The company's second-factor policy (decision 0078) on the embedded account store: a member it
 * covers without a TOTP or passkey gets 403 `second_factor_required` from every company call
 * (the units page's own statement too), while the account calls that set a factor up still work
 * and `/api/me` says what is missing; a confirmed factor lets the member in again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { addMember, createCompany, expectProblem } from '../modules/me/account.fixtures.ts';
import { identityAccountPorts } from './account-ports.ts';
import { insertAccount } from './accounts.repository.ts';
import { hashPassword } from './password.ts';
import { totpCode } from './second-factor.service.ts';

const clock = testClock(testInstant('2026-12-03T09:00:00Z'));
const epochNow = () => Math.floor(clock.now().getTime() / 1000);
let t: TestApp;
let passwordHash: string;

beforeAll(async () => {
  t = await buildTestApp({}, { clock: clock.now });
  t.ports.account = identityAccountPorts(t.config, t.database.db, t.app.log, clock.now).account;
  passwordHash = await hashPassword('correct horse battery');
});
afterAll(() => t.close());

/** A user with an embedded account (the policy covers only those). */
async function accountUser(sub: string) {
  expect((await t.call('GET', '/api/me/', undefined, sub)).statusCode).toBe(200);
  await insertAccount(t.database.db, { id: sub, email: `${sub}@example.test`, name: sub, passwordHash });
  return sub;
}

/** A company of `admin` (with an account) requiring `policy`, and a heating member with an account. */
async function world(prefix: string, policy: 'admins' | 'all') {
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
      (await t.call('POST', '/api/me/passkeys/registration-options', undefined, member)).statusCode,
    ).toBe(200);
    expect((await t.call('GET', '/api/me/sessions', undefined, member)).statusCode).toBe(200);

    const started = await t.call('POST', '/api/me/second-factor/totp', undefined, member);
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
