/**
 * Company API tokens (decision 0058): created by admins only and shown once, stored as a hash;
 * accepted as `Authorization: Bearer hp_…` on the company's own endpoints with the token's role
 * walked like a member's; refused when unknown, expired or revoked (401), outside the company
 * (403), beyond its rate (429); never listed as a member.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { hashApiToken } from '../../auth/api-token-auth.ts';
import { apiTokens } from '../../db/schema.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

// Expiry, the rate window and last use are read from this clock, not the machine's.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

describe('API tokens', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let otherCompanyId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const withToken = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const create = async (body: object) => {
    const res = await call('POST', `${c}/api-tokens`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    // A low rate so the limit can be reached here.
    t = await buildTestApp({ API_TOKEN_RATE_LIMIT: '8' }, { clock: clock.now });
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'hannah', 'heating');
    await addMember(t, companyId, 'erin', 'ems');
    await call('POST', `${c}/units`, { name: 'Klasse 5a' });
  });
  afterAll(() => t.close());

  it('creates a token shown once, stores only its hash and lists it without the token', async () => {
    const created = await create({ name: ' Energiemanagement ', role: 'ems', expiresInDays: 30 });
    expect(created.token).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'Energiemanagement',
      role: 'ems',
      prefix: created.token.slice(0, 9),
      lastUsedAt: null,
      revokedAt: null,
      createdBy: { id: 'alice', name: 'Alice' },
    });
    const days = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row?.tokenHash).toBe(hashApiToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const list = (await call('GET', `${c}/api-tokens`)).json();
    const { token: _shownOnce, ...listed } = created;
    expect(list.results).toEqual([listed]);
    expect(JSON.stringify(list)).not.toContain(created.token);
    // Never a member: the team list shows people only.
    const members = await call('GET', `/api/companies/${companyId}/members/`);
    expect(members.statusCode).toBe(200);
    expect(JSON.stringify(members.json())).toContain('alice');
    expect(JSON.stringify(members.json())).not.toContain('apitoken:');
  });

  it('lets only admins manage tokens: 403 for heating and ems, 404 for a stranger', async () => {
    for (const user of ['hannah', 'erin']) {
      for (const [method, url] of [
        ['GET', `${c}/api-tokens`],
        ['POST', `${c}/api-tokens`],
      ] as const) {
        const res = await call(method, url, method === 'POST' ? { name: 'x' } : undefined, user);
        expect(res.statusCode).toBe(403);
      }
    }
    expect((await call('GET', `${c}/api-tokens`, undefined, 'mallory')).statusCode).toBe(404);
  });

  it('refuses an admin token, a lifetime over 366 days and an empty name, naming the field', async () => {
    for (const [body, field] of [
      [{ name: 'x', role: 'admin' }, 'body.role'],
      [{ name: 'x', expiresInDays: 367 }, 'body.expiresInDays'],
      [{ name: '  ' }, 'body.name'],
    ] as const) {
      const res = await call('POST', `${c}/api-tokens`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe(field);
    }
  });

  it("reads with an ems token, is refused writes (403), other companies and the caller's profile", async () => {
    const { token } = await create({ name: 'EMS lesend', role: 'ems' });
    const units = await withToken('GET', `${c}/units`, token);
    expect(units.statusCode).toBe(200);
    expect(units.json().results.map((u: { name: string }) => u.name)).toEqual(['Klasse 5a']);
    const write = await withToken('POST', `${c}/units`, token, { name: 'Klasse 6b' });
    expect(write.statusCode).toBe(403);
    expect(write.headers['content-type']).toContain('application/problem+json');
    for (const url of [`/api/companies/${otherCompanyId}/units`, '/api/me/', '/api/companies/']) {
      const res = await withToken('GET', url, token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('api_token_scope');
    }
    expect((await withToken('POST', '/api/companies/setup', token, { name: 'Neu' })).statusCode).toBe(403);
    const [row] = await t.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashApiToken(token)));
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it('runs the heating with a heating token but cannot manage the company', async () => {
    const { token } = await create({ name: 'Leitsystem', role: 'heating' });
    expect((await withToken('POST', `${c}/units`, token, { name: 'Klasse 6b' })).statusCode).toBe(201);
    expect((await withToken('PATCH', `${c}/`, token, { name: 'Übernommen' })).statusCode).toBe(403);
    expect((await withToken('GET', `${c}/api-tokens`, token)).statusCode).toBe(403);
  });

  it('answers 401 to an unknown, an expired and a revoked token', async () => {
    expect((await withToken('GET', `${c}/units`, 'hp_not-a-token')).statusCode).toBe(401);
    const expiring = await create({ name: 'Abgelaufen', role: 'ems' });
    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(clock.now().getTime() - 1000) })
      .where(eq(apiTokens.id, expiring.id));
    expect((await withToken('GET', `${c}/units`, expiring.token)).statusCode).toBe(401);

    const revoked = await create({ name: 'Widerrufen', role: 'ems' });
    expect((await withToken('GET', `${c}/units`, revoked.token)).statusCode).toBe(200);
    const res = await call('POST', `${c}/api-tokens/${revoked.id}/revoke`);
    expect(res.statusCode).toBe(200);
    expect(res.json().revokedAt).not.toBeNull();
    const refused = await withToken('GET', `${c}/units`, revoked.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe('The API token is unknown, expired or revoked.');
    expect(
      (await call('POST', `${c}/api-tokens/${revoked.id}/revoke`, undefined, 'mallory')).statusCode,
    ).toBe(404);
  });

  it('keeps a token limited to buildings inside them, and refuses a building of another company', async () => {
    const building = async (name: string) =>
      (await call('POST', `${c}/buildings`, { name, state: 'BY' })).json().id as string;
    const [north, south] = [await building('Nordschule'), await building('Südschule')];
    const unit = async (name: string, buildingId: string) => {
      const created = (await call('POST', `${c}/units`, { name })).json().id as string;
      await call('PATCH', `${c}/units/${created}`, { buildingId });
      return created;
    };
    const [inNorth, inSouth] = [await unit('Nord 1', north), await unit('Süd 1', south)];
    const token = await create({ name: 'Hausmeister Nord', role: 'heating', buildingIds: [north] });
    expect(token.buildingIds).toEqual([north]);
    const status = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (await withToken(method, url, token.token, payload)).statusCode;
    const units = await withToken('GET', `${c}/units?buildingId=${north}`, token.token);
    expect(units.json().results.map((u: { name: string }) => u.name)).toEqual(['Nord 1']);
    expect(await status('GET', `${c}/units/${inNorth}`)).toBe(200);
    expect(await status('POST', `${c}/units/${inNorth}/setpoint`, { setpoint: 21 })).toBe(200);
    expect(await status('GET', `${c}/buildings/${north}/holidays?year=2026`)).toBe(200);
    expect(await status('GET', `/api/companies/${companyId}/`)).toBe(200);
    for (const url of [
      `${c}/units`,
      `${c}/units?buildingId=${south}`,
      `${c}/units/${inSouth}`,
      `${c}/buildings/${south}/holidays?year=2026`,
      `${c}/buildings`,
      `${c}/alerts`,
    ]) {
      const refused = await withToken('GET', url, token.token);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'api_token_buildings' });
    }
    expect(await status('POST', `${c}/units/${inSouth}/setpoint`, { setpoint: 21 })).toBe(403);
    const foreign = await call('POST', `/api/companies/${otherCompanyId}/buildings`, {
      name: 'Fremd',
      state: 'BY',
    });
    const foreignId =
      foreign.statusCode === 201 ? (foreign.json().id as string) : '00000000-0000-4000-8000-000000000099';
    const refused = await call('POST', `${c}/api-tokens`, {
      name: 'Fremd',
      role: 'ems',
      buildingIds: [foreignId],
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'unknown_building' });
  });

  it('limits each token to its requests a minute with 429 and Retry-After', async () => {
    const { token } = await create({ name: 'Eilig', role: 'ems' });
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(await withToken('GET', `${c}/units`, token));
    expect(answers.slice(0, 8).map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers[8]?.statusCode).toBe(429);
    expect(Number(answers[8]?.headers['retry-after'])).toBeGreaterThan(0);
    // Another token has its own count.
    const other = await create({ name: 'Geduldig', role: 'ems' });
    expect((await withToken('GET', `${c}/units`, other.token)).statusCode).toBe(200);
  });
});
