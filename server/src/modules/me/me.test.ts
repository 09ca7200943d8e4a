import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { accountDeletionRequests, identityAccounts, users } from '../../db/schema.ts';
import { createCompany, expectProblem, forgedAuthorization, recordAccountCalls } from './account.fixtures.ts';

let t: TestApp;
let calls: ReturnType<typeof recordAccountCalls>;
beforeAll(async () => {
  t = await buildTestApp();
  calls = recordAccountCalls(t);
});
afterAll(() => t.close());

const userRow = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0];

describe('GET /api/me/', () => {
  it('returns the provisioned profile with the ids of the user’s companies', async () => {
    const company = await createCompany(t, 'me-alice');
    const res = await t.app.inject({ method: 'GET', url: '/api/me/', headers: await t.as('me-alice') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'me-alice',
      name: 'me-alice',
      email: 'me-alice@example.test',
      email_verified: true,
      lang: null,
      company_ids: [company.id],
    });
    expect(Date.parse(res.json().created_at)).not.toBeNaN();
  });

  it('answers 401 without a token and with a token signed by a foreign key', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/me/' }), 401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/me/',
      headers: await forgedAuthorization('me-eve'),
    });
    expectProblem(forged, 401);
    expect(await userRow('me-eve')).toBeUndefined();
  });
});

describe('PUT /api/me/', () => {
  it('saves trimmed name and email; a new email is unverified again', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/',
      headers: await t.as('me-bob'),
      payload: { name: '  Bob Builder ', email: ' bob.new@example.test  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Bob Builder',
      email: 'bob.new@example.test',
      email_verified: false,
    });
    expect(await userRow('me-bob')).toMatchObject({ name: 'Bob Builder', email: 'bob.new@example.test' });
  });

  it('keeps the verification when only the name changes', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/',
      headers: await t.as('me-carol'),
      payload: { name: 'Carol', email: 'ME-CAROL@example.test' },
    });
    expect(res.json()).toMatchObject({ name: 'Carol', email_verified: true });
  });

  it('moves name and sign-in email of an embedded account along, the email unverified', async () => {
    await t.database.db.insert(identityAccounts).values({
      id: 'me-lena',
      email: 'me-lena@example.test',
      name: 'Lena',
      passwordHash: 'x',
      emailVerified: true,
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/',
      headers: await t.as('me-lena'),
      payload: { name: 'Lena Lind', email: 'lena.new@example.test' },
    });
    expect(res.statusCode).toBe(200);
    const [account] = await t.database.db
      .select()
      .from(identityAccounts)
      .where(eq(identityAccounts.id, 'me-lena'));
    expect(account).toMatchObject({
      name: 'Lena Lind',
      email: 'lena.new@example.test',
      emailVerified: false,
    });
  });

  it('answers 409 and saves nothing when another sign-in account has that email', async () => {
    await t.database.db.insert(identityAccounts).values([
      { id: 'me-mia', email: 'me-mia@example.test', name: 'Mia', passwordHash: 'x' },
      { id: 'me-noah', email: 'noah@example.test', name: 'Noah', passwordHash: 'x' },
    ]);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/',
      headers: await t.as('me-mia'),
      payload: { name: 'Mia Renamed', email: 'NOAH@example.test' },
    });
    expectProblem(res, 409);
    expect(await userRow('me-mia')).toMatchObject({ name: 'me-mia', email: 'me-mia@example.test' });
    const [account] = await t.database.db
      .select()
      .from(identityAccounts)
      .where(eq(identityAccounts.id, 'me-mia'));
    expect(account?.email).toBe('me-mia@example.test');
  });

  it.each([
    ['an invalid email', { name: 'Dave', email: 'not-an-email' }, 'body.email'],
    ['a blank name', { name: '   ', email: 'dave@example.test' }, 'body.name'],
    ['a name with a control character', { name: 'Da\u0000ve', email: 'dave@example.test' }, 'body.name'],
    ['a missing email', { name: 'Dave' }, 'body.email'],
  ])('rejects %s with a field error and saves nothing', async (_case, payload, field) => {
    const headers = await t.as('me-dave');
    const res = await t.app.inject({ method: 'PUT', url: '/api/me/', headers, payload });
    expect(expectProblem(res, 400).errors?.map((e) => e.field)).toContain(field);
    expect(await userRow('me-dave')).toMatchObject({ name: 'me-dave', email: 'me-dave@example.test' });
  });

  it('gives an invalid email the code the web translates', async () => {
    const headers = await t.as('me-dave');
    const payload = { name: 'Dave', email: 'not-an-email' };
    const res = await t.app.inject({ method: 'PUT', url: '/api/me/', headers, payload });
    expect(expectProblem(res, 400).errors).toContainEqual(
      expect.objectContaining({ field: 'body.email', code: 'invalid_email' }),
    );
  });
});

describe('POST /api/me/language', () => {
  it('sets de or en', async () => {
    const headers = await t.as('me-erin');
    const de = await t.app.inject({ method: 'POST', url: '/api/me/language?lang=de', headers });
    expect(de.json().lang).toBe('de');
    const en = await t.app.inject({ method: 'POST', url: '/api/me/language?lang=en', headers });
    expect(en.json().lang).toBe('en');
  });

  it.each(['lang=fr', 'lang=DE', ''])('rejects "%s" with 400 and keeps the language unset', async (query) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/me/language?${query}`,
      headers: await t.as('me-frank'),
    });
    expect(expectProblem(res, 400).errors?.[0]?.field).toBe('querystring.lang');
    expect((await userRow('me-frank'))?.lang).toBeNull();
  });
});

describe('PUT /api/me/password', () => {
  it('hands the new password from the JSON body to the account store', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers: await t.as('me-gina'),
      payload: { currentPassword: 'old horse battery', password: 'correct horse battery' },
    });
    expect(res.statusCode).toBe(204);
    expect(calls.password).toContainEqual(['me-gina', 'correct horse battery']);
  });

  it('rejects a short password and a password in the query string', async () => {
    const headers = await t.as('me-hank');
    const short = await t.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers,
      payload: { currentPassword: 'old horse battery', password: 'short' },
    });
    expect(expectProblem(short, 400).errors?.[0]?.field).toBe('body.password');
    const inQuery = await t.app.inject({
      method: 'PUT',
      url: '/api/me/password?password=correct-horse-battery',
      headers,
    });
    expect(expectProblem(inQuery, 400).detail).toContain('JSON body');
    expect(calls.password.filter(([id]) => id === 'me-hank')).toEqual([]);
  });
});

describe('POST /api/me/request-verification', () => {
  it('asks the account store to send a verification mail to an unverified user', async () => {
    const headers = { authorization: `Bearer ${await t.issuer.sign('me-ivan', { email_verified: false })}` };
    const res = await t.app.inject({ method: 'POST', url: '/api/me/request-verification', headers });
    expect(res.statusCode).toBe(202);
    expect(calls.verification).toContain('me-ivan');
  });

  it('answers 409 when the email is already verified', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/request-verification',
      headers: await t.as('me-jane'),
    });
    expectProblem(res, 409);
    expect(calls.verification).not.toContain('me-jane');
  });
});

describe('DELETE /api/me/request_deletion', () => {
  it('deactivates the account at once, schedules removal in 30 days and calls the billing hook', async () => {
    const headers = await t.as('me-kim');
    await t.app.inject({ method: 'GET', url: '/api/me/', headers });
    const res = await t.app.inject({ method: 'DELETE', url: '/api/me/request_deletion', headers });
    expect(res.statusCode).toBe(202);
    expect((await userRow('me-kim'))?.active).toBe(false);
    const [request] = await t.database.db
      .select()
      .from(accountDeletionRequests)
      .where(eq(accountDeletionRequests.userId, 'me-kim'));
    expect(request).toBeDefined();
    expect(request!.purgeAfter.getTime() - request!.requestedAt.getTime()).toBe(30 * 86_400_000);
    expect(calls.deletion).toEqual(['me-kim']);

    const later = await t.app.inject({ method: 'GET', url: '/api/me/', headers: await t.as('me-kim') });
    expectProblem(later, 401);
  });

  it('answers 401 without a token and records nothing', async () => {
    expectProblem(await t.app.inject({ method: 'DELETE', url: '/api/me/request_deletion' }), 401);
    expect(await t.database.db.select().from(accountDeletionRequests)).toHaveLength(1);
  });
});

describe('with an external issuer', () => {
  let external: TestApp;
  beforeAll(async () => {
    external = await buildTestApp({ OIDC_ISSUER: 'http://external.test', OIDC_CLIENT_ID: 'heizplan-web' });
  });
  afterAll(() => external.close());

  it('answers 409 to password changes and verification requests, which belong to that issuer', async () => {
    const external_calls = recordAccountCalls(external);
    const headers = {
      authorization: `Bearer ${await external.issuer.sign('ext-user', { email_verified: false })}`,
    };
    const pw = await external.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers,
      payload: { currentPassword: 'old horse battery', password: 'correct horse battery' },
    });
    expectProblem(pw, 409);
    expectProblem(
      await external.app.inject({ method: 'POST', url: '/api/me/request-verification', headers }),
      409,
    );
    expect(external_calls).toEqual({ verification: [], password: [], deletion: [] });
  });
});
